#!/bin/sh
# Builds the adapters that need compiling. Idempotent: go build only
# relinks what changed. Run from anywhere.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/seed-go-context"
go build -trimpath -o seed-go-context .
echo "built $here/seed-go-context/seed-go-context"

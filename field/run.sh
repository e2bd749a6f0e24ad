#!/usr/bin/env bash
# Field audits: install each published package at its pinned version into
# field/.cache/ (a venv per Python package; the registry tarball per npm
# package, or an npm install with dependencies where the framing is reached
# only by running the package), then run framecheck against every field/<audit>/profile.yaml and
# write the reports to reports/field/.
#
#   field/run.sh                  install what is missing, run every audit
#   field/run.sh pydantic-ai-wrap openclaw-external-content   only these
#   field/run.sh --install-only   install, run nothing
#   field/run.sh --install-npm-servers   install only the npm MCP servers
#
# FRAMECHECK=/path/to/framecheck picks the binary (default: a release build
# of this checkout). Each audit's exit code is kept: 0 conformance held,
# 1 findings, 2 harness error. The script goes on past every failure and
# exits 0 when every audit finished (with or without findings), 2 when an
# install failed or an audit did not finish. Not part of `cargo test`:
# `.ci/run` runs it when FRAMECHECK_FIELD=1.
set -uo pipefail
cd "$(dirname "$0")/.."

CACHE=field/.cache
OUT=reports/field

# The pins. A venv or tarball directory is named after the exact pin, so a
# changed pin installs afresh instead of reusing an older version (and a
# venv whose recorded pins differ is installed again).
PY_PINS=(
  "pydantic-ai-slim==2.68.0"
  "langchain-classic==1.0.8"
  "agent-cordon==0.3.0"
  "semantic-kernel==1.45.0"
  "langchain-core==1.8.3"
  "openai-agents==0.24.0"
  "dspy==3.4.1"
  "mcp-server-fetch==2026.10.24"
  "markitdown-mcp==0.0.1a8"
  # A server whose own dependency range admits an MCP SDK it does not run
  # under: the SDK pinned beside it (the first pin names the directory).
  "mcp-text-editor==1.0.2 mcp==1.30.0"
  # The reference Git MCP server (field/mcp-server-git-log).
  "mcp-server-git==2026.10.19"
  # The reference SQLite MCP server (field/mcp-server-sqlite-read-query),
  # which does not start under the MCP SDK 2.x its own range admits
  # ('Server' object has no attribute 'list_resources'): the SDK pinned
  # beside it.
  "mcp-server-sqlite==2025.4.25 mcp==1.30.0"
  "smolagents==1.26.0"
  "llama-index-core==0.14.25"
)
NPM_PINS=(
  "openclaw@2026.9.6"
  "@langchain/classic@1.0.50"
)
# npm packages whose framing is reached only by running them, installed with
# their dependencies; the first pin names the directory, the rest are the
# peers the adapter needs, pinned too.
NPM_INSTALL_PINS=(
  "@supabase/mcp-server-supabase@0.13.0 @modelcontextprotocol/server@2.4.0 @modelcontextprotocol/client@2.4.0"
  "@modelcontextprotocol/server-filesystem@2026.8.31"
  "@modelcontextprotocol/server-memory@2026.8.31"
  "@modelcontextprotocol/server-everything@2026.8.31"
  "@agent-infra/mcp-server-filesystem@1.2.29"
)

# Directory name for a pin: `pydantic-ai-slim==2.68.0` -> `pydantic-ai-slim-2.68.0`,
# `@langchain/classic@1.0.50` -> `langchain-classic-1.0.50`.
pin_dir() {
  local pin=${1#@}
  pin=${pin//==/-}
  pin=${pin//@/-}
  printf '%s' "${pin//\//-}"
}

install_py() {
  local pins=($1) dir
  dir="$CACHE/py/$(pin_dir "${pins[0]}")"
  [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "${pins[*]}" ] && return 0
  echo "field: installing ${pins[*]} (PyPI) into $dir"
  rm -rf "$dir"
  python3 -m venv "$dir" &&
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check \
      --no-compile --prefer-binary "${pins[@]}" &&
    echo "${pins[*]}" >"$dir/.installed"
}

install_npm() {
  local pin=$1 dir tmp
  dir="$CACHE/npm/$(pin_dir "$pin")"
  [ -f "$dir/.installed" ] && return 0
  echo "field: fetching $pin (npm registry tarball) into $dir"
  rm -rf "$dir"
  tmp=$(mktemp -d)
  # `npm pack` fetches the published tarball and checks its integrity; the
  # audited modules import nothing outside the package, so it is unpacked
  # as it is, without the package's (large) dependency tree.
  if (cd "$tmp" && npm pack --silent "$pin" >/dev/null) &&
    mkdir -p "$dir" && tar xzf "$tmp"/*.tgz -C "$dir"; then
    echo "$pin" >"$dir/.installed"
    rm -rf "$tmp"
  else
    rm -rf "$tmp"
    return 1
  fi
}

install_npm_deps() {
  local pins=($1) dir
  dir="$CACHE/npm/$(pin_dir "${pins[0]}")"
  [ -f "$dir/.installed" ] && return 0
  echo "field: installing ${pins[*]} (npm, with dependencies) into $dir"
  rm -rf "$dir"
  mkdir -p "$dir" &&
    npm install --prefix "$dir" --no-save --no-package-lock --ignore-scripts \
      --no-audit --no-fund --loglevel=error "${pins[@]}" >/dev/null &&
    echo "${pins[*]}" >"$dir/.installed"
}

install_npm_servers() {
  local failed=0 pin
  for pin in "${NPM_INSTALL_PINS[@]}"; do install_npm_deps "$pin" || { echo "field: install FAILED: $pin" >&2; failed=1; }; done
  return $failed
}

install_all() {
  local failed=0 pin
  for pin in "${PY_PINS[@]}"; do install_py "$pin" || { echo "field: install FAILED: $pin" >&2; failed=1; }; done
  for pin in "${NPM_PINS[@]}"; do install_npm "$pin" || { echo "field: install FAILED: $pin" >&2; failed=1; }; done
  install_npm_servers || failed=1
  return $failed
}

install_only=0
audits=()
for arg in "$@"; do
  case $arg in
    --install-only) install_only=1 ;;
    # The npm servers the MCP tests start (.ci/run): one list of pins.
    --install-npm-servers) install_npm_servers; exit $(($? ? 2 : 0)) ;;
    -*) echo "field/run.sh: unknown option $arg" >&2; exit 2 ;;
    *) audits+=("$arg") ;;
  esac
done

install_all
install_status=$?
[ $install_only = 1 ] && exit $((install_status ? 2 : 0))

if [ ${#audits[@]} -eq 0 ]; then
  for profile in field/*/profile.yaml; do audits+=("$(basename "$(dirname "$profile")")"); done
fi

FRAMECHECK=${FRAMECHECK:-}
if [ -z "$FRAMECHECK" ]; then
  cargo build --release --quiet || { echo "field: cargo build failed" >&2; exit 2; }
  FRAMECHECK=target/release/framecheck
fi

mkdir -p "$OUT"
summary=()
harness_errors=0
for audit in "${audits[@]}"; do
  profile="field/$audit/profile.yaml"
  if [ ! -f "$profile" ]; then
    summary+=("$audit: no profile at $profile")
    harness_errors=1
    continue
  fi
  echo "field: === $audit"
  "$FRAMECHECK" run --target "$profile" --out "$OUT" --format json --format markdown
  code=$?
  case $code in
    0) summary+=("$audit: no failing finding (exit 0), see $OUT/$audit.md for the level held and the classes reported apart") ;;
    1) summary+=("$audit: findings (exit 1), see $OUT/$audit.md") ;;
    *) summary+=("$audit: harness error (exit $code)"); harness_errors=1 ;;
  esac
done

echo "field: summary"
printf '  %s\n' "${summary[@]}"
if [ $install_status != 0 ] || [ $harness_errors != 0 ]; then exit 2; fi
exit 0

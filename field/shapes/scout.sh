#!/usr/bin/env bash
# Field scouting for issue 57's shapes (field/shapes/SCOUT.md): install the
# pinned packages the scout adapters call into field/.cache/ (the layout
# field/run.sh uses, so a pin both name shares one install), then, for each
# scout audit, run `framecheck init` on its adapter alone and `framecheck
# run` under its profile.yaml where today's vocabulary can state one.
#
#   field/shapes/scout.sh --install-only
#   field/shapes/scout.sh OUT [AUDIT...]   init proposals and reports into OUT
#
# FRAMECHECK=/path/to/framecheck picks the binary (default: a release build
# of this checkout). Not part of `cargo test` or field/run.sh: these audits
# wait for the shapes of issue 57; wanted.yaml in each audit is the profile
# they are meant to get, and is not valid today.
set -uo pipefail
cd "$(dirname "$0")/.."

CACHE=.cache
PY_PINS=("smolagents==1.26.0" "llama-index-core==0.14.25" "dspy==3.4.1" "langchain-core==1.8.3" "langchain-classic==1.0.8")
NPM_INSTALL_PINS=("@modelcontextprotocol/server-memory@2026.8.31")

# The adapter command of each audit, as its profile (or wanted.yaml) names it.
declare -A COMMAND=(
  [mcp-server-memory-open-nodes]="node mcp-server-memory-open-nodes/adapter.mjs"
  [smolagents-code-agent-observation]="$CACHE/py/smolagents-1.26.0/bin/python smolagents-code-agent-observation/adapter.py"
  [smolagents-tool-calling-observation]="$CACHE/py/smolagents-1.26.0/bin/python smolagents-tool-calling-observation/adapter.py"
  [llama-index-text-qa-prompt]="$CACHE/py/llama-index-core-0.14.25/bin/python llama-index-text-qa-prompt/adapter.py"
  [llama-index-choice-select-batch]="$CACHE/py/llama-index-core-0.14.25/bin/python llama-index-choice-select-batch/adapter.py"
  [llama-index-condense-question-history]="$CACHE/py/llama-index-core-0.14.25/bin/python llama-index-condense-question-history/adapter.py"
  [llama-index-react-observation]="$CACHE/py/llama-index-core-0.14.25/bin/python llama-index-react-observation/adapter.py"
  [dspy-chat-adapter-passages]="$CACHE/py/dspy-3.4.1/bin/python dspy-chat-adapter-passages/adapter.py"
  [dspy-chat-adapter-json-list]="$CACHE/py/dspy-3.4.1/bin/python dspy-chat-adapter-json-list/adapter.py"
  [langchain-core-buffer-string-prefix]="$CACHE/py/langchain-core-1.8.3/bin/python langchain-core-buffer-string-prefix/adapter.py"
  [langchain-classic-summary-memory]="$CACHE/py/langchain-classic-1.0.8/bin/python langchain-classic-summary-memory/adapter.py"
)

# `smolagents==1.26.0` -> `smolagents-1.26.0`; `@scope/name@1.2` -> `scope-name-1.2`.
pin_dir() {
  local pin=${1#@}
  pin=${pin//==/-}
  pin=${pin//@/-}
  printf '%s' "${pin//\//-}"
}

install_all() {
  local failed=0 pin dir
  for pin in "${PY_PINS[@]}"; do
    dir="$CACHE/py/$(pin_dir "$pin")"
    [ -f "$dir/.installed" ] && continue
    echo "scout: installing $pin (PyPI) into $dir"
    rm -rf "$dir"
    { python3 -m venv "$dir" &&
      "$dir/bin/python" -m pip install --quiet --disable-pip-version-check \
        --no-compile --prefer-binary "$pin" &&
      echo "$pin" >"$dir/.installed"; } || { echo "scout: install FAILED: $pin" >&2; failed=1; }
  done
  for pin in "${NPM_INSTALL_PINS[@]}"; do
    dir="$CACHE/npm/$(pin_dir "$pin")"
    [ -f "$dir/.installed" ] && continue
    echo "scout: installing $pin (npm, with dependencies) into $dir"
    rm -rf "$dir"
    { mkdir -p "$dir" &&
      npm install --prefix "$dir" --no-save --no-package-lock --ignore-scripts \
        --no-audit --no-fund --loglevel=error "$pin" >/dev/null &&
      echo "$pin" >"$dir/.installed"; } || { echo "scout: install FAILED: $pin" >&2; failed=1; }
  done
  return $failed
}

install_all || exit 2
[ "${1:-}" = "--install-only" ] && exit 0
[ $# -ge 1 ] || { echo "usage: field/shapes/scout.sh --install-only | OUT [AUDIT...]" >&2; exit 2; }
out=$(realpath -m "$1"); shift
audits=("$@")
[ ${#audits[@]} -eq 0 ] && audits=($(printf '%s\n' "${!COMMAND[@]}" | sort))
FRAMECHECK=${FRAMECHECK:-$PWD/../target/release/framecheck}
[ -x "$FRAMECHECK" ] || { echo "scout: no framecheck binary at $FRAMECHECK (set FRAMECHECK)" >&2; exit 2; }
mkdir -p "$out"
for audit in "${audits[@]}"; do
  [ -n "${COMMAND[$audit]:-}" ] || { echo "scout: unknown audit $audit" >&2; exit 2; }
  echo "scout: init $audit"
  # shellcheck disable=SC2086 # the command is words, split on purpose
  "$FRAMECHECK" init -- ${COMMAND[$audit]} >"$out/$audit.init.yaml" 2>"$out/$audit.init.stderr"
  echo "init exit $?" >>"$out/$audit.init.stderr"
  if [ -f "shapes/$audit/profile.yaml" ]; then
    echo "scout: run $audit"
    "$FRAMECHECK" run --target "shapes/$audit/profile.yaml" --out "$out" \
      --format json --format markdown >"$out/$audit.run.txt" 2>&1
    echo "run exit $?" >>"$out/$audit.run.txt"
  fi
done

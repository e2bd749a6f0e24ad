# Sourced by fuzz/smoke.sh and .clusterfuzzlite/check.sh: one rule for
# whether they run. `need_cargo_fuzz NAME` returns when cargo-fuzz runs on a
# nightly toolchain. Otherwise it exits: with 1 under CI=true where a
# nightly exists (.ci/run installs cargo-fuzz there, so its absence is a
# broken setup, not a skip), else with 0 after saying NAME was skipped.
need_cargo_fuzz() {
  if cargo +nightly fuzz --version >/dev/null 2>&1; then
    return 0
  fi
  if [ "${CI:-}" = "true" ] && rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "$1: a nightly toolchain exists but cargo-fuzz does not run" >&2
    exit 1
  fi
  echo "$1: SKIPPED: cargo +nightly fuzz is not available (no nightly toolchain or no cargo-fuzz)"
  exit 0
}

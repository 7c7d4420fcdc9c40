#!/usr/bin/env bash
# The README's promise on a machine with Node alone: `npm ci && npm test` in a fresh
# clone passes with no Python environment (.venv, .venv-codegen), no Chromium and no
# published-contract folder beside it, every part that needs one of them skipped with
# a banner. Clones the committed HEAD into a temporary folder and runs it there, with
# CI unset (under CI=true a missing tool is a failure, as it must be for the main run).
# Prints the clone's vitest totals and the banners; exits with npm test's code.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/powercontext-node-alone-XXXXXX")"
trap 'rm -rf "$work"' EXIT
absent="$work/absent"

git clone --quiet --no-hardlinks --no-checkout "$repo" "$work/clone"
cd "$work/clone"
git checkout --quiet --detach "$(git -C "$repo" rev-parse HEAD)"
set +e
env -u CI -u PC_VENV -u POWERCONTEXT_CODEGEN_PYTHON \
  POWERCONTEXT_SHARED_DIR="$absent" CHROMIUM_PATH="$absent/chromium" \
  bash -c 'npm ci --no-audit --no-fund >/dev/null && npm test' >"$work/test.log" 2>&1
rc=$?
set -e
sed 's/\x1b\[[0-9;]*m//g' "$work/test.log" | grep -E '^!!! SKIPPED' | sed "s|$work/clone/||g" | sort -u || true
sed 's/\x1b\[[0-9;]*m//g' "$work/test.log" | grep -E '^ +(Test Files|Tests) ' || true
if [[ $rc -ne 0 ]]; then
  tail -n 80 "$work/test.log"
  echo "error: npm test with Node alone exited $rc"
fi
exit "$rc"

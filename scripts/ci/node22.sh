#!/usr/bin/env bash
# Provide a Node 22 binary without a system install, from the npm package `node`
# (which pulls the platform binary from the npm registry), cached under
# <repo>/.cache/node22. Prints the absolute path of the binary on the last line
# of stdout; progress goes to stderr.
#
#   NODE22_VERSION   npm version spec of the `node` package (default: 22.23.3)
#   NODE22_PREFIX    install prefix (default: <repo>/.cache/node22)
#
# Usage:  node22="$(bash scripts/ci/node22.sh | tail -n 1)"
#         "$node22" node_modules/vitest/vitest.mjs run packages/sdk
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
version="${NODE22_VERSION:-22.23.3}"
prefix="${NODE22_PREFIX:-$repo/.cache/node22}"
binary="$prefix/node_modules/node/bin/node"

current=""
if [[ -x "$binary" ]]; then
  current="$("$binary" --version 2>/dev/null || true)"
fi
case "$current" in
  v22.*) [[ "$version" == 22 || "v$version" == "$current" ]] || current="" ;;
  *) current="" ;;
esac

if [[ -z "$current" ]]; then
  echo "node22: installing node@$version into $prefix" >&2
  mkdir -p "$prefix"
  # --ignore-scripts must stay off: the package's preinstall step selects the platform binary.
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-package-lock \
    "node@$version" >&2
  current="$("$binary" --version)"
fi

case "$current" in
  v22.*) ;;
  *) echo "node22: expected a v22 binary at $binary, got '$current'" >&2; exit 1 ;;
esac
echo "node22: $current at $binary" >&2
echo "$binary"

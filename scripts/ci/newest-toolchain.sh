#!/usr/bin/env bash
# Installs, pinned, the current majors the repository's own install cannot hold while
# its development Node is 20 (docs/adr/0028-node-support-policy.md): vitest 5 (Node 22+),
# undici 8 (Node 22.19+) and TypeScript 7, under <repo>/.cache/newest, from the npm
# registry. The Node 22 and 24 lanes run the suites with this vitest, the undici 8 lane
# points the runtime at this undici (POWERCONTEXT_UNDICI_DIR, read by vitest.config.ts),
# and the TypeScript 7 lane builds every package with this tsc.
# Idempotent. Prints the install folder on the last line of stdout.
#
#   NEWEST_PREFIX   install folder (default: <repo>/.cache/newest)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
prefix="${NEWEST_PREFIX:-$repo/.cache/newest}"
pins=("vitest@5.1.2" "undici@8.14.0" "typescript@7.0.2")
stamp="$prefix/.pins"

if [[ ! -f "$stamp" || "$(cat "$stamp")" != "${pins[*]}" ]]; then
  echo "newest-toolchain: installing ${pins[*]} into $prefix" >&2
  mkdir -p "$prefix"
  # Its own package.json, so that npm installs here and not into the repository above.
  echo '{ "private": true }' > "$prefix/package.json"
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-package-lock --loglevel=error "${pins[@]}" >&2
  printf '%s' "${pins[*]}" > "$stamp"
fi
echo "newest-toolchain: vitest $(node -p "require('$prefix/node_modules/vitest/package.json').version"), undici $(node -p "require('$prefix/node_modules/undici/package.json').version"), typescript $(node -p "require('$prefix/node_modules/typescript/package.json').version")" >&2
echo "$prefix"

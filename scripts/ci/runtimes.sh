#!/usr/bin/env bash
# Installs the runtimes of the conformance lanes from the npm registry, pinned, under
# <repo>/.cache/runtimes (each package fetches its platform binary from the npm registry
# as an optional dependency, nothing else): Node 24 (`node`), Deno (`deno`), Bun (`bun`)
# and workerd through miniflare (`miniflare`, which depends on `workerd`).
# Idempotent: a second run with the same pins installs nothing. Prints, one per line,
# `name=path` for node24, deno, bun and miniflare (the folder whose node_modules holds it).
#
#   RUNTIMES_PREFIX   install folder (default: <repo>/.cache/runtimes)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
prefix="${RUNTIMES_PREFIX:-$repo/.cache/runtimes}"
pins=("node@24.21.0" "deno@2.9.6" "bun@1.4.5" "miniflare@4.20260426.0")
stamp="$prefix/.pins"

if [[ ! -f "$stamp" || "$(cat "$stamp")" != "${pins[*]}" ]]; then
  echo "runtimes: installing ${pins[*]} into $prefix" >&2
  mkdir -p "$prefix"
  # Its own package.json, so that npm installs here and not into the repository above.
  echo '{ "private": true }' > "$prefix/package.json"
  # Install scripts stay on: each package's script selects its platform binary.
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-package-lock --loglevel=error "${pins[@]}" >&2
  printf '%s' "${pins[*]}" > "$stamp"
fi

bin="$prefix/node_modules/.bin"
echo "runtimes: node $("$bin/node" --version), $("$bin/deno" --version | head -n 1), bun $("$bin/bun" --version), workerd $("$bin/workerd" --version)" >&2
echo "node24=$bin/node"
echo "deno=$bin/deno"
echo "bun=$bin/bun"
echo "miniflare=$prefix"

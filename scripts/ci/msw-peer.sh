#!/usr/bin/env bash
# Checks the built @powercontext/msw (run `npm run build` first) against msw 3 on
# Node 22, the second half of its declared peer range (msw 2 on Node 20 is the
# repository's own install, covered by npm test). The built package is copied into
# a temporary project that installs msw 3 and the server's dependencies from npm,
# so "msw" resolves to that copy; packages/msw/test/compat/msw-peer-check.mjs then
# drives the handlers (setupServer) and the HTTP server (getResponse).
#
#   MSW_PEER_VERSION   npm version spec of msw to install (default: ^3)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
node22="$(bash "$repo/scripts/ci/node22.sh" | tail -n 1)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$work"
echo '{ "name": "msw-peer-check", "private": true, "type": "module" }' > package.json
deps="$(node -e 'const d = require(process.argv[1]).dependencies; console.log(Object.entries(d).filter(([n]) => !n.startsWith("@powercontext/")).map(([n, v]) => n + "@" + v).join(" "))' "$repo/packages/msw/package.json")"
# shellcheck disable=SC2086
npm install --no-audit --no-fund --ignore-scripts --loglevel=error "msw@${MSW_PEER_VERSION:-^3}" $deps >&2
mkdir -p node_modules/@powercontext/msw
cp -R "$repo/packages/msw/package.json" "$repo/packages/msw/dist" node_modules/@powercontext/msw/
cp "$repo/packages/msw/test/compat/msw-peer-check.mjs" .
EXPECT_MSW_MAJOR="${MSW_PEER_MAJOR:-3}" "$node22" msw-peer-check.mjs

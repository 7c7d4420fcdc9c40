#!/usr/bin/env bash
# Checks the built @powercontext/msw (run `npm run build` first) against msw 3 on
# Node 22, the second half of its declared peer range (msw 2 on Node 20 is the
# repository's own install, covered by npm test). The built packages are packed and
# installed into a temporary project with msw 3 (their other dependencies from npm),
# so "msw" resolves to that copy; packages/msw/test/compat/msw-peer-check.mjs then
# drives the handlers (setupServer) and the HTTP server (getResponse).
#
#   MSW_PEER_VERSION   npm version spec of msw to install (default: ^3)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
node22="$(bash "$repo/scripts/ci/node22.sh" | tail -n 1)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# @powercontext/msw and the packages of this repository it depends on at run time (the SDK,
# whose validators it uses, and the SDK's runtime and types), packed as they are published.
tarballs="$(cd "$repo" && npm pack --silent --pack-destination "$work" \
  --workspace packages/types --workspace packages/runtime --workspace packages/sdk --workspace packages/msw \
  | sed "s|^|$work/|")"
cd "$work"
echo '{ "name": "msw-peer-check", "private": true, "type": "module" }' > package.json
# shellcheck disable=SC2086
npm install --no-audit --no-fund --ignore-scripts --loglevel=error "msw@${MSW_PEER_VERSION:-^3}" $tarballs >&2
cp "$repo/packages/msw/test/compat/msw-peer-check.mjs" .
EXPECT_MSW_MAJOR="${MSW_PEER_MAJOR:-3}" "$node22" msw-peer-check.mjs

#!/usr/bin/env bash
# Runs the runtime conformance suite (test/runtimes, docs/runtimes.md) on every runtime lane:
# Node 20 (this node), Node 22 (scripts/ci/node22.sh), Node 24, Deno, Bun and workerd
# (scripts/ci/runtimes.sh). Needs the built packages (npm run build). Each lane's log goes
# to .cache/conformance-<lane>.log; the last line is the checks of every lane together:
#   conformance: N passed, N failed
# Exit code 1 when a check failed or a lane printed no verdicts.
#
#   CONFORMANCE_LANES   lanes to run (default: "node20 node22 node24 deno bun workerd")
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
mkdir -p .cache
node22="$(bash scripts/ci/node22.sh | tail -n 1)"
declare -A runtime
while IFS='=' read -r name path; do runtime[$name]="$path"; done < <(bash scripts/ci/runtimes.sh)

tsx="node_modules/tsx/dist/cli.mjs"
passed=0
failed=0
status=0
for lane in ${CONFORMANCE_LANES:-node20 node22 node24 deno bun workerd}; do
  case "$lane" in
    node20) args=(node "$(command -v node)") ;;
    node22) args=(node "$node22") ;;
    node24) args=(node "${runtime[node24]}") ;;
    deno) args=(deno "${runtime[deno]}") ;;
    bun) args=(bun "${runtime[bun]}") ;;
    workerd) args=(workerd "${runtime[miniflare]}") ;;
    *) echo "conformance: unknown lane $lane" >&2; exit 2 ;;
  esac
  log=".cache/conformance-$lane.log"
  echo "== conformance on $lane"
  node "$tsx" test/runtimes/run.ts "${args[@]}" 2>&1 | sed "s/ ${args[0]}: / $lane: /" | tee "$log"
  line="$(grep -E '^conformance: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)"
  if [[ -z "$line" ]]; then
    echo "conformance: the $lane lane printed no verdicts" >&2
    failed=$((failed + 1))
    status=1
    continue
  fi
  lane_passed=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+')
  lane_failed=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+')
  passed=$((passed + lane_passed))
  failed=$((failed + lane_failed))
  [[ $lane_failed -eq 0 ]] || status=1
done
echo "conformance: $passed passed, $failed failed"
exit $status

/**
 * The scope ids the simulator tests use. A simulator knows only its default
 * Scope until one is added (unknown ids are `404 scope_not_found`, as on the
 * released server), so the tests create theirs with the `scopes` option.
 */
export const TEST_SCOPES: readonly string[] = [
  "s",
  "s1",
  "s2",
  "scope-a",
  "other",
  "elsewhere",
  "team-notes",
  "ops-scope",
  "scope-browser",
  "scope-parity",
  "scope-parity-blocked",
];

/** A validation issue as ajv and the emitted validators report it. */
export interface Issue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * Why the first issue the emitted validators report for a value both reject
 * differs from ajv's, or null when it is ajv's first issue: the same place,
 * keyword, params and words. `theirs` are ajv's issues (ajv compiled with
 * `allErrors: false`: the first, then those of a failing `anyOf`/`oneOf`,
 * whose branches report before it). Two deliberate differences
 * (docs/adr/0002-validator-emission.md, docs/adr/0020-validator-tables.md): an
 * `enum` issue names the allowed values in its message, and a failing
 * `anyOf`/`oneOf` is reported as itself (its `passingSchemas` untracked: null),
 * where ajv lists the issues of its branches first.
 */
export function differentIssue(mine: Issue | undefined, theirs: readonly Issue[] | null | undefined): string | null {
  const pick = ({ instancePath, keyword, params, message }: Issue) => ({ instancePath, keyword, params, message });
  if (mine === undefined) return "rejected without an issue";
  const combined = mine.keyword === "anyOf" || mine.keyword === "oneOf";
  const reference = combined
    ? theirs?.find((issue) => issue.keyword === mine.keyword && issue.instancePath === mine.instancePath)
    : theirs?.[0];
  if (reference === undefined) return `ajv has no issue like ${JSON.stringify(pick(mine))}`;
  const want = pick(reference);
  if (mine.keyword === "enum") want.message = mine.message;
  if (mine.keyword === "oneOf") want.params = mine.params;
  return JSON.stringify(pick(mine)) === JSON.stringify(want)
    ? null
    : `ajv ${JSON.stringify(want)}, emitted ${JSON.stringify(pick(mine))}`;
}

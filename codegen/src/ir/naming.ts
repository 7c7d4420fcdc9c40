/**
 * How the generator derives names from spec names it has checked
 * (`name-sources.ts`): casing and collision-free identifiers. How spec text is
 * written into source (string literals, comments) is `emit/ts/syntax.ts`.
 */

/**
 * Every keyword of TypeScript, reserved or contextual (as the compiler lists
 * them, from `break` to `defer`): a word that is an operator or a modifier in a
 * type (`keyof`, `readonly`, `infer`, `unique`, `asserts`, `is`, `satisfies`),
 * names a built-in type (`string`, `never`, `symbol`) or has a meaning in a
 * declaration (`declare`, `namespace`, `global`, `out`, `accessor`). Listed here,
 * not read from the compiler, so the names the generator writes do not depend
 * on its version; a test checks the list against the compiler.
 */
export const TS_KEYWORDS: ReadonlySet<string> = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "implements interface let package private protected public static yield abstract accessor as asserts assert " +
    "any async await boolean constructor declare get infer intrinsic is keyof module namespace never out readonly " +
    "require number object satisfies set string symbol type undefined unique unknown using from global bigint " +
    "override of defer"
  ).split(" "),
);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** `flush_memory` -> `flushMemory`, `get-topic.status` -> `getTopicStatus`; a leading digit gets `_`. */
export function camelCase(name: string): string {
  const result = words(name)
    .map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1)))
    .join("");
  return safeIdentifier(result);
}

/** `get_stats` -> `GetStats` (the upstream Python SDK's request type naming). */
export function pascalCase(name: string): string {
  return safeIdentifier(
    words(name)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(""),
  );
}

function safeIdentifier(name: string): string {
  if (name.length === 0) return "_";
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/**
 * The one rule for a TypeScript type name derived from a spec name (a component
 * schema's): the name itself when it is an identifier without `$` that is no
 * {@link TS_KEYWORDS keyword}, else its PascalCase (`keyof` -> `Keyof`,
 * `get-thing` -> `GetThing`), with `Schema` appended if that is still a keyword.
 * Callers make the result unique ({@link UniqueNames}).
 */
export function typeName(name: string): string {
  const base = /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !TS_KEYWORDS.has(name) ? name : pascalCase(name);
  return TS_KEYWORDS.has(base) ? `${base}Schema` : base;
}

/** A variable name that is an identifier and not a reserved word. */
export function variableName(name: string): string {
  const base = name.replace(/[^A-Za-z0-9_$]/g, "_");
  const safe = safeIdentifier(base);
  return TS_KEYWORDS.has(safe) ? `${safe}_` : safe;
}

/**
 * Makes names unique in the order they are requested: the first `x` stays `x`,
 * later ones become `x_2`, `x_3`, ... Deterministic when callers ask in a stable order.
 */
export class UniqueNames {
  private readonly taken = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.taken.add(name);
  }

  /** Returns `wanted` or the first free `wanted_<n>`, and marks it taken. */
  claim(wanted: string): string {
    let candidate = wanted;
    for (let n = 2; this.taken.has(candidate); n += 1) candidate = `${wanted}_${n}`;
    this.taken.add(candidate);
    return candidate;
  }
}

/**
 * How the generator derives names from spec names it has checked
 * (`name-sources.ts`): casing and collision-free identifiers. How spec text is
 * written into source (string literals, comments) is `emit/ts/syntax.ts`.
 */

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "as implements interface let package private protected public static yield any boolean number string symbol " +
    "type from of await async undefined never unknown object bigint"
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

/** True for a word TypeScript reserves or gives a meaning as a type name (`class`, `string`, `never`, ...). */
export function isReservedWord(name: string): boolean {
  return RESERVED.has(name);
}

/** A variable name that is an identifier and not a reserved word. */
export function variableName(name: string): string {
  const base = name.replace(/[^A-Za-z0-9_$]/g, "_");
  const safe = safeIdentifier(base);
  return RESERVED.has(safe) ? `${safe}_` : safe;
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

import { LintError, SpecError } from "../errors.js";

/**
 * The spec names the generator derives identifiers from (an operationId gives a
 * client method, a type name, descriptor and validator names, and a Python
 * constant) must match this strict ASCII pattern: a letter or `_` first, then
 * letters, digits, `_`, `-` and `.`, and at least one letter or digit. No other
 * character can reach an identifier, so no spelling the source languages read
 * differently (a comment closer, a quote, a line break, a letter that Python's
 * NFKC normalisation turns into a keyword or a builtin) can either.
 */
export const NAME_SOURCE = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** True when identifiers may be derived from `name` (see {@link NAME_SOURCE}). */
export function isNameSource(name: string): boolean {
  return NAME_SOURCE.test(name) && /[A-Za-z0-9]/.test(name);
}

/** A spec name that identifiers are derived from, and the JSON pointer it is written at. */
export interface NamedAt {
  readonly name: string;
  readonly pointer: string;
  /** What the name is, for the message: `operationId`, `schema name`, ... */
  readonly what: string;
}

/**
 * Refuses every name that identifiers cannot be derived from, each at its
 * pointer. Refusing, rather than rewriting the name, keeps every generated
 * identifier predictable from the spec.
 *
 * @throws {LintError} `invalid_name`, one finding per offending name
 */
export function checkNameSources(names: readonly NamedAt[]): void {
  const errors = names
    .filter(({ name }) => !isNameSource(name))
    .map(
      ({ name, pointer, what }) =>
        new SpecError(
          "invalid_name",
          { pointer },
          `${what} ${quoted(name)} cannot become an identifier: use ASCII letters, digits, "_", "-" and ".", starting with a letter or "_"`,
        ),
    );
  if (errors.length > 0) throw new LintError(errors);
}

/** `name` in double quotes with everything outside printable ASCII as `\uXXXX`, so a message shows exactly what the spec holds. */
export function quoted(name: string): string {
  return JSON.stringify(name).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

type FormatDefinition = RegExp | true;

/**
 * String formats for the emitted validators, taken from ajv-formats' "fast"
 * set. Only regular expressions are used: their source is copied into the
 * generated module, so it needs nothing from ajv-formats at run time.
 *
 * - date/time formats keep their pattern and drop the range comparison (only
 *   `formatMinimum`-style keywords use it, and OpenAPI 3.0 has none);
 * - `byte` (base64) gets its own pattern; `regex` is accepted as is;
 * - numeric formats (`int32`, `int64`, `float`, `double`) are expressed as bounds
 *   by the schema conversion instead, and `password`/`binary` only annotate;
 * - any other format found in the spec is accepted (annotation only), as OpenAPI
 *   allows custom formats.
 */
export function validatorFormats(usedFormats: Iterable<string>): Record<string, FormatDefinition> {
  const fast = (require("ajv-formats/dist/formats") as { fastFormats: Record<string, unknown> }).fastFormats;
  const formats: Record<string, FormatDefinition> = {};
  for (const [name, definition] of Object.entries(fast)) {
    if (definition instanceof RegExp) formats[name] = definition;
    else if (
      definition !== null &&
      typeof definition === "object" &&
      (definition as { validate?: unknown }).validate instanceof RegExp
    ) {
      formats[name] = (definition as { validate: RegExp }).validate;
    } else formats[name] = true;
  }
  formats.byte = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
  for (const name of usedFormats) if (!(name in formats)) formats[name] = true;
  return formats;
}

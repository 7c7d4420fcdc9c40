import type { Json, LintProfile, RefLookup } from "../domain/types.js";
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { LintError, SpecError, UsageError } from "../errors.js";
import { checkBounds, checkSpecBytes } from "./check-bounds.js";
import { lint } from "./lint.js";
import { normalizeSchemas, renameExtensions } from "./normalize-schemas.js";
import { readYaml } from "./read-yaml.js";
import { lookupIn, resolveRefs } from "./resolve-refs.js";
import { checkSchemas } from "./schema-checks.js";
import { validateOpenApi } from "./validate-openapi.js";

/** A spec that passed every check, ready for the IR builder. */
export interface LoadedSpec {
  /** The parsed document, references kept. */
  readonly document: Json;
  /**
   * The document exactly as written, before `normalize-schemas.ts` rewrote its Schema
   * Objects: what emitters hand on as the contract itself (the Python layer's
   * `schema.py`, and datamodel-code-generator's input).
   */
  readonly written: Json;
  /** Target of any local `$ref`. */
  readonly lookup: RefLookup;
  /** The spec's file name as it appears in banners, e.g. `openapi.yaml`. */
  readonly fileName: string;
  /** Lowercase hex SHA-256 of the spec bytes. */
  readonly sha256: string;
  /** Findings that did not stop generation (see {@link LintProfile}). */
  readonly warnings: readonly SpecError[];
}

/** Options of {@link loadSpec} and {@link loadSpecText}. */
export interface LoadOptions {
  /** Rule profile; default `strict`. */
  readonly lint?: LintProfile | undefined;
  /** The spec's vendor extension prefix when it is not `x-powercontext-` (see `renameExtensions`). */
  readonly extensionPrefix?: string | undefined;
}

/**
 * Reads and checks a spec file: its size, YAML syntax, the bounds of the parsed
 * document (nesting depth, and the values and text it expands to: `check-bounds.ts`), `$ref`s (internal
 * only, existing targets, no cycles; before any resolver sees them), the OpenAPI 3.0
 * or 3.1 JSON schema (after `normalize-schemas.ts` brought Schema Objects into one
 * form), then the generator's structural lint rules and schema checks (valid
 * `pattern`s, no schema that reaches itself on the same value).
 *
 * @param specPath - path of the YAML or JSON file; the banner uses its base name
 * @throws {UsageError} when the file cannot be read
 * @throws {SpecError} `too_large` when the file or its expansion passes a bound (`check-bounds.ts`), before it is read or walked further
 * @throws {SpecError} (or a subclass) for the first failing stage; lint failures
 *   come as one {@link LintError} listing every finding
 */
export async function loadSpec(specPath: string, options: LoadOptions = {}): Promise<LoadedSpec> {
  let bytes: Buffer;
  try {
    checkSpecBytes((await stat(specPath)).size);
    bytes = await readFile(specPath);
  } catch (error) {
    if (error instanceof SpecError) throw error;
    throw new UsageError(`cannot read spec ${specPath}: ${(error as Error).message}`);
  }
  return loadSpecText(bytes, path.basename(specPath), options);
}

/** Like {@link loadSpec} for bytes already in memory (tests, benchmarks). */
export async function loadSpecText(
  bytes: Uint8Array | string,
  fileName: string,
  options: LoadOptions = {},
): Promise<LoadedSpec> {
  checkSpecBytes(typeof bytes === "string" ? Buffer.byteLength(bytes, "utf8") : bytes.byteLength);
  const buffer = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : Buffer.from(bytes);
  const sha256 = createHash("sha256").update(buffer).digest("hex");
  const text = buffer.toString("utf8");
  const document = (fileName.endsWith(".json") ? parseJsonFast(text) : undefined) ?? readYaml(text);
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    validateOpenApi(document);
  }
  checkBounds(document);
  if (options.extensionPrefix !== undefined) renameExtensions(document, options.extensionPrefix);
  const written = document as Json;
  const writtenLookup = await resolveRefs(written);
  const normalized = normalizeSchemas(written, writtenLookup);
  const lookup = normalized.document === written ? writtenLookup : lookupIn(normalized.document);
  validateOpenApi(normalized.document);
  const { errors, warnings } = lint(normalized.document, lookup, options.lint ?? "strict");
  const schemaFindings = checkSchemas(normalized.document, options.lint ?? "strict");
  errors.push(...schemaFindings.errors);
  warnings.push(...schemaFindings.warnings);
  if (errors.length > 0) throw new LintError(errors);
  return {
    document: normalized.document,
    written,
    lookup,
    fileName,
    sha256,
    warnings: [...normalized.warnings, ...warnings],
  };
}

function parseJsonFast(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // fall back to the YAML parser, which reports line and column
  }
}

import Ajv2020 from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import { SpecError, pointerSegment, type SpecErrorCode } from "../errors.js";
import type { Json, RefLookup } from "../domain/types.js";
import { EXTENSIONS_SCHEMA, FACT_PLACES, referenced, type FactPlace, type FactSchema } from "../facts/schema.js";
import { deref, walkOperations } from "./walk-operations.js";

/** The schema's annotations for the generators (extensions.schema.json's description lists them): ajv ignores them. */
const ANNOTATIONS = [
  "x-origin",
  "x-entries",
  "x-entry",
  "x-shorthand",
  "x-derived",
  "x-default",
  "x-name",
  "x-read",
  "x-error-code",
];

let validators: Record<FactPlace, ValidateFunction> | undefined;

/** One validator per place, compiled on first use (every error collected, each with its schema). */
function placeValidators(): Record<FactPlace, ValidateFunction> {
  if (validators === undefined) {
    const ajv = new Ajv2020.default({
      allErrors: true,
      verbose: true,
      discriminator: true,
      allowUnionTypes: true,
      validateFormats: false,
    });
    ajv.addVocabulary(ANNOTATIONS);
    ajv.addSchema(EXTENSIONS_SCHEMA);
    const id = String(EXTENSIONS_SCHEMA.$id);
    const compiled = (place: FactPlace) => ajv.getSchema(`${id}#/$defs/${place}`) as ValidateFunction;
    validators = Object.fromEntries(FACT_PLACES.map((place) => [place, compiled(place)])) as Record<
      FactPlace,
      ValidateFunction
    >;
  }
  return validators;
}

/**
 * Checks every `x-powercontext-*` extension of the document against
 * `extensions.schema.json`: the document's own, each operation's, each response's
 * (inline and under `components.responses`) and each component schema's. Extensions
 * the schema does not name are left alone. Cross-references between facts (a name
 * that must be an operationId, a registry code or resource, a request member) are
 * the IR's to check.
 *
 * @returns one `invalid_extension` finding (or the code the schema's `x-error-code`
 *   names) per offending node, naming its JSON pointer
 */
export function checkExtensions(document: Json, lookup: RefLookup): SpecError[] {
  const findings: SpecError[] = [];
  const check = (place: FactPlace, node: unknown, pointer: string) => {
    if (node === null || typeof node !== "object" || Array.isArray(node) || !hasExtension(node as Json)) return;
    const validate = placeValidators()[place];
    if (!validate(node)) findings.push(...describe(validate.errors ?? [], pointer));
  };
  check("document", document, "");
  for (const raw of walkOperations(document, lookup)) {
    check("operation", raw.operation, raw.pointer);
    for (const [status, response] of Object.entries((raw.operation.responses ?? {}) as Json))
      if (deref(response, lookup) === response)
        check("response", response, `${raw.pointer}/responses/${pointerSegment(status)}`);
  }
  const components = (document.components ?? {}) as Json;
  for (const [name, response] of Object.entries((components.responses ?? {}) as Json))
    check("response", response, `/components/responses/${pointerSegment(name)}`);
  for (const [name, schema] of Object.entries((components.schemas ?? {}) as Json))
    check("schema", schema, `/components/schemas/${pointerSegment(name)}`);
  return findings;
}

function hasExtension(node: Json): boolean {
  for (const key in node) if (key.startsWith("x-powercontext-")) return true;
  return false;
}

interface Finding {
  readonly pointer: string;
  readonly detail: string;
  readonly code: SpecErrorCode;
  /** A choice between forms (`oneOf`, `anyOf`, `not`): preferred over its branches' findings at the same node. */
  readonly choice: boolean;
}

/**
 * ajv's errors as findings: one per node, the deepest that explain a failure (a
 * node whose members failed is not reported itself), a choice between forms
 * reported as the forms it expects rather than as each form's failure.
 */
function describe(errors: readonly ErrorObject[], base: string): SpecError[] {
  const findings = errors.flatMap((error) => finding(error, base));
  const kept = findings.filter(
    (f) => !findings.some((other) => other.pointer.startsWith(`${f.pointer}/`) && other.pointer !== f.pointer),
  );
  const byPointer = new Map<string, Finding>();
  for (const f of kept) {
    const seen = byPointer.get(f.pointer);
    if (seen === undefined || (f.choice && !seen.choice)) byPointer.set(f.pointer, f);
  }
  return [...byPointer.values()].map((f) => new SpecError(f.code, { pointer: f.pointer }, f.detail));
}

function finding(error: ErrorObject, base: string): Finding[] {
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as FactSchema;
  let pointer = `${base}${error.instancePath}`;
  if (error.keyword === "if") return [];
  if (error.propertyName !== undefined) pointer += `/${pointerSegment(error.propertyName)}`;
  const code = errorCode(error.instancePath);
  const at = (suffix: string, detail: string, choice = false): Finding[] => [
    { pointer: `${pointer}${suffix}`, detail, code, choice },
  ];
  const title = typeof parent.title === "string" ? `expected ${parent.title}` : null;
  switch (error.keyword) {
    case "required":
      return at(`/${pointerSegment(String(params.missingProperty))}`, `${String(params.missingProperty)} is required`);
    case "additionalProperties": {
      const allowed = Object.keys((parent.properties ?? {}) as object).join(", ");
      const member = String(params.additionalProperty);
      return at(`/${pointerSegment(member)}`, `unknown member "${member}" (allowed: ${allowed})`);
    }
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map(String).join(", ");
      const found = JSON.stringify(error.data);
      return at(
        "",
        typeof parent.title === "string"
          ? `unknown ${parent.title} ${found}; expected one of ${allowed}`
          : `expected one of ${allowed}, not ${found}`,
      );
    }
    case "uniqueItems": {
      const later = Math.max(Number(params.i), Number(params.j));
      return at(`/${later}`, `${JSON.stringify((error.data as unknown[])[later])} is listed twice`);
    }
    case "const":
      return at("", `must be ${JSON.stringify(params.allowedValue)}`);
    case "propertyNames": {
      // The name's own failure carries no name (ajv leaves it out behind a $ref): reported here, at the member.
      const names = (parent.propertyNames ?? {}) as FactSchema;
      const named = (referenced(names)?.definition.title ?? names.title) as string | undefined;
      return at(`/${pointerSegment(String(params.propertyName))}`, `expected ${named ?? "another name"}`);
    }
    case "discriminator":
      return at(`/${String(params.tag)}`, `must be one of ${ruleNames(parent).join(", ")}`);
    case "minItems":
      return at("", title ?? `expected at least ${String(params.limit)} item${params.limit === 1 ? "" : "s"}`);
    case "oneOf":
    case "anyOf":
    case "not":
      return at("", title ?? `${error.message ?? "is invalid"}`, true);
    default:
      return at("", title ?? `${error.message ?? "is invalid"}`);
  }
}

/** The values of the tag of a discriminated choice (`rule` of a model rule). */
function ruleNames(schema: FactSchema): string[] {
  const tag = String((schema.discriminator as { propertyName?: unknown } | undefined)?.propertyName);
  return ((schema.oneOf ?? []) as FactSchema[]).map((branch) => {
    const name = String(branch.$ref).replace("#/$defs/", "");
    const properties = (EXTENSIONS_SCHEMA.$defs[name]?.properties ?? {}) as Record<string, FactSchema>;
    return String(properties[tag]?.const);
  });
}

/** The finding's code: the extension's `x-error-code` in the schema, else `invalid_extension`. */
function errorCode(instancePath: string): SpecErrorCode {
  const extension = instancePath.split("/")[1]?.replace(/~1/g, "/").replace(/~0/g, "~") ?? "";
  for (const place of FACT_PLACES) {
    const schema = ((EXTENSIONS_SCHEMA.$defs[place]?.properties ?? {}) as Record<string, FactSchema>)[extension];
    if (typeof schema?.["x-error-code"] === "string") return schema["x-error-code"] as SpecErrorCode;
  }
  return "invalid_extension";
}

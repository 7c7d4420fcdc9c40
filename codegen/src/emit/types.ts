import { createConfig, type Config } from "@redocly/openapi-core";
import openapiTS, { astToString, resolveRef, scanDiscriminators, transformSchema, type GlobalContext, type OpenAPI3 } from "openapi-typescript";
import type { ApiIr } from "../ir/model.js";
import { findRefs } from "../load/ref-policy.js";
import { banner } from "./banner.js";

/**
 * The openapi-typescript options we use, and why:
 * - `defaultNonNullable: false`: a field with a `default` stays optional, so a
 *   request may omit it (the server fills it in);
 * - `enum: false`: string unions, no runtime enum objects (the types package has
 *   no runtime code);
 * - `exportType: false`: interfaces, which give readable hovers and errors;
 * - `immutable: false`: callers build request objects;
 * - `readWriteMarkers`: on when the spec uses readOnly/writeOnly, so
 *   `Writable<T>`/`Readable<T>` (emitted alongside) drop the fields that do not
 *   travel in that direction; the operation types apply them.
 */
export function typesOptions(ir: ApiIr) {
  return {
    defaultNonNullable: false,
    enum: false,
    exportType: false,
    immutable: false,
    alphabetize: false,
    additionalProperties: false,
    propertiesRequiredByDefault: false,
    readWriteMarkers: ir.readWriteMarkers,
    silent: true,
  } as const;
}

let quietConfig: Promise<Config> | undefined;

/** An empty Redocly configuration: openapi-typescript's context carries one, and its transforms do not read it. */
function emptyConfig(): Promise<Config> {
  quietConfig ??= createConfig({ rules: {} }, {});
  return quietConfig;
}

/**
 * openapi-typescript's context for the options of {@link typesOptions}, with
 * its own defaults for everything else (as `openapiTS()` builds it).
 */
async function transformContext(document: OpenAPI3, ir: ApiIr): Promise<GlobalContext> {
  const options = typesOptions(ir);
  return {
    ...options,
    arrayLength: false,
    conditionalEnums: false,
    dedupeEnums: false,
    discriminators: scanDiscriminators(document, options),
    emptyObjectsUnknown: false,
    enumValues: false,
    excludeDeprecated: false,
    generatePathParams: false,
    injectFooter: [],
    makePathsEnum: false,
    pathParamsAsTypes: false,
    postTransform: undefined,
    redoc: await emptyConfig(),
    rootTypes: false,
    rootTypesKeepCasing: false,
    rootTypesNoSchemaPrefix: false,
    transform: undefined,
    transformProperty: undefined,
    resolve: ($ref) => resolveRef(document, $ref, { silent: true }),
  };
}

/**
 * Emits the declaration file of `paths`, `components`, `operations` with
 * openapi-typescript's transform. The document goes to `transformSchema`
 * directly, not through `openapiTS()`: that entry point first parses, lints and
 * bundles the document with Redocly, about half of its time on the released
 * contract, and the loader has already done all three more strictly (the
 * OpenAPI JSON schema, every `$ref` internal and resolvable, unique
 * operationIds). A document whose bundle would differ from it still goes
 * through `openapiTS()` (ADR 0015).
 * The output is a `.d.ts`: type-only, usable from any consumer setting.
 */
export async function emitTypes(ir: ApiIr): Promise<string> {
  // openapi-typescript annotates the object it is given; hand it a copy so the IR stays pristine.
  const document = structuredClone(ir.document) as unknown as OpenAPI3;
  let ast;
  if (bundlesToItself(document)) {
    // What Redocly's bundler adds to every document.
    document.components ??= {};
    ast = transformSchema(document, await transformContext(document, ir));
  } else {
    ast = await openapiTS(document as never, { ...typesOptions(ir), redocly: await emptyConfig() });
  }
  const text = astToString(ast);
  return `${banner(ir)}${text.endsWith("\n") ? text : `${text}\n`}`;
}

/** A pointer to a component by a plain name: `#/components/<kind>/<name>`, no `/` or `~` escape in the name. */
const PLAIN_COMPONENT = /^#\/components\/[A-Za-z]+\/[^/~%]+$/;

/**
 * True when Redocly's bundle of the document is the document itself (plus
 * `components`): every reference, `discriminator.mapping` values included
 * (the loader's {@link findRefs}), names a component plainly. Otherwise the
 * bundler moves the targets into components of their own (a mapping to
 * `#/components/schemas/Holder/properties/dog` gains a schema `dog`), and only
 * `openapiTS()` writes those.
 */
function bundlesToItself(document: unknown): boolean {
  return findRefs(document).every(({ ref }) => PLAIN_COMPONENT.test(ref));
}

import { createConfig, type Config } from "@redocly/openapi-core";
import openapiTS, { astToString } from "openapi-typescript";
import type { ApiIr } from "../ir/model.js";
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

/**
 * The Redocly configuration handed to openapi-typescript: no lint rules. By the
 * time the emitters run, the loader has checked the document more strictly than
 * openapi-typescript's default rule set does (the OpenAPI JSON schema, every
 * `$ref`, unique operationIds), so linting it again would only cost time, a fifth
 * of this emitter's on the released contract. The rules never change the output.
 */
function lintFreeConfig(): Promise<Config> {
  quietConfig ??= createConfig({ rules: {} }, {});
  return quietConfig;
}

/**
 * Emits the declaration file of `paths`, `components`, `operations` (openapi-typescript).
 * The output is a `.d.ts`: type-only, usable from any consumer setting.
 */
export async function emitTypes(ir: ApiIr): Promise<string> {
  // openapi-typescript annotates the object it is given; hand it a copy so the IR stays pristine.
  const ast = await openapiTS(structuredClone(ir.document) as never, { ...typesOptions(ir), redocly: await lintFreeConfig() });
  const text = astToString(ast);
  return `${banner(ir)}${text.endsWith("\n") ? text : `${text}\n`}`;
}

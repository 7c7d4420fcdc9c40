import type { ApiIr } from "../../ir/model.js";
import { tsString } from "../../emit/ts/syntax.js";
import { banner } from "../../emit/banner.js";

/**
 * Emits `index.ts` of a standalone client folder (`--out DIR`): the operation
 * table and types, the generated client class, the validator map, the spec's
 * types as the namespace `spec`, and `createClient(options)`, which wires the
 * runtime package to this folder's table and validators (and injects the
 * runtime's guarded-conflict reconciler and, when the spec has an error-code
 * registry, its generated contract error classes). The msw handlers stay
 * in `handlers.ts`, so that only a test imports msw.
 */
export function emitStandaloneIndex(ir: ApiIr): string {
  const runtime = tsString(ir.names.runtimePackage);
  const name = ir.names.clientClassName;
  const codes = ir.errorCodes.length > 0;
  const codeImports = codes ? `import { contractErrorsByCode } from "./contract-errors.js";\n` : "";
  const codeExports = codes ? `export * from "./error-codes.js";\nexport * from "./contract-errors.js";\n` : "";
  const contractErrors = codes ? ", contractErrors: contractErrorsByCode" : "";
  const headers = Object.keys(ir.clientHeaders).length > 0;
  const headerImport = headers ? `import { clientHeaders } from "./client-headers.js";\n` : "";
  const headerExport = headers ? `export { clientHeaders } from "./client-headers.js";\n` : "";
  const clientHeaders = headers ? ", clientHeaders" : "";
  return `${banner(ir)}import { createRuntime, recoverVersionConflict, type ClientOptions } from ${runtime};
${codeImports}${headerImport}import { ${name} } from "./methods.js";
import { operations } from "./operations.js";
import { validatorMap } from "./validator-map.js";

export * from "./operations.js";
export { ${name}, type SubmitOutcome } from "./methods.js";
export { validatorMap } from "./validator-map.js";
${codeExports}${headerExport}export type * as spec from "./openapi.js";

/**
 * A client for this spec: one method per operation, over the runtime package.
 *
 * @throws ConfigurationError (from the runtime) for bad options; nothing is sent.
 */
export function createClient(options: ClientOptions): ${name} {
  return new ${name}(createRuntime(options, { operations, validators: validatorMap, reconcile: recoverVersionConflict${contractErrors}${clientHeaders} }));
}
`;
}

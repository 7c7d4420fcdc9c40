import type { ApiIr, OperationIr } from "../../ir/model.js";
import { docLine, tsString } from "../../emit/ts/syntax.js";
import { banner } from "../../emit/banner.js";
import { validatorFormats } from "./formats.js";
import {
  validatorSchemas,
  type OperationValidatorNames,
  type ValidatorSchemas,
} from "../../emit/validator-code/schemas.js";
import { ValidatorTables } from "../../emit/validator-code/tables.js";
import { ruleSiteData } from "../../emit/rule-tables.js";

/** The three validator modules, as text. */
export interface ValidatorModules {
  /** `validators.js`: self-contained ESM, one export per validator. */
  readonly js: string;
  /** `validators.d.ts`: declarations of those exports. */
  readonly dts: string;
  /** `validator-map.ts`: operationId -> `{ request?, responses: { [status]: validate } }`. */
  readonly map: string;
}

/**
 * Emits the validators (docs/adr/0020-validator-tables.md): the schemas as data
 * in the runtime's compact form (`validator-code/tables.ts`), each schema and
 * each repeated subschema once, and one validator export per component schema
 * and side of the wire an operation uses, compiled by the runtime on first
 * use. Validators exist for each operation's request (body or parameters) and
 * its JSON success and accepted responses; error responses are decoded by the
 * SDK's envelope rule instead.
 *
 * The emitted JavaScript imports only the runtime's `validation` entry.
 *
 * @param schemas - the IR's validator schemas; pass the ones another emitter of the
 *   same run already converted (the msw contract reads them too) to convert each once
 */
export function emitValidators(ir: ApiIr, schemas: ValidatorSchemas = validatorSchemas(ir)): ValidatorModules {
  const runtime = validationModule(ir);
  const tables = new ValidatorTables(schemas.definition, validatorFormats([]), runtime);
  const code = tables.module(new Map(schemas.exports.map((key) => [key, key])));
  const declarations = `import type { ValidateFunction, ValidationError } from ${JSON.stringify(runtime)};\n\nexport type { ValidateFunction, ValidationError };\n\n`;
  return {
    js: banner(ir) + code,
    dts:
      banner(ir) +
      declarations +
      schemas.exports.map((key) => `export declare const ${key}: ValidateFunction;\n`).join(""),
    map: emitMap(ir, schemas.perOperation),
  };
}

/** The runtime entry the validators import their compiler from. */
export function validationModule(ir: ApiIr): string {
  return `${ir.names.runtimePackage}/validation`;
}

/** The exported name of an operation's validators: its method name plus `Validators`. */
export function validatorsName(methodName: string): string {
  return `${methodName}Validators`;
}

/**
 * `validator-map.ts`: one export per operation (`searchMemoryValidators`,
 * ...), so that a bundle naming one operation's validators keeps only their
 * functions, then `validatorMap`, the table of all of them, built by the
 * runtime's `validatorsByOperation` from the operation table's keys.
 */
function emitMap(ir: ApiIr, perOperation: ReadonlyMap<string, OperationValidatorNames>): string {
  let out = banner(ir);
  const sites = new Map(
    ir.operations.map((op) => [op.operationId, ruleSiteData(ir, op, (rule) => rule.stage === "wire", false)]),
  );
  const ruled = [...sites.values()].some((list) => list.length > 0);
  out += `import { validatorsByOperation } from ${tsString(ir.names.runtimePackage)};\n`;
  if (ruled) out += `import { withRules } from ${tsString(`${ir.names.runtimePackage}/rules`)};\n`;
  out += `import { operations, type OperationId } from "./operations.js";\nimport * as validators from "./validators.js";\nimport type { ValidateFunction } from "./validators.js";\n\n`;
  out += `/** Compiled validators of one operation: its request object and the bodies of its success and accepted statuses (a status without content has none). */\nexport interface OperationValidators {\n  readonly request?: ValidateFunction;\n  readonly responses: { readonly [status: number]: ValidateFunction };\n}\n\n`;
  for (const op of ir.operations) {
    const names = perOperation.get(op.operationId) as OperationValidatorNames;
    const ruleList = sites.get(op.operationId) ?? [];
    // The model rules the release's request models check, composed over the schema's validator.
    const validate =
      names.request === null
        ? null
        : ruleList.length === 0
          ? `validators.${names.request}`
          : `/* @__PURE__ */ withRules(validators.${names.request}, ${JSON.stringify(ruleList)})`;
    const request = validate === null ? "" : `request: ${validate}, `;
    const responses = names.responses.map(([status, key]) => `${status}: validators.${key}`).join(", ");
    out += `${docLine(`Validators of \`${op.operationId}\`.`)}export const ${validatorsName(op.methodName)}: OperationValidators = { ${request}responses: { ${responses} } };\n`;
  }
  // In the order of the operation table's keys as a JavaScript object holds them (integer-like ids first).
  const order = Object.keys(Object.fromEntries(ir.operations.map((op) => [op.operationId, op])));
  const byId = new Map(ir.operations.map((op) => [op.operationId, op]));
  const list = order.map((id) => validatorsName((byId.get(id) as OperationIr).methodName));
  out += `\n/** Validators by operationId (listed in the order of the operation table's keys). */\nexport const validatorMap: { readonly [K in OperationId]: OperationValidators } = /* @__PURE__ */ validatorsByOperation(operations, [\n${list.map((name) => `  ${name},\n`).join("")}]) as { readonly [K in OperationId]: OperationValidators };\n`;
  return out;
}

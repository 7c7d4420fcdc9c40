import type { Target } from "../target.js";
import { emitClientHeaders } from "./client-headers.js";
import { emitContractErrors } from "./contract-errors.js";
import { emitErrorCodes } from "./error-codes.js";
import { emitMethods } from "./methods.js";
import { emitOperations } from "./operations.js";
import { emitStandaloneIndex } from "./standalone-index.js";
import { emitValidators } from "./validators.js";

const FILES = {
  operations: "operations.ts",
  methods: "methods.ts",
  validatorsJs: "validators.js",
  validatorsDts: "validators.d.ts",
  validatorMap: "validator-map.ts",
  errorCodes: "error-codes.ts",
  contractErrors: "contract-errors.ts",
  clientHeaders: "client-headers.ts",
} as const;

const FOLDER = "packages/sdk/src/generated";

/** Where the client's files go, by layout (`index.ts` only in a standalone folder). */
export const CLIENT_PATHS = {
  repository: Object.fromEntries(Object.entries(FILES).map(([key, file]) => [key, `${FOLDER}/${file}`])) as {
    readonly [K in keyof typeof FILES]: string;
  },
  standalone: { ...FILES, index: "index.ts" },
} as const;

/**
 * `client`: the operation table, the client methods, the validators and, for a
 * spec with an error-code registry, its codes and error classes; in a standalone
 * folder also `index.ts` with `createClient`, which imports the types file beside it.
 */
export const clientTarget: Target = {
  name: "client",
  summary: "the operation table, client methods, validators and error classes",
  needs:
    "`client`: the runtime package the files import (`@powercontext/runtime` unless `--runtime-package` named another)",
  roles: {
    "index.ts":
      "the entry point: `createClient(options)`, the client class, the operation table, the validators and the spec's types as `spec`",
    "operations.ts":
      "one descriptor per operation (method, path, parameters, statuses, retry class, polling) that the runtime reads",
    "methods.ts": "the client class: one typed method per operation",
    "validators.js": "the request and response validators, plain functions with no dependency",
    "validators.d.ts": "their declarations",
    "validator-map.ts": "which validator checks which request and response",
    "error-codes.ts": "the spec's error codes with the type of each code's `details`",
    "contract-errors.ts": "an error class per error code the spec registers",
    "client-headers.ts":
      "the headers every request carries (`x-powercontext-client-headers`), for a spec that declares some",
  },
  byDefault: { repository: true, standalone: true },
  folder: () => FOLDER,
  requires: (layout) => (layout === "standalone" ? ["types"] : []),
  emit({ ir, layout, validatorSchemas }) {
    const paths = CLIENT_PATHS[layout];
    const validators = emitValidators(ir, validatorSchemas());
    const files = new Map([
      [paths.operations, emitOperations(ir)],
      [paths.methods, emitMethods(ir)],
      [paths.validatorsJs, validators.js],
      [paths.validatorsDts, validators.dts],
      [paths.validatorMap, validators.map],
    ]);
    // A spec without an error-code registry gets neither file (and descriptors without a table).
    if (ir.errorCodes.length > 0) {
      files.set(paths.errorCodes, emitErrorCodes(ir));
      files.set(paths.contractErrors, emitContractErrors(ir));
    }
    // A spec without client headers gets no file (and the client sends none).
    if (Object.keys(ir.clientHeaders).length > 0) files.set(paths.clientHeaders, emitClientHeaders(ir));
    if (layout === "standalone") files.set(CLIENT_PATHS.standalone.index, emitStandaloneIndex(ir));
    return { files };
  },
};

import type { LintProfile } from "./ir/domain.js";
import { LintError, UsageError, type SpecError } from "./errors.js";
import { buildIr } from "./ir/build-ir.js";
import { checkHouseRules } from "./ir/house-rules.js";
import type { ApiIr } from "./ir/model.js";
import { loadSpec, loadSpecText, type LoadedSpec } from "./load/load-spec.js";
import { emitMethods } from "./emit/methods.js";
import { emitMswContract } from "./emit/msw-contract.js";
import { emitMswHandlers, emitMswHandlerTypes } from "./emit/msw-handlers.js";
import { emitMswRoutes } from "./emit/msw-routes.js";
import { emitMswAccess } from "./emit/msw-access.js";
import { emitMswDocument } from "./emit/msw-document.js";
import { emitOperations } from "./emit/operations.js";
import { emitContractErrors } from "./emit/contract-errors.js";
import { emitErrorCodes } from "./emit/error-codes.js";
import { emitPythonTable } from "./emit/python-table.js";
import { emitHostTable } from "./emit/host-table.js";
import { emitPythonLayer, PYTHON_DEFAULTS, type PythonOptions } from "./emit/python/layer.js";
import { emitTypes } from "./emit/types/openapi-types.js";
import { emitValidators } from "./emit/validators.js";
import { validatorSchemas } from "./emit/validator-code/schemas.js";
import { emitStandaloneIndex } from "./emit/standalone-index.js";
import { emitStandaloneReadme } from "./emit/standalone-readme.js";
import { DEFAULT_NAMES, type OutputNames } from "./ir/names.js";

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Where each artifact goes, relative to the repository root (forward slashes). */
export const OUTPUT_PATHS = {
  types: "packages/types/generated/openapi.d.ts",
  pythonTable: "packages/types/generated/operations.json",
  operations: "packages/sdk/src/generated/operations.ts",
  errorCodes: "packages/sdk/src/generated/error-codes.ts",
  contractErrors: "packages/sdk/src/generated/contract-errors.ts",
  methods: "packages/sdk/src/generated/methods.ts",
  validatorsJs: "packages/sdk/src/generated/validators.js",
  validatorsDts: "packages/sdk/src/generated/validators.d.ts",
  validatorMap: "packages/sdk/src/generated/validator-map.ts",
  mswHandlers: "packages/msw/src/generated/handlers.ts",
  mswHandlerTypes: "packages/msw/src/generated/handler-types.ts",
  hostTable: "packages/types/generated/operations.generated.ts",
  mswContract: "packages/msw/src/generated/contract.ts",
  mswResponseSchemas: "packages/msw/src/generated/response-schemas.ts",
  mswRoutes: "packages/msw/src/generated/routes.ts",
  mswAccess: "packages/msw/src/generated/access.ts",
  mswDocument: "packages/msw/src/generated/openapi-document.ts",
} as const;

/** The folders the generator owns: `--check` reports files in them that it did not write. */
export const OUTPUT_DIRS = [
  "packages/types/generated",
  "packages/sdk/src/generated",
  "packages/msw/src/generated",
  PYTHON_DEFAULTS.dir,
] as const;

/**
 * What the generator can write (`--targets`): `client` (the operation table, client
 * methods, validators and error classes), `types` (the spec's TypeScript types and
 * the operation tables for hosts), `msw` (the msw handlers, and in the repository
 * layout the simulator's contract layer) and `python` (the Python layer).
 */
export const TARGETS = ["client", "types", "msw", "python"] as const;

/** One of {@link TARGETS}. */
export type Target = (typeof TARGETS)[number];

/** The targets written when none are named: all four in the repository layout; client, types and msw in a standalone folder. */
export const DEFAULT_TARGETS: Readonly<Record<Layout, readonly Target[]>> = {
  repository: TARGETS,
  standalone: ["client", "types", "msw"],
};

/** The repository layout's folder of each target (the Python one as the options name it). */
function repositoryDirs(options: GenerateOptions): Record<Target, string> {
  return {
    types: OUTPUT_DIRS[0],
    client: OUTPUT_DIRS[1],
    msw: OUTPUT_DIRS[2],
    python: options.python?.dir ?? PYTHON_DEFAULTS.dir,
  };
}

/** The owned folders of the repository layout for the chosen targets ({@link OUTPUT_DIRS}, Python's as the options name it). */
export function outputDirs(options: GenerateOptions = {}): string[] {
  const dirs = repositoryDirs(options);
  const chosen = selectedTargets(options);
  return TARGETS.filter((target) => chosen.has(target)).map((target) => dirs[target]);
}

/**
 * The targets a run writes: the chosen ones (default {@link DEFAULT_TARGETS}); in a
 * standalone folder `client` and `msw` bring `types`, whose file they import.
 */
export function selectedTargets(options: GenerateOptions = {}): ReadonlySet<Target> {
  const layout = options.layout ?? "repository";
  const chosen = new Set<Target>(options.targets ?? DEFAULT_TARGETS[layout]);
  if (layout === "standalone" && (chosen.has("client") || chosen.has("msw"))) chosen.add("types");
  return chosen;
}

/**
 * Where each artifact goes in a standalone client folder (`--out DIR`): one flat
 * folder that needs only the runtime package (and msw for `handlers.ts`).
 */
export const STANDALONE_PATHS = {
  types: "openapi.d.ts",
  pythonTable: "operations.json",
  operations: "operations.ts",
  errorCodes: "error-codes.ts",
  contractErrors: "contract-errors.ts",
  methods: "methods.ts",
  validatorsJs: "validators.js",
  validatorsDts: "validators.d.ts",
  validatorMap: "validator-map.ts",
  mswHandlers: "handlers.ts",
  index: "index.ts",
  readme: "README.md",
  python: "python",
} as const;

/**
 * `repository`: this repository's packages (`OUTPUT_PATHS`), types imported from
 * the types package; `standalone`: one folder (`STANDALONE_PATHS`), types imported
 * from the types file beside the other files.
 */
export type Layout = "repository" | "standalone";

/** Options of {@link generate}. */
export interface GenerateOptions {
  /** Lint profile; default `strict`. */
  readonly lint?: LintProfile;
  /** Output layout; default `repository`. */
  readonly layout?: Layout;
  /** Names the output is written with; each defaults to {@link DEFAULT_NAMES} (the types module to `./openapi.js` when standalone). */
  readonly names?: Partial<OutputNames>;
  /** The Python layer: folder (repository layout; `python/` in a standalone folder), package and whether to run the model generator (default: skip it). */
  readonly python?: PythonOptions;
  /** What to write; default {@link DEFAULT_TARGETS} of the layout. Empty is refused. */
  readonly targets?: readonly Target[];
}

/** Result of a generation run: the files in memory plus what was found on the way. */
export interface Generated {
  /** Relative path -> file text, in a stable order. */
  readonly files: Map<string, string>;
  readonly ir: ApiIr;
  readonly spec: LoadedSpec;
  /** Every finding that did not stop generation: the loader's, then the house rules'. */
  readonly warnings: readonly SpecError[];
  /** Files that were not produced, with the reason (the Python models when their tool was skipped or missing). */
  readonly skipped: ReadonlyMap<string, string>;
}

/**
 * Spec file -> every generated file, in memory. The only I/O is reading the spec.
 *
 * @throws {UsageError} when the spec cannot be read
 * @throws {SpecError} when it fails a check (see `loadSpec`)
 * @throws {UsageError} when `names.clientClassName` is not an identifier
 */
export async function generate(specPath: string, options: GenerateOptions = {}): Promise<Generated> {
  const spec = await loadSpec(specPath, { lint: options.lint, extensionPrefix: options.names?.extensionPrefix });
  return render(spec, options);
}

/** Like {@link generate} for spec bytes already in memory. */
export async function generateFromText(
  bytes: Uint8Array | string,
  fileName: string,
  options: GenerateOptions = {},
): Promise<Generated> {
  const spec = await loadSpecText(bytes, fileName, {
    lint: options.lint,
    extensionPrefix: options.names?.extensionPrefix,
  });
  return render(spec, options);
}

/** The emit stage alone: a loaded spec -> files. */
export async function render(spec: LoadedSpec, options: GenerateOptions = {}): Promise<Generated> {
  const profile = options.lint ?? "strict";
  const layout = options.layout ?? "repository";
  if (options.targets !== undefined && options.targets.length === 0)
    throw new UsageError(`no target chosen: name one or more of ${TARGETS.join(", ")}`);
  const chosen = selectedTargets(options);
  const names: OutputNames = {
    ...DEFAULT_NAMES,
    ...(layout === "standalone" ? { typesModule: "./openapi.js" } : {}),
    ...definedOnly(options.names ?? {}),
  };
  // The class name is written as an identifier: only an ASCII identifier is taken (the CLI checks its flag the same way).
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(names.clientClassName))
    throw new UsageError(
      `clientClassName must be a JavaScript identifier, got ${JSON.stringify(names.clientClassName)}`,
    );
  const ir = buildIr(spec, profile, names);
  const rules = checkHouseRules(ir, profile);
  if (rules.errors.length > 0) throw new LintError(rules.errors);
  const warnings = [...spec.warnings, ...rules.warnings];
  // The Python layer first: its model generator is a child process, which then runs while the TypeScript is emitted.
  const pythonOptions = layout === "standalone" ? { ...options.python, dir: STANDALONE_PATHS.python } : options.python;
  const python = chosen.has("python") ? emitPythonLayer(ir, spec.written, pythonOptions) : null;
  python?.catch(() => undefined); // a failure is awaited (and thrown) below, not reported as unhandled meanwhile
  const paths = layout === "standalone" ? STANDALONE_PATHS : OUTPUT_PATHS;
  const client = chosen.has("client");
  const msw = chosen.has("msw");
  // The validators and the simulator's contract read the same converted schemas: converted once, on first use.
  const schemas = client || (msw && layout === "repository") ? validatorSchemas(ir) : null;
  const validators = schemas === null ? null : emitValidators(ir, schemas);
  const files = new Map<string, string>();
  if (chosen.has("types")) {
    files.set(paths.types, await emitTypes(ir));
    files.set(paths.pythonTable, emitPythonTable(ir));
  }
  if (client && validators !== null) {
    files.set(paths.operations, emitOperations(ir));
    files.set(paths.methods, emitMethods(ir));
    files.set(paths.validatorsJs, validators.js);
    files.set(paths.validatorsDts, validators.dts);
    files.set(paths.validatorMap, validators.map);
  }
  if (msw && layout === "standalone") files.set(paths.mswHandlers, emitMswHandlers(ir));
  if (msw && layout === "repository") {
    // The types alone in their own module, so the simulator's types import nothing of msw.
    files.set(OUTPUT_PATHS.mswHandlerTypes, emitMswHandlerTypes(ir));
    files.set(OUTPUT_PATHS.mswHandlers, emitMswHandlers(ir, "./handler-types.js"));
  }
  // A spec without an error-code registry gets neither file (and descriptors without a table).
  if (client && ir.errorCodes.length > 0) {
    files.set(paths.errorCodes, emitErrorCodes(ir));
    files.set(paths.contractErrors, emitContractErrors(ir));
  }
  if (layout === "standalone" && client) files.set(STANDALONE_PATHS.index, emitStandaloneIndex(ir));
  if (layout === "repository" && chosen.has("types")) files.set(OUTPUT_PATHS.hostTable, emitHostTable(ir));
  if (layout === "repository" && msw && validators !== null) {
    // The simulator's contract layer; it uses the SDK's validators (the one copy, `@powercontext/sdk/validators`), written with it.
    const contract = emitMswContract(ir, schemas ?? undefined);
    files.set(OUTPUT_PATHS.mswContract, contract.contract);
    files.set(OUTPUT_PATHS.mswResponseSchemas, contract.responseSchemas);
    files.set(OUTPUT_PATHS.mswRoutes, emitMswRoutes(ir));
    files.set(OUTPUT_PATHS.mswAccess, emitMswAccess(ir));
    files.set(OUTPUT_PATHS.validatorsJs, validators.js);
    files.set(OUTPUT_PATHS.validatorsDts, validators.dts);
    files.set(OUTPUT_PATHS.mswDocument, emitMswDocument(ir, spec.written));
  }
  const pythonLayer =
    python === null ? { files: new Map<string, string>(), skipped: new Map<string, string>() } : await python;
  for (const [file, text] of pythonLayer.files) files.set(file, text);
  if (layout === "standalone")
    files.set(
      STANDALONE_PATHS.readme,
      emitStandaloneReadme(
        ir,
        [...files.keys(), ...pythonLayer.skipped.keys()],
        TARGETS.filter((target) => chosen.has(target)),
      ),
    );
  return { files, ir, spec, warnings, skipped: pythonLayer.skipped };
}

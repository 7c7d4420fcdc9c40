import { LintError, UsageError, type SpecError } from "./errors.js";
import { buildIr } from "./ir/build-ir.js";
import { checkHouseRules } from "./ir/house-rules.js";
import type { ApiIr } from "./ir/model.js";
import { DEFAULT_NAMES, type OutputNames } from "./ir/names.js";
import { loadSpec, loadSpecText, type LoadedSpec } from "./load/load-spec.js";
import { validatorSchemas, type ValidatorSchemas } from "./emit/validator-code/schemas.js";
import { TARGET_NAMES, TARGETS, outputDirs, selectTargets } from "./targets/registry.js";
import { emitStandaloneReadme } from "./targets/standalone-readme.js";
import { checkOutputSize } from "./output-bounds.js";
import type { GenerateOptions, TargetContext, TargetFiles } from "./targets/target.js";

export type { GenerateOptions, Layout, PythonOptions, Target } from "./targets/target.js";
export { TARGETS, TARGET_NAMES, outputDirs, selectTargets };

/** The folders the generator owns in the repository layout (with the default Python folder): `--check` reports files in them that it did not write. */
export const OUTPUT_DIRS: readonly string[] = outputDirs();

/** The standalone folder's own file, beside what its targets write. */
const README = "README.md";

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
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

/**
 * The emit stage alone: a loaded spec -> files. Builds the IR, checks the house
 * rules, then runs the chosen targets (`targets/registry.ts`) and gathers their
 * files in registry order; a standalone folder gets its README last.
 *
 * @throws {UsageError} for an empty or unknown `targets` list, or a class name that is no identifier
 * @throws {SpecError} `too_large` when the files would hold more than `maxOutputBytes` together (`output-bounds.ts`)
 */
export async function render(spec: LoadedSpec, options: GenerateOptions = {}): Promise<Generated> {
  const profile = options.lint ?? "strict";
  const layout = options.layout ?? "repository";
  if (options.targets !== undefined && options.targets.length === 0)
    throw new UsageError(`no target chosen: name one or more of ${TARGET_NAMES.join(", ")}`);
  const unknown = (options.targets ?? []).filter((name) => !TARGET_NAMES.includes(name));
  if (unknown.length > 0)
    throw new UsageError(
      `unknown target ${unknown.map((n) => JSON.stringify(n)).join(", ")}; choose from ${TARGET_NAMES.join(", ")}`,
    );
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
  const chosen = selectTargets(options);
  let schemas: ValidatorSchemas | undefined;
  const context: TargetContext = {
    ir,
    layout,
    options,
    // The validators and the mock's contract read the same converted schemas: converted once, on first use.
    validatorSchemas: () => (schemas ??= validatorSchemas(ir)),
  };
  // Each target runs (up to its first wait) as it is started; one that starts a child process
  // goes first, so the child works while the others emit.
  const started = new Map<string, Promise<TargetFiles>>();
  for (const target of [...chosen].sort((a, b) => Number(b.background === true) - Number(a.background === true))) {
    const output = (async () => target.emit(context))();
    output.catch(() => undefined); // a failure is awaited (and thrown) below, not reported as unhandled meanwhile
    started.set(target.name, output);
  }
  const files = new Map<string, string>();
  const skipped = new Map<string, string>();
  for (const target of chosen) {
    const output = await (started.get(target.name) as Promise<TargetFiles>);
    for (const [file, text] of output.files) files.set(file, text);
    for (const [file, reason] of output.skipped ?? []) skipped.set(file, reason);
  }
  if (layout === "standalone")
    files.set(
      README,
      emitStandaloneReadme(
        ir,
        [...files.keys(), ...skipped.keys()],
        chosen,
        options.targets ?? TARGETS.filter((t) => t.byDefault.standalone).map((t) => t.name),
      ),
    );
  checkOutputSize(files, options.maxOutputBytes);
  return { files, ir, spec, warnings, skipped };
}

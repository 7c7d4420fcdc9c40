import type { LintProfile } from "../domain/types.js";
import type { ApiIr } from "../ir/model.js";
import type { OutputNames } from "../ir/names.js";
import type { ValidatorSchemas } from "../emit/validator-code/schemas.js";

/**
 * `repository`: this repository's packages, each target in its own folder,
 * types imported from the types package; `standalone`: one folder (`--out DIR`),
 * types imported from the types file beside the other files.
 */
export type Layout = "repository" | "standalone";

/** Where the Python layer goes and how its models are made (the `python` target's options). */
export interface PythonOptions {
  /** Output folder, relative to the output root (forward slashes); the generator owns it. */
  readonly dir?: string;
  /** Dotted Python package of that folder; `operations.py` imports `<package>.models`. */
  readonly package?: string;
  /**
   * `skip` (the default for library calls): no `models.py`; `auto`: run
   * datamodel-code-generator when its environment exists, else skip; `require`:
   * a missing environment is an error.
   */
  readonly models?: "skip" | "auto" | "require";
}

/** Options of a generation run (`generate` in `pipeline.ts`). */
export interface GenerateOptions {
  /** Lint profile; default `strict`. */
  readonly lint?: LintProfile;
  /** Output layout; default `repository`. */
  readonly layout?: Layout;
  /** Names the output is written with; each defaults to the repository's (the types module to `./openapi.js` when standalone). */
  readonly names?: Partial<OutputNames>;
  /** The Python layer: folder (repository layout; `python/` in a standalone folder), package and whether to run the model generator (default: skip it). */
  readonly python?: PythonOptions;
  /** Names of the targets to write (`--targets`); default: every target marked so for the layout. Empty is refused. */
  readonly targets?: readonly string[];
  /** Most bytes the generated files may hold together; more is refused (`too_large`) before anything is written. Default `MAX_OUTPUT_BYTES` (256 MiB). */
  readonly maxOutputBytes?: number;
}

/** What a target reads: the IR, the layout, the run's options and what targets share. */
export interface TargetContext {
  readonly ir: ApiIr;
  readonly layout: Layout;
  readonly options: GenerateOptions;
  /** The IR's schemas converted for validators: converted on the first call of a run, shared by every target that calls it. */
  readonly validatorSchemas: () => ValidatorSchemas;
}

/** What a target wrote: relative path -> text, plus the files it could not produce, each with why. */
export interface TargetFiles {
  readonly files: ReadonlyMap<string, string>;
  readonly skipped?: ReadonlyMap<string, string>;
}

/**
 * One output of the generator (`--targets <name>`): a folder of `targets/` whose
 * `index.ts` exports it, registered in `targets/registry.ts`. The renderer knows
 * nothing of any target: it chooses them, runs them and gathers their files.
 */
export interface Target {
  /** The `--targets` name. */
  readonly name: string;
  /** What it writes, for `--help`. */
  readonly summary: string;
  /** What a standalone folder with it needs installed (its README). */
  readonly needs: string;
  /** What each file it may write in a standalone folder is, by path (its README). */
  readonly roles: Readonly<Record<string, string>>;
  /** Written when `--targets` is not given, per layout. */
  readonly byDefault: Readonly<Record<Layout, boolean>>;
  /** The folder it owns in the repository layout, relative to the root (forward slashes). */
  folder(options: GenerateOptions): string;
  /** The targets written with it: one sharing its owned folder (written whole), one whose files its files import. */
  requires(layout: Layout): readonly string[];
  /** Starts a child process: emitted before the others, so that it runs while they emit. */
  readonly background?: boolean;
  /**
   * Its files for the layout (repository paths relative to the root, standalone
   * paths relative to the folder).
   */
  emit(context: TargetContext): TargetFiles | Promise<TargetFiles>;
}

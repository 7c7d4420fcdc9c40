import type { LintProfile } from "./domain/types.js";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Command, CommanderError, Option } from "commander";
import { DriftError, OutputError, SpecError, SpecErrorList, UsageError } from "./errors.js";
import { GENERATOR } from "./ir/build-ir.js";
import { DEFAULT_NAMES } from "./ir/names.js";
import { PythonToolError } from "./targets/python/models-py.js";
import { PYTHON_DEFAULTS } from "./targets/python/layer.js";
import { TARGETS, TARGET_NAMES, generate, outputDirs, type Layout } from "./pipeline.js";
import { assertUpToDate, writeGenerated } from "./write.js";

/** Exit codes of the CLI. */
export const EXIT = { ok: 0, drift: 1, badInput: 2 } as const;

/** Where the CLI prints; injectable for tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
}

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
};

/**
 * Runs `powercontext-codegen` with the given arguments (without `node` and script).
 *
 * Options: `--spec <file>` (default `openapi.yaml`); `--out <dir>`: write one
 * self-contained client folder there, with a `README.md` saying what each file is
 * (the generator owns the folder and replaces it whole, and refuses a folder that
 * holds anything it did not write); `--targets <list>` (comma-separated `client`,
 * `types`, `msw`, `python`; default all four in the repository layout, `client,types,msw`
 * with `--out`, where `client` and `msw` bring `types`); without `--out`, this repository's layout (the `generated` folders of `packages/`)
 * under `--root <dir>` (default: the directory that holds the spec, so that
 * generating another spec never writes over this repository's output by
 * accident); `--check` (compare, write nothing); `--lint <strict|upstream>`
 * (default `strict`); `--quiet` (no summary, no warnings); the output names
 * `--client-class`, `--runtime-package`, `--types-package`, `--extension-prefix`,
 * `--regenerate-command` (defaults: this repository's, see `ir/names.ts`). In the
 * repository layout, `--python-out <dir>` and `--python-package <name>` name the
 * Python layer's folder under the root and its dotted package, and
 * `--python-models <skip|auto|require>` says whether datamodel-code-generator runs
 * for `models.py` (default `require` under `CI=true`, else `auto`, which keeps the
 * file on disk as it is, with a warning, when the tool's environment is missing).
 *
 * @returns the exit code: 0 ok, 1 `--check` found drift, 2 bad spec or usage;
 *   nothing is written unless the code is 0 and `--check` is off
 */
export async function runCli(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  const program = new Command("powercontext-codegen")
    .description(
      "Generate the PowerContext TypeScript types, SDK tables, validators and msw handlers from an OpenAPI 3.0 or 3.1 spec",
    )
    .version(GENERATOR.version, "--version", "show the version and exit")
    .option("--spec <file>", "OpenAPI 3.0 or 3.1 document (YAML or JSON)", "openapi.yaml")
    .option(
      "--out <dir>",
      "write one self-contained client folder (replaced whole; refused when it holds files the generator did not write)",
    )
    .option(
      "--targets <list>",
      `what to write, comma-separated: ${TARGETS.map((t) => `${t.name} (${t.summary})`).join(", ")}; default: ${defaults("repository")}, with --out ${defaults("standalone")}; a target brings what it needs`,
    )
    .option(
      "--root <dir>",
      "without --out: repository root to write packages/*/generated under (default: the spec's directory)",
    )
    .option("--client-class <name>", `generated client class (default ${DEFAULT_NAMES.clientClassName})`)
    .option(
      "--runtime-package <name>",
      `package generated code imports the runtime from (default ${DEFAULT_NAMES.runtimePackage})`,
    )
    .option(
      "--types-package <name>",
      `repository layout: package the types are imported from (default ${DEFAULT_NAMES.typesModule})`,
    )
    .option(
      "--extension-prefix <prefix>",
      `vendor extension prefix of the spec (default ${DEFAULT_NAMES.extensionPrefix})`,
    )
    .option("--regenerate-command <command>", `command named in banners (default ${DEFAULT_NAMES.regenerateCommand})`)
    .option("--check", "fail (exit 1) when generated files differ from the spec; write nothing", false)
    .addOption(
      new Option("--lint <profile>", "rule profile: strict for our spec, upstream for published contracts")
        .choices(["strict", "upstream"])
        .default("strict"),
    )
    .option("--quiet", "print only errors", false)
    .option(
      "--python-out <dir>",
      "repository layout: folder of the generated Python layer, relative to --root",
      PYTHON_DEFAULTS.dir,
    )
    .option("--python-package <name>", "dotted Python package of that folder", PYTHON_DEFAULTS.package)
    .addOption(
      new Option("--python-models <mode>", "run datamodel-code-generator for models.py")
        .choices(["skip", "auto", "require"])
        .default(process.env.CI === "true" ? "require" : "auto"),
    )
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  try {
    program.parse([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    throw error;
  }
  const opts = program.opts<{
    spec: string;
    out?: string;
    targets?: string;
    root?: string;
    check: boolean;
    lint: LintProfile;
    quiet: boolean;
    clientClass?: string;
    runtimePackage?: string;
    typesPackage?: string;
    extensionPrefix?: string;
    regenerateCommand?: string;
    pythonOut: string;
    pythonPackage: string;
    pythonModels: "skip" | "auto" | "require";
  }>();
  const started = performance.now();
  try {
    const specPath = path.resolve(io.cwd, opts.spec);
    if (opts.out !== undefined && opts.root !== undefined)
      throw new UsageError("--out (a standalone folder) and --root (the repository layout) exclude each other");
    const names = {
      clientClassName: opts.clientClass,
      runtimePackage: opts.runtimePackage,
      typesModule: opts.typesPackage,
      extensionPrefix: opts.extensionPrefix,
      regenerateCommand: opts.regenerateCommand,
    };
    for (const [flag, value] of [["--client-class", names.clientClassName]] as const) {
      if (value !== undefined && !/^[A-Za-z_$][\w$]*$/.test(value))
        throw new UsageError(`${flag} must be a JavaScript identifier, got ${JSON.stringify(value)}`);
    }
    const standalone = opts.out !== undefined;
    if (
      standalone &&
      path.resolve(io.cwd, opts.out as string) === path.parse(path.resolve(io.cwd, opts.out as string)).root
    )
      throw new UsageError("--out must name a folder, not the file system's root");
    const targets = opts.targets === undefined ? undefined : parseTargets(opts.targets);
    const python = { dir: opts.pythonOut, package: opts.pythonPackage, models: opts.pythonModels };
    const options = {
      lint: opts.lint,
      layout: standalone ? ("standalone" as const) : ("repository" as const),
      names,
      python,
      targets,
    };
    const { files, ir, warnings, skipped } = await generate(specPath, options);
    if (!opts.quiet) for (const warning of warnings) io.stderr(`warning: ${warning.message}\n`);
    // A standalone folder is one owned folder: its parent is the root written under.
    const folder = standalone ? path.resolve(io.cwd, opts.out as string) : null;
    const outDir =
      folder !== null
        ? path.dirname(folder)
        : opts.root === undefined
          ? path.dirname(specPath)
          : path.resolve(io.cwd, opts.root);
    // a file the generator could not produce stays as it is on disk, neither checked nor removed
    for (const [file, reason] of skipped) {
      const current = await readFile(path.join(folder ?? outDir, file), "utf8").catch(() => undefined);
      if (current !== undefined) files.set(file, current);
      if (!opts.quiet && opts.pythonModels !== "skip")
        io.stderr(
          `warning: ${file} not regenerated (${reason}); ${opts.check ? "not checked" : current === undefined ? "it does not exist" : "kept as it is"}\n`,
        );
    }
    const owned = folder !== null ? [path.basename(folder)] : outputDirs(options);
    const placed =
      folder === null ? files : new Map([...files].map(([file, text]) => [`${path.basename(folder)}/${file}`, text]));
    if (opts.check) await assertUpToDate(outDir, placed, owned);
    else await writeGenerated(outDir, placed, owned);
    if (!opts.quiet) {
      const ms = Math.round(performance.now() - started);
      io.stdout(
        `${opts.check ? "up to date" : "generated"}: ${ir.operations.length} operations, ${ir.schemas.length} schemas, ${files.size} files, ${ms} ms (${ir.source.fileName})\n`,
      );
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof DriftError) {
      io.stderr(`${error.message}\n`);
      return EXIT.drift;
    }
    if (error instanceof SpecErrorList) {
      for (const issue of error.issues) io.stderr(`error: ${issue.message}\n`);
      io.stderr(`${error.issues.length} problem(s) in ${opts.spec}; nothing was written\n`);
      if (error.issues.some((issue) => issue.code === "missing_retry_class")) {
        io.stderr("hint: a published contract without x-powercontext-* extensions needs --lint upstream\n");
      }
      return EXIT.badInput;
    }
    if (
      error instanceof SpecError ||
      error instanceof UsageError ||
      error instanceof OutputError ||
      error instanceof PythonToolError
    ) {
      io.stderr(`error: ${error.message}\n`);
      return EXIT.badInput;
    }
    throw error;
  }
}

/** The targets a layout writes when `--targets` is not given. */
function defaults(layout: Layout): string {
  return TARGETS.filter((t) => t.byDefault[layout])
    .map((t) => t.name)
    .join(",");
}

/** `--targets client,types`: each name once, from {@link TARGET_NAMES}. */
function parseTargets(list: string): string[] {
  const names = list
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = names.filter((name) => !TARGET_NAMES.includes(name));
  if (unknown.length > 0)
    throw new UsageError(
      `--targets: unknown target ${unknown.map((name) => JSON.stringify(name)).join(", ")}; choose from ${TARGET_NAMES.join(", ")}`,
    );
  if (names.length === 0) throw new UsageError(`--targets names no target; choose from ${TARGET_NAMES.join(", ")}`);
  return [...new Set(names)];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 70;
    },
  );
}

import type { Json } from "../../domain/types.js";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ApiIr } from "../../ir/model.js";
import { commentLine } from "../../emit/ts/syntax.js";
import { pyBanner } from "./banner-py.js";
import { modelsDocument, parametersDocument, ruleMethods } from "./model-inputs.js";
import { pyClassNames } from "./names-py.js";

const codegenRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
/** The driver script that calls datamodel-code-generator (with its ruff.toml beside it). */
export const MODELS_SCRIPT = path.join(codegenRoot, "python", "generate_models.py");

/** Where the model generator's interpreter caches bytecode (`PYTHONPYCACHEPREFIX`). */
export const PYCACHE_DIR = path.join(os.tmpdir(), "powercontext-codegen-pycache");

/** Raised when `models.py` cannot be produced: no Python tool environment, or the tool failed. */
export class PythonToolError extends Error {
  override readonly name = "PythonToolError";
  /** True when the environment is missing (as opposed to the tool failing on this spec). */
  readonly missing: boolean;
  constructor(message: string, missing: boolean) {
    super(message);
    this.missing = missing;
  }
}

/**
 * The interpreter of the model generator's environment:
 * `POWERCONTEXT_CODEGEN_PYTHON` when set, else `.venv-codegen/bin/python` at the
 * repository root (created by `scripts/ci/python-codegen-env.sh`).
 *
 * @returns the path, or null when that interpreter does not exist
 */
export function codegenPython(env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env.POWERCONTEXT_CODEGEN_PYTHON;
  const candidate =
    configured && configured.length > 0 ? configured : path.join(codegenRoot, "..", ".venv-codegen", "bin", "python");
  return existsSync(candidate) ? candidate : null;
}

/**
 * Emits `models.py` (and `parameters.py`: one model per operation of its path, query and
 * header parameters, with the component schemas they refer to) by running datamodel-code-generator (pinned in
 * `scripts/ci/python-codegen-env.sh`) on the components of `written` (the document
 * as written), with the
 * options of the Python Client SDK 1.4.1. The tool runs as a local child
 * process with the document on standard input; nothing else is read and no
 * connection is opened.
 *
 * The interpreter runs optimised (`-O`): datamodel-code-generator's `inflect`
 * dependency decorates itself with typeguard's run-time type checks, which
 * recompile its functions on import and cost more than half of the tool's time;
 * optimised mode turns that decorator into a no-op and leaves the output as it is.
 * Bytecode goes to a cache under the system's temporary folder
 * ({@link PYCACHE_DIR}), never beside the sources.
 *
 * @param timeoutMs - how long the tool may run (default 120 000 ms)
 * @throws {PythonToolError} `missing` when the environment does not exist; otherwise
 *   when the tool exits non-zero or runs past the timeout (its stderr tail in the message)
 */
export async function emitPythonModels(ir: ApiIr, written: Json, timeoutMs = 120_000): Promise<PythonModels> {
  const python = codegenPython();
  if (python === null) {
    throw new PythonToolError(
      "no Python environment for datamodel-code-generator; run `bash scripts/ci/python-codegen-env.sh`",
      true,
    );
  }
  const parameters = parametersDocument(ir, written);
  const input = JSON.stringify({
    document: modelsDocument(ir, written),
    methods: ruleMethods(ir),
    parameters_document: parameters,
    class_names: pyClassNames(ir),
  });
  // the tool writes the name into a comment line: escaped like every name in a banner
  const output = await runTool(
    python,
    ["-O", MODELS_SCRIPT, "--filename", commentLine(ir.source.fileName)],
    input,
    timeoutMs,
  );
  let parsed: { models?: unknown; parameters?: unknown };
  try {
    parsed = JSON.parse(output) as typeof parsed;
  } catch {
    throw new PythonToolError("the model generator's driver printed something other than its JSON answer", false);
  }
  if (typeof parsed.models !== "string")
    throw new PythonToolError("the model generator's driver wrote no models", false);
  return {
    models: `${pyBanner(ir)}${parsed.models}`,
    parameters: typeof parsed.parameters === "string" ? `${pyBanner(ir)}${parsed.parameters}` : null,
  };
}

/** The generator's two modules: `models.py`, and `parameters.py` when some operation has parameters. */
export interface PythonModels {
  readonly models: string;
  readonly parameters: string | null;
}

/** The child's environment: ours, with bytecode redirected to {@link PYCACHE_DIR}. */
function pythonEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONPYCACHEPREFIX: PYCACHE_DIR };
  delete env.PYTHONDONTWRITEBYTECODE;
  return env;
}

function runTool(command: string, args: readonly string[], input: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env: pythonEnv() });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new PythonToolError(`cannot run ${command}: ${error.message}`, true));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(Buffer.concat(out).toString("utf8"));
      const tail = Buffer.concat(err).toString("utf8").trim().split("\n").slice(-8).join("\n");
      const why = signal !== null ? `was stopped (${signal}) after ${timeoutMs} ms` : `exited with code ${code}`;
      reject(new PythonToolError(`datamodel-code-generator ${why}${tail ? `:\n${tail}` : ""}`, false));
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}

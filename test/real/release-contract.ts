// The released server's OpenAPI document, read from the installed PyPI package
// (powercontext==1.4.1, `powercontext.http._generated.schema.OPENAPI_SCHEMA`) at test
// or bench time and written to a temporary file. It is never committed.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pythonTools, venvBin, type ToolCheck } from "./tools.js";

const DUMP = "import json; from powercontext.http._generated.schema import OPENAPI_SCHEMA as s; print(json.dumps(s))";

let cached: string | undefined;

/** What {@link releaseContractPath} needs: the Python venv with the released package. */
export function releaseContractTool(): ToolCheck {
  return pythonTools();
}

/**
 * Path of a temporary `powercontext-1.4.1.json` holding the released contract
 * (JSON, one file per process). Throws when the venv is missing; check
 * {@link releaseContractTool} first.
 */
export function releaseContractPath(): string {
  if (cached !== undefined) return cached;
  const text = execFileSync(venvBin("python"), ["-c", DUMP], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  const dir = mkdtempSync(join(tmpdir(), "pc-release-"));
  cached = join(dir, "powercontext-1.4.1.json");
  writeFileSync(cached, text);
  return cached;
}

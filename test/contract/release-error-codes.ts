// The error codes the installed release can answer with, and their statuses, read at
// test time by release_error_codes.py (Python's ast over the installed package; nothing
// of it is written into the repository).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { venvPython } from "../../scripts/contract/release.mjs";
import { repoRoot } from "../real/tools.js";

/** code -> every status the release may send it with (several when a condition picks the status). */
export type ReleaseErrorCodes = Readonly<Record<string, readonly number[]>>;

let cached: ReleaseErrorCodes | null = null;

/**
 * Reads the release's error codes (once per test file).
 *
 * @throws {Error} when the venv's python is missing or the reader fails
 */
export function readReleaseErrorCodes(): ReleaseErrorCodes {
  const script = join(repoRoot, "test", "contract", "release_error_codes.py");
  cached ??= JSON.parse(
    execFileSync(venvPython(repoRoot), [script], { encoding: "utf8", maxBuffer: 8 * 1024 * 1024 }),
  ) as ReleaseErrorCodes;
  return cached;
}

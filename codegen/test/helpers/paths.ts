import { mkdirSync, mkdtempSync } from "node:fs";
import { checkAll, checkFile, requireTools } from "../../../test/real/tools.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CLIENT_PATHS } from "../../src/targets/client/index.js";
import { MSW_PATHS } from "../../src/targets/msw/index.js";
import { TABLES_PATHS } from "../../src/targets/tables/index.js";
import { TYPES_PATHS } from "../../src/targets/types/index.js";

/** Repository root (the npm workspace root). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The shared folder with the published contracts. */
export const sharedDir = process.env.POWERCONTEXT_SHARED_DIR ?? path.resolve(repoRoot, "../shared");

export const upstreamSpec = path.join(sharedDir, "contracts/powercontext-0.0.2.yaml");
export const upstreamTable = path.join(sharedDir, "contracts/powercontext-0.0.2.operations.json");
/**
 * Whether the published 0.0.2 contract and its operation table are here (they live
 * beside the repository, or under `POWERCONTEXT_SHARED_DIR`, and are never committed).
 * Locally their absence skips `suite` with a banner; under `CI=true` it fails.
 */
export function upstreamContract(suite: string): boolean {
  const hint = "the published contracts folder beside the repository, or set POWERCONTEXT_SHARED_DIR";
  return requireTools(suite, checkAll(checkFile(upstreamSpec, hint), checkFile(upstreamTable, hint)));
}

export const fixturesDir = path.resolve(repoRoot, "codegen/test/fixtures");

/**
 * A fresh scratch folder inside the repository (git-ignored `.cache`), so that
 * generated code resolves `msw`, `ajv` and `typescript` from the workspace's node_modules.
 */
export function scratchDir(prefix: string): string {
  const base = path.join(repoRoot, "codegen/.cache");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, `${prefix}-`));
}

/** Where each file of the repository layout goes, relative to the root: the path tables of the targets, together. */
export const OUTPUT_PATHS = {
  ...TYPES_PATHS.repository,
  ...TABLES_PATHS.repository,
  ...CLIENT_PATHS.repository,
  ...MSW_PATHS.repository,
};

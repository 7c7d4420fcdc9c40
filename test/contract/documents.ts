// The two documents the contract tests compare: openapi.yaml (read with js-yaml, no
// generator involved) and the release's contract, read from the installed Python
// package at test time and never written anywhere.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import yaml from "js-yaml";
import { readReleaseContract, venvPython } from "../../scripts/contract/release.mjs";
import { pythonTools, repoRoot, requireTools } from "../real/tools.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const oursPath = join(repoRoot, "openapi.yaml");

/** openapi.yaml as data. */
export function loadOurs(): JsonObject {
  return yaml.load(readFileSync(oursPath, "utf8")) as JsonObject;
}

/**
 * True when the release can be read (the venv exists). Locally a missing venv skips the
 * suite with a banner; under CI=true it fails (test/real/tools.ts).
 */
export function releaseAvailable(suite: string): boolean {
  return requireTools(suite, pythonTools());
}

let cached: JsonObject | null = null;

/** The release's OpenAPI document (read once per test file). */
export function loadRelease(): JsonObject {
  cached ??= readReleaseContract(venvPython(repoRoot)).document as JsonObject;
  return cached;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

export interface OperationEntry {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly operation: JsonObject;
}

/** Every operation of a document, in document order. */
export function operationsOf(document: JsonObject): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as JsonObject)) {
    for (const method of METHODS) {
      const operation = (item as JsonObject)[method];
      if (operation && typeof operation === "object" && !Array.isArray(operation)) {
        out.push({ operationId: String(operation.operationId), method: method.toUpperCase(), path, operation });
      }
    }
  }
  return out;
}

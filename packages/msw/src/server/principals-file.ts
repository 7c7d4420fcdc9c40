import { readFile } from "node:fs/promises";
import { parsePrincipalConfig, type PrincipalConfig } from "../simulator/access/principals.js";

/**
 * Reads a principals file: `{ "tokens": { "<token>": { "name": "...", "scopes": { "*": ["scope.read"] } } } }`.
 * The packaged `principals.default.json` holds the documented defaults.
 * @throws Error when the file cannot be read, is not JSON or has a bad entry (tokens are never quoted)
 */
export async function loadPrincipalsFile(path: string): Promise<PrincipalConfig> {
  const text = await readFile(path, "utf8");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`principals file ${path} is not valid JSON`);
  }
  return parsePrincipalConfig(raw);
}

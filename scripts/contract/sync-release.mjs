#!/usr/bin/env node
// Writes openapi.yaml from the installed release's contract and our overlay
// (docs/adr/0012-release-contract-sync.md).
//
//   node scripts/contract/sync-release.mjs           write openapi.yaml
//   node scripts/contract/sync-release.mjs --check   exit 1 when openapi.yaml differs from what would be written
//   options: --python PATH (default .venv/bin/python), --out PATH (default openapi.yaml)
//
// The release is read from the Python package in the venv; nothing is fetched.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import yaml from "js-yaml";
import { mergeContract } from "./merge.mjs";
import { OverlayError, loadOverlay } from "./overlay.mjs";
import { readReleaseContract, venvPython } from "./release.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The text of openapi.yaml for a release document and an overlay directory. Deterministic:
 * the same inputs give the same bytes.
 *
 * @param {Record<string, unknown>} release the release's OpenAPI document
 * @param {string} overlayDir
 * @returns {string}
 * @throws {import("./overlay.mjs").OverlayError}
 */
export function renderContract(release, overlayDir) {
  const overlay = loadOverlay(overlayDir, root);
  const document = mergeContract(release, overlay);
  const header = String(overlay.document.header ?? "")
    .trimEnd()
    .split("\n")
    .map((line) => (line === "" ? "#" : `# ${line}`))
    .join("\n");
  const body = yaml.dump(document, { lineWidth: 100, noRefs: true, quotingType: '"', sortKeys: false });
  return `${header}\n\n${body}`;
}

function main() {
  const { values } = parseArgs({
    options: {
      check: { type: "boolean", default: false },
      python: { type: "string" },
      out: { type: "string" },
    },
  });
  const out = resolve(values.out ?? join(root, "openapi.yaml"));
  const { document } = readReleaseContract(values.python ?? venvPython(root));
  const text = renderContract(document, join(root, "contract", "overlay"));
  let current = null;
  try {
    current = readFileSync(out, "utf8");
  } catch {
    current = null;
  }
  if (values.check) {
    if (current !== text) {
      console.error(`${out} is not what scripts/contract/sync-release.mjs writes; run it and commit the result`);
      process.exit(1);
    }
    console.log(`${out} is up to date`);
    return;
  }
  const temp = `${out}.tmp-${process.pid}`;
  writeFileSync(temp, text);
  renameSync(temp, out);
  console.log(`wrote ${out} (${text.length} bytes)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(error instanceof OverlayError ? `overlay error: ${error.message}` : error);
    process.exit(1);
  }
}

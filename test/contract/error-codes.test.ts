// openapi.yaml's x-powercontext-error-codes holds every error code the release can send,
// with a status the release sends it with: ErrorCode, the contract errors, the Python
// layer and the mock are all generated from that registry, so a code missing there is a
// code none of them knows (docs/retry-classes.md, "Transient error codes").
import { describe, expect, it } from "vitest";
import { loadOurs, releaseAvailable, type JsonObject } from "./documents.js";
import { readReleaseErrorCodes } from "./release-error-codes.js";

const run = releaseAvailable("error-code registry against the release");

describe.runIf(run)("x-powercontext-error-codes against the installed release", () => {
  const registry = (loadOurs()["x-powercontext-error-codes"] ?? {}) as Record<string, JsonObject>;

  it("the reader finds the codes the release is known to send (so an empty reading cannot pass)", () => {
    const release = readReleaseErrorCodes();
    // one code from each place the release decides a code: a mapper literal, a table,
    // an exception's class attribute, its constructor literals, the middlewares
    expect(release.scope_version_conflict).toEqual([409]);
    expect(release.client_upgrade_required).toEqual([426]);
    expect(release.invalid_target_credential).toEqual([401]);
    expect(release.code_timeout).toEqual([503]);
    expect(release.source_not_found).toEqual([404]);
    expect(release.artifact_handle_not_found).toEqual([404]);
    expect(release.unauthorized).toEqual([401]);
    expect(release.request_too_large).toEqual([413]);
    expect(release.revision_conflict).toEqual([409, 412]);
    expect(Object.keys(release).length).toBeGreaterThan(150);
  });

  it("every code the release can send is in the registry", () => {
    const missing = Object.keys(readReleaseErrorCodes()).filter((code) => !(code in registry));
    expect(
      missing,
      "add these codes to contract/overlay/document.yaml, then npm run contract:sync && npm run generate",
    ).toEqual([]);
  });

  it("each registry status is one the release sends that code with", () => {
    const release = readReleaseErrorCodes();
    const wrong = Object.entries(registry)
      .filter(([code, row]) => code in release && !release[code]!.includes(row.status as number))
      .map(([code, row]) => `${code}: registry ${String(row.status)}, release ${release[code]!.join(" or ")}`);
    expect(wrong).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { call } from "../support/flat-call.js";

/**
 * restore_atomic_memory with a preview_token, as the release checks its signed
 * previews: the token must be one a preview of this same restoration handed
 * out (else 422 invalid_preview, and nothing is restored), not expired (409
 * preview_expired), for a record that has not moved since (409 preview_stale).
 * Without a token the restoration goes ahead, as there.
 */
function forgottenRecord(clock = new ManualClock()) {
  const sim = createPowerContextSimulator({ seed: 5, clock, scopes: ["s1", "s2"] });
  const record = call(sim, "remember_memory", { scope_id: "s1", kind: "fact", text: "Backups run nightly." }).body
    .records[0];
  const forgotten = call(sim, "change_atomic_memory_lifecycle", {
    scope_id: "s1",
    target: { artifact: record.artifact, state_version: record.state_version },
    state: "forgotten",
  }).body.records[0];
  return { sim, clock, record: forgotten, target: { artifact_id: record.artifact.artifact_id as string } };
}

function stateOf(sim: PowerContextSimulator, artifactId: string): string {
  return call(sim, "get_atomic_memory_state", { scope_id: "s1", artifact_id: artifactId }).body.state;
}

describe("Atomic Memory restoration preview tokens", () => {
  it("refuses a token no preview handed out with 422 invalid_preview and leaves the record forgotten", () => {
    const { sim, target } = forgottenRecord();
    const issued = call(sim, "preview_atomic_memory_restoration", { scope_id: "s1", target }).body.preview_token;
    const [payload, seal] = String(issued).split(".");
    for (const token of [
      "bogus",
      "",
      `${payload}.${"0".repeat(64)}`,
      `${payload}x.${seal}`,
      `${issued}.x`,
      "a".repeat(20_000),
    ]) {
      const refused = call(sim, "restore_atomic_memory", { scope_id: "s1", target, preview_token: token });
      expect([token.slice(0, 20), refused.status, refused.code, refused.body.error.details]).toEqual([
        token.slice(0, 20),
        422,
        "invalid_preview",
        null,
      ]);
    }
    expect(stateOf(sim, target.artifact_id)).toBe("forgotten");
  });

  it("refuses a token issued for another record, Scope, revision or operation", () => {
    const { sim, target } = forgottenRecord();
    const other = call(sim, "remember_memory", { scope_id: "s1", kind: "fact", text: "Logs rotate weekly." }).body
      .records[0];
    const otherToken = call(sim, "preview_atomic_memory_restoration", {
      scope_id: "s1",
      target: { artifact_id: other.artifact.artifact_id },
    }).body.preview_token;
    const withRevision = call(sim, "preview_atomic_memory_restoration", {
      scope_id: "s1",
      target: { ...target, revision: 1 },
    }).body.preview_token;
    for (const request of [
      { scope_id: "s1", target, preview_token: otherToken },
      { scope_id: "s1", target, preview_token: withRevision },
      {
        scope_id: "s1",
        target,
        operation: "undo_merge",
        preview_token: call(sim, "preview_atomic_memory_restoration", { scope_id: "s1", target }).body.preview_token,
      },
    ]) {
      const refused = call(sim, "restore_atomic_memory", request);
      expect([refused.status, refused.code]).toEqual([422, "invalid_preview"]);
    }
    expect(stateOf(sim, target.artifact_id)).toBe("forgotten");
  });

  it("restores with the token of its preview, and without a token", () => {
    const { sim, target } = forgottenRecord();
    const token = call(sim, "preview_atomic_memory_restoration", { scope_id: "s1", target }).body.preview_token;
    const restored = call(sim, "restore_atomic_memory", { scope_id: "s1", target, preview_token: token });
    expect([restored.status, restored.body.changed]).toEqual([200, true]);
    expect(stateOf(sim, target.artifact_id)).toBe("active");

    const again = forgottenRecord();
    const plain = call(again.sim, "restore_atomic_memory", {
      scope_id: "s1",
      target: again.target,
      preview_token: null,
    });
    expect([plain.status, plain.body.changed]).toEqual([200, true]);
  });

  it("refuses an expired token with 409 preview_expired and a token whose record moved with 409 preview_stale", () => {
    const { sim, clock, target } = forgottenRecord();
    const preview = call(sim, "preview_atomic_memory_restoration", { scope_id: "s1", target }).body;
    clock.advance(Date.parse(preview.expires_at) - clock.now() + 1_000);
    const expired = call(sim, "restore_atomic_memory", {
      scope_id: "s1",
      target,
      preview_token: preview.preview_token,
    });
    expect([expired.status, expired.code]).toEqual([409, "preview_expired"]);

    const fresh = call(sim, "preview_atomic_memory_restoration", { scope_id: "s1", target }).body.preview_token;
    expect(call(sim, "restore_atomic_memory", { scope_id: "s1", target }).status).toBe(200);
    const stale = call(sim, "restore_atomic_memory", { scope_id: "s1", target, preview_token: fresh });
    expect([stale.status, stale.code]).toEqual([409, "preview_stale"]);
  });
  it("finds a revision the target names, or answers 404 not_found for one the Artifact never had, in the preview too; refuses a spaced id", () => {
    const { sim, target } = forgottenRecord();
    for (const operation of ["preview_atomic_memory_restoration", "restore_atomic_memory"] as const) {
      const missing = call(sim, operation, { scope_id: "s1", target: { ...target, revision: 50 } });
      expect([operation, missing.status, missing.code]).toEqual([operation, 404, "not_found"]);
    }
    expect(stateOf(sim, target.artifact_id)).toBe("forgotten");
    // An id with surrounding whitespace is no Artifact reference: the issue names the id.
    for (const operation of ["preview_atomic_memory_restoration", "restore_atomic_memory"] as const) {
      const spaced = call(sim, operation, { scope_id: "s1", target: { artifact_id: ` ${target.artifact_id}` } });
      expect([operation, spaced.status, spaced.code, spaced.body.error.details.errors[0].loc]).toEqual([
        operation,
        422,
        "invalid_request",
        ["artifact_id"],
      ]);
    }
    const restored = call(sim, "restore_atomic_memory", { scope_id: "s1", target: { ...target, revision: 1 } });
    expect(restored.status).toBe(200);
    expect(stateOf(sim, target.artifact_id)).toBe("active");
  });
});

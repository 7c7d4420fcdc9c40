// openapi.yaml carries the release's wire contract whole: its wire view equals the
// release's except at the JSON pointers docs/compatibility.md lists, each with a reason.
import { describe, expect, it } from "vitest";
import { wireView } from "../../scripts/contract/wire-view.mjs";
import {
  REASON_KINDS,
  loadAllowedDifferences,
  parseAllowedDifferences,
  type AllowedDifference,
} from "./allowed-differences.js";
import { loadOurs, loadRelease, operationsOf, releaseAvailable, type Json, type JsonObject } from "./documents.js";
import { diffWire, isUnder, type WireDifference } from "./wire-diff.js";

interface Verdict {
  readonly unlisted: WireDifference[];
  readonly unused: AllowedDifference[];
}

/** Which differences no row covers, and which rows cover no difference. */
function judge(differences: readonly WireDifference[], allowed: readonly AllowedDifference[]): Verdict {
  const covers = (row: AllowedDifference, d: WireDifference) =>
    row.change === d.change && isUnder(d.pointer, row.pointer);
  return {
    unlisted: differences.filter((d) => !allowed.some((row) => covers(row, d))),
    unused: allowed.filter((row) => !differences.some((d) => covers(row, d))),
  };
}

const describeDifference = (d: WireDifference) =>
  `${d.subject}: ${d.change} ${d.pointer}\n    ours:    ${d.ours}\n    release: ${d.release}`;

describe.runIf(releaseAvailable("test/contract/wire.test.ts"))(
  "openapi.yaml against the release's wire contract",
  () => {
    it("has every operation of the release, with the same path and method, plus the Operation API", () => {
      const ours = new Map(operationsOf(loadOurs()).map((o) => [o.operationId, `${o.method} ${o.path}`]));
      const release = operationsOf(loadRelease());
      expect(release.length).toBe(126);
      const missing = release
        .filter((o) => ours.get(o.operationId) !== `${o.method} ${o.path}`)
        .map((o) => o.operationId);
      expect(missing).toEqual([]);
      const extra = [...ours.keys()].filter((id) => !release.some((o) => o.operationId === id)).sort();
      expect(extra).toEqual(["cancel_operation", "get_operation", "list_operations", "retry_operation"]);
    });

    it("differs only where docs/compatibility.md says, operation by operation and schema by schema", () => {
      const differences = diffWire(wireView(loadOurs()) as Json, wireView(loadRelease()) as Json);
      const { unlisted, unused } = judge(differences, loadAllowedDifferences());
      expect(unlisted.map(describeDifference).join("\n"), "differences without a row in docs/compatibility.md").toBe(
        "",
      );
      expect(
        unused.map((r) => `line ${r.line}: ${r.change} ${r.pointer}`),
        "rows that match no difference",
      ).toEqual([]);
    });

    it("gives every listed difference a reason of a known kind", () => {
      const rows = loadAllowedDifferences();
      expect(rows.length).toBeGreaterThan(0);
      const bad = rows.filter((r) => !REASON_KINDS.some((kind) => r.reason.startsWith(kind)) || r.reason.length < 20);
      expect(bad.map((r) => `line ${r.line}: ${r.reason}`)).toEqual([]);
    });

    it("notices a changed constraint, a dropped status and a renamed member that no row covers", () => {
      const ours = structuredClone(loadOurs());
      const schemas = (ours.components as JsonObject).schemas as JsonObject;
      const flush = schemas.FlushMemoryRequest as JsonObject;
      ((flush.properties as JsonObject).scope_id as JsonObject).maxLength = 255;
      const capture = ((ours.paths as JsonObject)["/v1/sources/content"] as JsonObject).post as JsonObject;
      delete (capture.responses as JsonObject)["409"];
      const request = schemas.CaptureContentSourceRequest as JsonObject;
      const properties = request.properties as JsonObject;
      properties.sourceId = properties.source_id as Json;
      delete properties.source_id;
      const differences = diffWire(wireView(ours) as Json, wireView(loadRelease()) as Json);
      const { unlisted } = judge(differences, loadAllowedDifferences());
      expect(unlisted.map((d) => `${d.change} ${d.pointer}`).sort()).toEqual([
        "added /components/schemas/CaptureContentSourceRequest/properties/sourceId",
        "changed /components/schemas/FlushMemoryRequest/properties/scope_id/maxLength",
        "removed /components/schemas/CaptureContentSourceRequest/properties/source_id",
        "removed /paths/~1v1~1sources~1content/post/responses/409",
      ]);
      expect(unlisted.find((d) => d.pointer.includes("responses/409"))?.subject).toBe(
        "operation capture_content_source",
      );
    });

    it("ignores prose and our extensions, and reads rows that cover a subtree", () => {
      const ours = structuredClone(loadOurs());
      const get = ((ours.paths as JsonObject)["/v1/scopes/{scope_id}"] as JsonObject).get as JsonObject;
      get.summary = "Something else entirely";
      get["x-powercontext-retry-class"] = "never";
      const before = diffWire(wireView(loadOurs()) as Json, wireView(loadRelease()) as Json).length;
      expect(diffWire(wireView(ours) as Json, wireView(loadRelease()) as Json).length).toBe(before);
      const rows = parseAllowedDifferences(
        `${"## Wire differences from the release"}\n\n| pointer | change | reason |\n| --- | --- | --- |\n| \`/paths/~1a\` | added | seed 002: a whole path |\n`,
      );
      const covered = judge(
        [{ pointer: "/paths/~1a/get/responses/200", change: "added", subject: "x", ours: "", release: "" }],
        rows,
      );
      expect(covered.unlisted).toEqual([]);
      const other = judge([{ pointer: "/paths/~1ab", change: "added", subject: "x", ours: "", release: "" }], rows);
      expect(other.unlisted.length).toBe(1);
    });
  },
);

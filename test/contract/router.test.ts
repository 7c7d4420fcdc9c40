// openapi.yaml's x-powercontext-router holds the release's routing facts: the order in
// which the application registers its routes (a 405's Allow names the method of the
// first route whose path matches) and the prefixes of the routes it matches against the
// path as sent. The mock's HTTP server routes by them (packages/msw/src/server/routing.ts).
import { describe, expect, it } from "vitest";
import { loadOurs, operationsOf, releaseAvailable, type JsonObject } from "./documents.js";
import { readReleaseRoutes } from "./release-router.js";

const run = releaseAvailable("router facts against the release");

describe.runIf(run)("x-powercontext-router against the installed release", () => {
  const ours = loadOurs();
  const router = ours["x-powercontext-router"] as JsonObject;
  // The describe body runs at collection even when the suite is skipped: read the release only when it is there.
  const routes = run ? readReleaseRoutes() : [];

  it("lists the release's operations in the order the release registers their routes", () => {
    const order = routes.map((r) => r.operationId).filter((id): id is string => id !== null);
    expect(order.length).toBeGreaterThan(120);
    expect(router.order).toEqual(order);
  });

  it("marks exactly the routes the release matches against the raw path", () => {
    const prefixes = router["raw-path-prefixes"] as string[];
    const byPrefix = operationsOf(ours)
      .filter(
        (op) =>
          prefixes.some((prefix) => op.path.startsWith(prefix)) && routes.some((r) => r.operationId === op.operationId),
      )
      .map((op) => op.operationId)
      .sort();
    const raw = routes
      .filter((r) => r.rawPath)
      .map((r) => r.operationId ?? r.path)
      .sort();
    expect(raw.length).toBeGreaterThan(30);
    expect(byPrefix).toEqual(raw);
  });

  it("has one method per operation route, and pages only at /openapi.json and /docs", () => {
    expect(routes.filter((r) => r.operationId !== null && r.methods.length !== 1)).toEqual([]);
    expect(routes.filter((r) => r.operationId === null).map((r) => [r.path, r.methods])).toEqual([
      ["/openapi.json", ["GET", "HEAD"]],
      ["/docs", ["GET"]],
    ]);
  });
});

// Answers read by the media type the contract declares for their status, against the
// released server: get_handoff_report declares JSON and Markdown for 200, and the release
// answers `format: "markdown"` with text/markdown. Both transports (the Node default,
// undici's dispatcher, and the fetch adapter) must give the Markdown as a string and the
// JSON report as the validated object.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PowerContextClient } from "@powercontext/sdk";
import { startRealServer, type RealServer } from "./server.js";
import { pythonTools, requireTools, suiteName } from "./tools.js";

const enabled = requireTools(suiteName(import.meta.url), pythonTools());

describe.runIf(enabled)("get_handoff_report against the released server", () => {
  let server: RealServer;
  beforeAll(async () => {
    server = await startRealServer();
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  const transports = [
    ["undici (Node default)", {}],
    ["fetch adapter", { fetch: (url: string, init: RequestInit) => fetch(url, init) }],
  ] as const;

  it.each(transports)(
    "on %s, resolves to the Markdown text for format markdown and to the report object for format json",
    async (_name, transport) => {
      const client = new PowerContextClient({
        baseUrl: server.baseUrl,
        token: server.token,
        maxRetries: 0,
        ...transport,
      });
      const markdown = await client.getHandoffReport({ selection: { mode: "all" }, format: "markdown" }).withResponse();
      expect(markdown.response.headers.get("content-type")).toMatch(/^text\/markdown/);
      expect(typeof markdown.data).toBe("string");
      expect(markdown.data as string).toMatch(/^#/m);

      const report = await client.getHandoffReport({ selection: { mode: "all" }, format: "json" });
      expect(typeof report).toBe("object");
      expect(report).not.toBeNull();
      expect(Object.keys(report as object).length).toBeGreaterThan(0);
    },
    60_000,
  );
});

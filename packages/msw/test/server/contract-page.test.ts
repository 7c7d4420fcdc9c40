import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startMockServer, type MockServer } from "../../src/server/start.js";

// GET /openapi.json, as the release serves its contract: with the token (401 without),
// as application/json. The mock serves openapi.yaml, the release's contract plus the
// documented seed additions.

const SPEC = fileURLToPath(new URL("../../../../openapi.yaml", import.meta.url));
const MSW_SRC = fileURLToPath(new URL("../../src/", import.meta.url));

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ seed: 1 });
});
afterAll(async () => {
  await server.close();
});

const admin = { Authorization: "Bearer pc-admin" };

describe("GET /openapi.json on the mock server", () => {
  it("answers 200 application/json with openapi.yaml, member for member", async () => {
    const response = await fetch(`${server.url}/openapi.json`, { headers: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("x-powercontext-request-id")).toMatch(/^req_/);
    const served = (await response.json()) as { paths: Record<string, unknown>; info: { version: string } };
    expect(served).toEqual(parse(readFileSync(SPEC, "utf8")));
    expect(served.info.version).toBe("1.4.1-ts.1");
    expect(Object.keys(served.paths)).toContain("/v1/operations/{operation_id}");
  });

  it("answers HEAD with 200 and no body, another method with 405 Allow: GET, HEAD", async () => {
    const head = await fetch(`${server.url}/openapi.json`, { method: "HEAD", headers: admin });
    expect([head.status, head.headers.get("content-type"), await head.text()]).toEqual([200, "application/json", ""]);
    const post = await fetch(`${server.url}/openapi.json`, { method: "POST", headers: admin });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    expect(await post.json()).toEqual({ detail: "Method Not Allowed" });
  });

  it("redirects /openapi.json/ and refuses a request without the token", async () => {
    const slash = await fetch(`${server.url}/openapi.json/`, { headers: admin, redirect: "manual" });
    expect([slash.status, slash.headers.get("location")]).toEqual([307, `${server.url}/openapi.json`]);
    const anonymous = await fetch(`${server.url}/openapi.json`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe("Bearer");
    expect(await anonymous.json()).toEqual({
      error: { code: "unauthorized", message: "A valid credential is required.", details: null },
    });
  });
});

describe("the served contract's size stays out of the handlers", () => {
  it("a browser bundle of the msw handlers and the simulator does not contain the document", async () => {
    const { build } = await import("esbuild");
    const bundle = async (entry: string) => {
      const result = await build({
        entryPoints: [`${MSW_SRC}${entry}`],
        bundle: true,
        format: "esm",
        platform: entry === "index.ts" ? "browser" : "node",
        packages: "external",
        write: false,
        metafile: true,
        splitting: true,
        outdir: "out",
        logLevel: "silent",
      });
      return result.metafile;
    };
    const handlers = await bundle("index.ts");
    expect(Object.keys(handlers.inputs).filter((input) => input.includes("openapi-document"))).toEqual([]);
    // The server has it, only behind the dynamic import: in a chunk of its own, not in the entry.
    const serverBuild = await bundle("server/index.ts");
    const entry = Object.values(serverBuild.outputs).find((output) => output.entryPoint !== undefined);
    expect(Object.keys(entry?.inputs ?? {}).filter((input) => input.includes("openapi-document"))).toEqual([]);
    expect(Object.keys(serverBuild.inputs).some((input) => input.includes("openapi-document"))).toBe(true);
  });
});

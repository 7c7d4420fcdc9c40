import { suiteName } from "../../../test/real/tools.js";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli.js";
import { OPERATION, minimalSpec, operationOf, runIn, snapshot, type Json } from "../helpers/minimal-spec.js";
import { scratchDir } from "../helpers/paths.js";
import { modelsTool, stderrBesidesModels } from "../helpers/python-models.js";

const models = modelsTool(suiteName(import.meta.url));

// A loopback server that records every request: the generator must send it none.
let server: Server;
let base = "";
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ type: "string", description: "fetched from the network" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests.length = 0;
});

const thing = (spec: Json): Json => spec.components.schemas.Thing as Json;

/** Writes the spec beside a secret file, runs the generator, and returns what happened. */
async function generate(edit: (spec: Json, secret: string) => void) {
  const dir = scratchDir("refs");
  const marker = `secret-${randomBytes(8).toString("hex")}`;
  const secret = path.join(dir, "secret.txt");
  writeFileSync(secret, `${marker}\n`);
  const spec = minimalSpec();
  edit(spec, secret);
  mkdirSync(path.join(dir, "spec"));
  writeFileSync(path.join(dir, "spec/openapi.yaml"), stringify(spec));
  const result = await runIn(path.join(dir, "spec"), ["--spec", "openapi.yaml", "--root", "out"]);
  const written = snapshot(path.join(dir, "spec/out"));
  return { ...result, marker, written, leaked: Object.values(written).some((text) => text.includes(marker)) };
}

describe("$ref policy: only references into the spec's own document", () => {
  it("refuses an example $ref to a local file, names its pointer, and writes nothing", async () => {
    const result = await generate((spec, secret) => {
      thing(spec).example = { $ref: "/etc/hostname" };
      thing(spec).properties.scope_id.examples = { nope: { $ref: secret } }; // not a 3.0 schema keyword, still a $ref a resolver follows
      operationOf(spec).requestBody.content["application/json"].examples = {
        local: { value: { $ref: "../secret.txt" } },
      };
    });
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toContain(
      'error: #/components/schemas/Thing/example/$ref: $ref "/etc/hostname" is not supported',
    );
    expect(result.stderr).toContain("error: #/components/schemas/Thing/properties/scope_id/examples/nope/$ref");
    expect(result.stderr).toContain(
      `error: #${OPERATION}/requestBody/content/application~1json/examples/local/value/$ref: $ref "../secret.txt"`,
    );
    expect(result.stderr).not.toContain(result.marker);
    expect(result.written).toEqual({});
    expect(result.leaked).toBe(false);
  });

  it("refuses an x-* $ref to a URL and sends no request", async () => {
    const result = await generate((spec) => {
      thing(spec)["x-note"] = { $ref: `${base}/x` };
      spec["x-top"] = [{ nested: { $ref: `${base}/y#/z` } }];
    });
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toContain(`error: #/components/schemas/Thing/x-note/$ref: $ref "${base}/x" is not supported`);
    expect(result.stderr).toContain("error: #/x-top/0/nested/$ref");
    expect(requests).toEqual([]);
    expect(result.written).toEqual({});
  });

  it("refuses a discriminator mapping to a URL or a file, and one to a schema that does not exist", async () => {
    const result = await generate((spec) => {
      spec.components.schemas.Cat = { type: "object", properties: { kind: { type: "string" } } };
      spec.components.schemas.Pet = {
        oneOf: [{ $ref: "#/components/schemas/Cat" }],
        discriminator: {
          propertyName: "kind",
          mapping: { cat: "Cat", dog: `${base}/dog`, fish: "./fish.yaml", bird: "Bird" },
        },
      };
      thing(spec).properties.pet = { $ref: "#/components/schemas/Pet" };
    });
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toContain(
      `error: #/components/schemas/Pet/discriminator/mapping/dog: $ref "${base}/dog" is not supported`,
    );
    expect(result.stderr).toContain("error: #/components/schemas/Pet/discriminator/mapping/fish");
    expect(result.stderr).toMatch(
      /error: #\/components\/schemas\/Pet\/discriminator\/mapping\/bird: .*does not resolve/,
    );
    expect(result.stderr).not.toContain("mapping/cat");
    expect(requests).toEqual([]);
  });

  it("refuses an example's externalValue, which a resolver would fetch", async () => {
    const result = await generate((spec) => {
      operationOf(spec).requestBody.content["application/json"].examples = {
        remote: { externalValue: `${base}/example.json` },
      };
    });
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toContain(
      `error: #${OPERATION}/requestBody/content/application~1json/examples/remote/externalValue: externalValue "${base}/example.json" is not supported`,
    );
    expect(requests).toEqual([]);
  });

  it("URLs that are not references (servers, docs, licence, security, xml) and internal $refs under examples generate without any request", async () => {
    const result = await generate((spec) => {
      spec.servers = [{ url: `${base}/server` }];
      spec.externalDocs = { url: `${base}/docs` };
      spec.info.termsOfService = `${base}/terms`;
      spec.info.license = { name: "x", url: `${base}/license` };
      spec.info.contact = { url: `${base}/contact` };
      spec.components.securitySchemes = {
        oidc: { type: "openIdConnect", openIdConnectUrl: `${base}/oidc` },
        oauth: {
          type: "oauth2",
          flows: { authorizationCode: { authorizationUrl: `${base}/auth`, tokenUrl: `${base}/token`, scopes: {} } },
        },
      };
      thing(spec).externalDocs = { url: `${base}/schema-docs` };
      thing(spec).xml = { namespace: `${base}/ns` };
      thing(spec).example = { $ref: "#/components/schemas/ErrorResponse" };
      operationOf(spec).responses["200"].links = {
        next: { operationRef: `${base}/op`, parameters: { id: "$response.body#/scope_id" } },
      };
    });
    expect(stderrBesidesModels(result.stderr, models)).toBe("");
    expect(result.code).toBe(EXIT.ok);
    expect(requests).toEqual([]);
    expect(Object.keys(result.written)).toContain("packages/types/generated/openapi.d.ts");
  });
});

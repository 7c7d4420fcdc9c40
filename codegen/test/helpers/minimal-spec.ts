import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { runCli } from "../../src/cli.js";

export type Json = Record<string, any>;

const header = { "X-PowerContext-Request-ID": { schema: { type: "string" } } };

/** Pointer of the one operation of {@link minimalSpec}. */
export const OPERATION = "/paths/~1v1~1things/post";

/** A minimal spec that passes the strict profile: one operation, a body and a response of `Thing`, an error envelope. */
export function minimalSpec(): Json {
  return {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      "/v1/things": {
        post: {
          operationId: "get_thing",
          "x-powercontext-retry-class": "safe",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
          },
          responses: {
            "200": {
              description: "ok",
              headers: header,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
            },
            "404": {
              description: "missing",
              headers: header,
              content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: { type: "object", properties: { scope_id: { type: "string" } } },
        ErrorResponse: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              properties: { code: { type: "string" }, message: { type: "string" }, details: { type: "object" } },
            },
          },
        },
      },
    },
  };
}

/** The operation object of a {@link minimalSpec}. */
export const operationOf = (spec: Json): Json => spec.paths["/v1/things"].post as Json;

/** Runs the CLI in-process with `cwd`, capturing its output. */
export async function runIn(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stderr = "";
  let stdout = "";
  const code = await runCli(args, { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** Every file under `dir` with its mtime and text, to prove nothing was touched (empty when `dir` is absent). */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = `${statSync(file).mtimeMs}:${readFileSync(file, "utf8")}`;
  }
  return out;
}

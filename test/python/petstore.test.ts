// --python-out on a spec that is not PowerContext's: the generator writes a pet store's
// Python layer (test/python/petstore/petstore.yaml: a oneOf with a discriminator, enums,
// nullable members, arrays, path, query and header parameters, default responses), a
// fresh virtual environment gets powercontext-ts and its two dependencies (and not the
// released powercontext), and petstore_client.py calls a loopback server through
// powercontext_runtime. Parameters the contract refuses never reach the server.
import { execFile } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codegenPython } from "../../codegen/src/targets/python/models-py.js";
import { checkAll, pythonTools, repoRoot, requireTools, suiteName, venvBin } from "../real/tools.js";

const run = promisify(execFile);
const codegenTool = {
  ok: codegenPython() !== null,
  missing: ".venv-codegen/bin/python (run: bash scripts/ci/python-codegen-env.sh)",
};
const enabled = requireTools(suiteName(import.meta.url), checkAll(pythonTools(), codegenTool));

interface Pet {
  id?: number;
  animal: { kind: string; name: string };
  tags?: string[];
}

/** The pet store over loopback: every request is recorded. */
function petStore(): { server: Server; seen: { method: string; url: string; tag: string | undefined }[] } {
  const pets: Pet[] = [];
  const seen: { method: string; url: string; tag: string | undefined }[] = [];
  const body = async (request: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  };
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      seen.push({
        method: request.method ?? "",
        url: `${url.pathname}${url.search}`,
        tag: request.headers["x-request-tag"] as string | undefined,
      });
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(value));
      };
      const error = (status: number, code: string) =>
        send(status, { error: { code, message: code.replace(/_/g, " "), details: null } });
      if (request.method === "POST" && url.pathname === "/pets") {
        const pet = (await body(request)) as Pet;
        if (pet.animal.name === "refuse me") return error(422, "invalid_pet");
        const stored = { ...pet, id: pets.length + 1 };
        pets.push(stored);
        return send(201, stored);
      }
      if (request.method === "GET" && url.pathname === "/pets") {
        const limit = Number(url.searchParams.get("limit") ?? "20");
        const start = Number(url.searchParams.get("cursor") ?? "0");
        const kind = url.searchParams.get("kind");
        const matching = pets.filter((p) => kind === null || p.animal.kind === kind);
        const page = matching.slice(start, start + limit);
        return send(200, { pets: page, next_cursor: start + limit < matching.length ? String(start + limit) : null });
      }
      const one = /^\/pets\/(\d+)$/.exec(url.pathname);
      if (request.method === "GET" && one) {
        const pet = pets.find((p) => p.id === Number(one[1]));
        return pet === undefined ? error(404, "pet_not_found") : send(200, pet);
      }
      return error(404, "no_route");
    })();
  });
  return { server, seen };
}

describe.skipIf(!enabled)("a generated pet store client from a fresh environment", () => {
  let root = "";
  let python = "";
  const store = petStore();

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "petstore-"));
    const spec = join(repoRoot, "test/python/petstore/petstore.yaml");
    const generator = [
      "tsx",
      "codegen/src/cli.ts",
      "--spec",
      spec,
      "--lint",
      "upstream",
      "--root",
      root,
      "--python-out",
      "gen/petstore_client/_generated",
      "--python-package",
      "petstore_client._generated",
      "--python-models",
      "require",
      "--quiet",
    ];
    await run("npx", generator, { cwd: repoRoot, timeout: 180_000 });
    await run(venvBin("python"), [
      "-c",
      "import pathlib, sys; pathlib.Path(sys.argv[1]).touch()",
      join(root, "gen/petstore_client/__init__.py"),
    ]);
    const made = await run(
      venvBin("python"),
      [join(repoRoot, "test/python/petstore/fresh_venv.py"), join(root, "venv")],
      { cwd: repoRoot, timeout: 300_000 },
    );
    python = made.stdout.trim().split("\n").at(-1) ?? "";
    await new Promise<void>((resolve) => store.server.listen(0, "127.0.0.1", resolve));
  }, 480_000);

  afterAll(async () => {
    await new Promise((resolve) => store.server.close(resolve));
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("creates, lists, pages and reads pets, and refuses what the contract refuses before sending", async () => {
    const url = `http://127.0.0.1:${(store.server.address() as AddressInfo).port}`;
    const { stdout } = await run(
      python,
      [
        "-I",
        "-c",
        `import sys; sys.path.insert(0, ${JSON.stringify(join(root, "gen"))}); sys.argv = ["petstore_client.py", ${JSON.stringify(url)}]; exec(open(${JSON.stringify(join(repoRoot, "test/python/petstore/petstore_client.py"))}).read())`,
      ],
      { timeout: 120_000 },
    );
    const results = JSON.parse(stdout) as Record<string, any>;
    expect(results.powercontext_installed).toBe(false);
    expect(results.constants).toEqual(["CREATE_PET", "LIST_PETS", "SHOW_PET_BY_ID"]);
    expect(results.created).toEqual({
      type: "Pet",
      animal: "Cat",
      dump: { id: 1, animal: { kind: "cat", name: "Tom", indoor: true }, owner: null },
    });
    expect(results.page).toEqual({ type: "PetPage", animals: ["Dog"], next_cursor: null });
    expect(results.paginate).toEqual(["Tom", "Rex"]);
    expect(results.shown).toBe(true);
    for (const refused of ["limit_too_high", "limit_not_an_int", "unknown_kind", "bad_pet", "tag_too_long"])
      expect(results[refused], refused).toEqual({ error: "InvalidRequestError" });
    expect(results.missing_pet).toEqual({
      error: "NotFoundError",
      status: 404,
      code: "pet_not_found",
      message: "pet not found",
    });
    expect(results.server_refusal).toEqual({
      error: "UnprocessableEntityError",
      status: 422,
      code: "invalid_pet",
      message: "invalid pet",
    });
    const sent = store.seen.map((r) => `${r.method} ${r.url}`);
    expect(sent).toContain("GET /pets?limit=5&kind=dog&tags=loud&tags=big");
    expect(sent.some((r) => r.includes("limit=500") || r.includes("bird") || r.includes("fish"))).toBe(false);
    expect(store.seen.find((r) => r.method === "POST")?.tag).toBe("t1");
    expect(sent.filter((r) => r.startsWith("POST"))).toHaveLength(3);
  }, 120_000);
});

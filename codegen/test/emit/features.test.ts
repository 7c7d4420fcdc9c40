import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { generate, type Generated } from "../../src/index.js";
import { fixturesDir } from "../helpers/paths.js";
import { typecheck } from "../helpers/typecheck.js";

/**
 * Type-level assertions about the emitted types: each line must compile, each
 * `@ts-expect-error` line must fail. An unused `@ts-expect-error` is itself an error.
 */
const ASSERTIONS = `
import type { Account, AccountWritable, components } from "@powercontext/types";
import type { RequestOf, ResponseOf, AcceptedOf, PageTypes, OperationId } from "./generated/operations.js";
import { operations } from "./generated/operations.js";
import type { PowerContextOperations } from "./generated/methods.js";

type S = components["schemas"];

// readOnly/writeOnly: the request omits id, the response omits password.
export const newAccount: RequestOf<"create_account"> = { name: "a", password: "p" };
// @ts-expect-error readOnly id cannot be sent
export const withId: RequestOf<"create_account"> = { id: "x", name: "a", password: "p" };
export const account: ResponseOf<"create_account"> = { id: "x", name: "a" };
// @ts-expect-error the response always has the readOnly id
export const noId: ResponseOf<"create_account"> = { name: "a" };

// Defaults keep a field optional in requests.
export const settings: RequestOf<"flush_work"> = { scope_id: "s" };
// @ts-expect-error scope_id has no default and is required
export const noScope: RequestOf<"flush_work"> = { mode: "fast" };
// @ts-expect-error enum values are literal
export const badMode: S["Settings"] = { scope_id: "s", mode: "medium" };
export const accepted: AcceptedOf<"flush_work"> = { job_id: "j", status: "queued", version: 1, result: null };

// Non-identifier and non-ASCII enum values.
export const labels: S["Label"][] = ["a-b", "with space", "2x", "Größe", "中文", "*/"];
// @ts-expect-error not a label
export const badLabel: S["Label"] = "a_b";

// oneOf + discriminator narrows on the property.
export function legs(pet: S["Pet"]): number {
  if (pet.pet_type === "cat") return pet.meows ? 4 : 3;
  return pet.barks;
}
// @ts-expect-error a cat does not bark
export const catBarks: S["Pet"] = { pet_type: "cat", barks: 1 };

// Recursive schemas, nullable (plain, object, beside $ref), additionalProperties.
export const everything: S["Everything"] = {
  tree: { name: "root", children: [{ name: "leaf", children: [] }] },
  closed: { a: "x" },
  open: { a: "x", anything: [1, 2] },
  typed: { a: 1, other: 2 },
  nullable_string: null,
  nullable_object: null,
  nullable_ref: null,
  big: { counter: 9007199254740991 },
};
// @ts-expect-error closed objects take no extra properties
export const closed: S["Everything"]["closed"] = { a: "x", b: "y" };
// @ts-expect-error typed additional properties are numbers
export const typed: S["Everything"]["typed"] = { other: "no" };
// @ts-expect-error not nullable
export const notNull: S["Everything"]["tree"] = null;
export const counter: S["Everything"]["big"]["counter"] = 1;

// Query parameters with defaults stay optional; path parameters are required.
export const listAll: RequestOf<"list_things"> = {};
export const pageItem: PageTypes["list_things"]["item"] = "Größe";
export const cancel: RequestOf<"cancel_job"> = { job_id: "j", expected_version: 2 };
// @ts-expect-error the path parameter is required
export const cancelNoId: RequestOf<"cancel_job"> = { expected_version: 2 };
export const pingRequest: RequestOf<"ping"> = undefined;
export const pingResponse: ResponseOf<"ping"> = undefined;

// The table is keyed by every operationId and carries the extensions.
export const ids: OperationId[] = ["cancel_job", "create_account", "echo_node", "flush_work", "get_job", "get_pet", "list_things", "ping"];
export const poll: string = operations.flush_work.async?.pollOperation ?? "";

// Methods exist with the right shapes.
export async function use(client: PowerContextOperations): Promise<void> {
  const job = await client.cancelJob({ job_id: "j", expected_version: 1 });
  job.status satisfies "queued" | "running" | "cancelled";
  const outcome = await client.submitFlushWork({ scope_id: "s" });
  if (outcome.state === "accepted") outcome.operation.job_id satisfies string;
  else outcome.result.flushed satisfies number;
  for await (const label of client.listThingsAll()) label satisfies S["Label"];
  await client.ping();
  // @ts-expect-error ping takes no request, only options
  await client.ping({ scope_id: "s" }, {});
}

// A schema with readOnly or writeOnly members has a type per side, each named after it.
export const readSide: Account = { id: "x", name: "a" };
// @ts-expect-error the response side has no writeOnly password
export const readPassword: Account = { id: "x", name: "a", password: "p" };
export const writeSide: AccountWritable = { name: "a", password: "p" };
// @ts-expect-error the request side has no readOnly id
export const writeId: AccountWritable = { id: "x", name: "a", password: "p" };
`;

const HANDLER_ASSERTIONS = `
import { createHandlers, type HandlerImpl } from "./generated/handlers.js";
const impl: HandlerImpl = {
  cancel_job: ({ params, body }) => ({ status: 200, body: { job_id: params.job_id, status: "cancelled", version: (body?.expected_version ?? 0) + 1 } }),
  create_account: () => ({ status: 409, body: { error: { code: "conflict", message: "taken", details: {} } } }),
  echo_node: ({ body }) => ({ status: 200, body: body! }),
  flush_work: async () => ({ status: 202, body: { job_id: "j", status: "queued", version: 1 } }),
  get_job: ({ params }) => ({ status: 200, body: { job_id: params.job_id, status: "running", version: 1 } }),
  get_pet: () => ({ status: 200, body: { pet_type: "dog", barks: 2 } }),
  list_things: () => ({ status: 200, body: { things: ["2x"], next_cursor: null } }),
  ping: () => ({ status: 204 }),
};
export const handlers = createHandlers(impl, { baseUrl: "http://127.0.0.1:1" });
export const wrong: HandlerImpl = {
  ...impl,
  // @ts-expect-error a 404 is not declared for get_job
  get_job: () => ({ status: 404, body: { error: { code: "x", message: "y", details: {} } } }),
};
export const wrongBody: HandlerImpl = {
  ...impl,
  // @ts-expect-error the 409 body must be the error envelope
  create_account: () => ({ status: 409, body: { id: "x", name: "n" } }),
};
`;

describe("feature fixture", () => {
  let generated: Generated;
  let root: string;
  let errors: string[];

  beforeAll(async () => {
    generated = await generate(path.join(fixturesDir, "features.yaml"));
    ({ root, errors } = typecheck(generated.files, {
      "packages/sdk/src/assertions.ts": ASSERTIONS,
      "packages/msw/src/assertions.ts": HANDLER_ASSERTIONS,
    }));
  });

  it("emits types that mean what the schemas say (strict tsc, with expected errors)", () => {
    expect(errors).toEqual([]);
  });

  it("keeps comment terminators and non-ASCII text from breaking comments", () => {
    const types = generated.files.get("packages/types/generated/openapi.d.ts") as string;
    expect(types).toContain("中文");
    const methods = generated.files.get("packages/sdk/src/generated/methods.ts") as string;
    expect(methods).toContain("Create an account *\\/ with a comment terminator");
    expect(methods).toContain("账户");
  });

  it("compiles validators that accept and reject like the schemas", async () => {
    const url = pathToFileURL(path.join(root, "packages/sdk/src/generated/validators.js")).href;
    const validators = (await import(url)) as Record<string, (value: unknown) => boolean>;
    const check = (name: string, value: unknown) => {
      const validate = validators[name];
      if (validate === undefined) throw new Error(`no validator ${name}`);
      return validate(value);
    };
    const table: [string, unknown, boolean][] = [
      ["response_Pet", { pet_type: "cat", meows: true }, true],
      ["response_Pet", { pet_type: "dog", barks: 3 }, true],
      ["response_Pet", { pet_type: "dog", meows: true }, false],
      ["response_Pet", { pet_type: "cow" }, false],
      ["response_Account", { id: "1", name: "n" }, true],
      ["request_Account", { name: "n", password: "p" }, true],
      ["request_Account", { name: "n" }, false],
      // readOnly: the server's member; a request holding it is refused, so it never leaves.
      ["request_Account", { id: "1", name: "n", password: "p" }, false],
      ["response_Account", { name: "n" }, false],
      ["response_Job", { job_id: "j", status: "queued", version: 1, result: null }, true],
      ["response_Job", { job_id: "j", status: "queued", version: 1, result: { flushed: 2 } }, true],
      ["response_Job", { job_id: "j", status: "queued", version: 9007199254740992 }, false],
      ["response_Job", { job_id: "j", status: "done", version: 1 }, false],
      ["response_ThingPage", { things: ["Größe", "*/"], next_cursor: null }, true],
      ["response_ThingPage", { things: ["nope"], next_cursor: "c" }, false],
    ];
    const everything = {
      tree: { name: "r", children: [{ name: "c", children: [] }] },
      closed: { a: "x" },
      open: { a: "x", z: 1 },
      typed: { a: 1, b: 2 },
      nullable_object: null,
      nullable_ref: null,
      big: { counter: 1, unsigned: 9007199254740991 },
    };
    table.push(
      ["response_Everything", everything, true],
      ["response_Everything", { ...everything, closed: { a: "x", b: "y" } }, false],
      ["response_Everything", { ...everything, typed: { b: "no" } }, false],
      [
        "response_Everything",
        { ...everything, nullable_string: null, nullable_object: { x: 1 }, nullable_ref: { name: "n", children: [] } },
        true,
      ],
      ["response_Everything", { ...everything, tree: { name: "r", children: [{ name: 1, children: [] }] } }, false],
      ["response_Everything", { ...everything, big: { counter: 2 ** 53 } }, false],
      ["response_Everything", { ...everything, big: { counter: 1, unsigned: 18446744073709551615 } }, false],
      ["response_Everything", { ...everything, tree: null }, false],
    );
    expect(table.map(([name, value]) => check(name, value))).toEqual(table.map(([, , want]) => want));
    const account = validators.request_Account as ((value: unknown) => boolean) & {
      errors: { instancePath: string; keyword: string }[] | null;
    };
    expect(account({ id: "1", name: "n", password: "p" })).toBe(false);
    expect(account.errors?.[0]).toMatchObject({ instancePath: "/id", keyword: "false schema" });
  });

  it("maps operations to request and success/accepted validators", async () => {
    const map = generated.files.get("packages/sdk/src/generated/validator-map.ts") as string;
    expect(map).toContain(
      "export const flushWorkValidators: OperationValidators = { request: validators.request_Settings, responses: { 200: validators.response_FlushResult, 202: validators.response_Job } };",
    );
    expect(map).toContain("validatorsByOperation(operations, [\n");
    expect(map).toContain("  flushWorkValidators,\n");
    expect(map).toContain("export const pingValidators: OperationValidators = { responses: {  } };");
    expect(generated.files.get("packages/sdk/src/generated/validators.js")).not.toMatch(/require\(/);
  });
});

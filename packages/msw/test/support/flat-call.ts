import { simOperations, type SimOperationId } from "../../src/simulator/contract/operation-table.js";
import type { PowerContextSimulator } from "../../src/simulator/simulator.js";
import type { SimRequest } from "../../src/simulator/types.js";
import { response } from "./world.js";

/** What a test reads of one answer. */
export interface Reply {
  readonly status: number;
  readonly body: any;
  readonly headers: Readonly<Record<string, string>>;
  /** `error.code` of an envelope, else undefined. */
  readonly code: string | undefined;
}

/**
 * Sends one request written as the SDK writes it (one flat object of wire
 * names: path, query and header parameters plus body members), split into
 * its parts by the operation's contract, as `pc-admin` unless `token` says
 * otherwise.
 */
export function call(
  sim: PowerContextSimulator,
  operationId: SimOperationId,
  flat: Record<string, unknown> = {},
  token: string | null = "pc-admin",
): Reply {
  const op = simOperations[operationId];
  const rest: Record<string, unknown> = { ...flat };
  const take = (names: readonly { name: string }[]) => {
    const out: Record<string, string> = {};
    for (const { name } of names) {
      if (rest[name] === undefined) continue;
      out[name] = String(rest[name]);
      delete rest[name];
    }
    return out;
  };
  const request: SimRequest = {
    token,
    params: take(op.parameters.path),
    query: take(op.parameters.query),
    headers: take(op.parameters.header),
    ...(op.body === null ? {} : { body: rest }),
  };
  const answer = response(sim.handle(operationId, request));
  const code = (answer.body as { error?: { code?: string } } | null)?.error?.code;
  return { status: answer.status, body: answer.body, headers: answer.headers, code };
}

import type { SimOperation } from "../contract/operation-table.js";
import { headerValue } from "../contract/request-check.js";
import { copyJson, deletePath, getPath, setPath, type JsonRecord } from "../members.js";
import { SeededRandom } from "../random.js";
import type { HandlerResult, SimRequest } from "../types.js";

/**
 * The members of a success answer that are facts of the contract
 * (`x-powercontext-answer`): each set at its path in the JSON body, over what
 * the handler, the resource engine or the responder answered (an `omit`
 * member taken out unless the request carries its header). A value read
 * from the contract is answered as the generator read it; an `instance` id is
 * drawn once per simulator from its seed, so it stays the same for the
 * server's life, as the release keeps its id in its database.
 */
export class AnswerFacts {
  readonly #instance = new Map<string, string>();
  readonly #random: SeededRandom;

  /** @param seed the simulator's seed */
  constructor(seed: number) {
    this.#random = SeededRandom.stream(seed, "instance");
  }

  /** `result` with the operation's answered members set; unchanged when it declares none or its body is not a JSON object. */
  apply(op: SimOperation, request: SimRequest, result: HandlerResult): HandlerResult {
    const body = result.body;
    if (op.answer.length === 0 || result.status < 200 || result.status >= 300) return result;
    if (body === null || typeof body !== "object" || Array.isArray(body) || body instanceof Uint8Array) return result;
    const answered = copyJson(body) as JsonRecord;
    for (const { member, value, instance, omit } of op.answer) {
      const kept = omit?.unlessHeader ?? null;
      const drop = omit !== null && (kept === null || headerValue(request.headers, kept.name) !== kept.value);
      for (const [target, path] of places(answered, member)) {
        if (drop) deletePath(target, path);
        else if (omit === null) setPath(target, path, instance === null ? copyJson(value) : this.#drawn(instance));
      }
    }
    return { ...result, body: answered };
  }

  /** The server's one id of `kind`, drawn the first time it is asked for. */
  #drawn(kind: "uuid"): string {
    let id = this.#instance.get(kind);
    if (id === undefined) {
      id = uuid(this.#random);
      this.#instance.set(kind, id);
    }
    return id;
  }
}

/**
 * The objects a member path names and the rest of the path within each: a
 * step ending in `[]` stands for every item of that list (`by_scope[].recall`).
 */
function places(body: JsonRecord, member: string): [JsonRecord, string][] {
  const at = member.indexOf("[]");
  if (at < 0) return [[body, member]];
  const list = getPath(body, member.slice(0, at));
  const rest = member.slice(at + 3);
  if (!Array.isArray(list)) return [];
  return list
    .filter((item): item is JsonRecord => item !== null && typeof item === "object" && !Array.isArray(item))
    .flatMap((item) => places(item, rest));
}

/** A version 4 UUID from `random`. */
function uuid(random: SeededRandom): string {
  const hex = Array.from({ length: 32 }, () => random.int(16).toString(16));
  hex[12] = "4";
  hex[16] = (8 + random.int(4)).toString(16);
  const text = hex.join("");
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import type { Json } from "../domain/types.js";
import { documentOrder } from "./document-order.js";
import type { AnswerMemberIr, OperationIr } from "./model.js";

/** Our operation extension: members of the success answer that are facts of the contract (docs/extensions.md, `answer`). */
export const ANSWER_EXTENSION = "x-powercontext-answer";

const FEATURES = "x-powercontext-feature-contracts";

/**
 * Reads `x-powercontext-answer` of every operation (the loader checked its
 * shape) into the values it names: a `value` as written, a `document` pointer's
 * value read `as` it says, an `instance` id kept as its kind for the server to
 * draw. Each member is a member of the operation's success body schema's top
 * level or below it, named by path; a pointer must name a value of the contract
 * and `major-minor` a version string.
 *
 * @returns the members by operationId (operations without the extension left out)
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every broken source
 */
export function readAnswers(
  document: Json,
  operations: readonly OperationIr[],
): ReadonlyMap<string, readonly AnswerMemberIr[]> {
  const out = new Map<string, readonly AnswerMemberIr[]>();
  const issues: SpecError[] = [];
  for (const op of operations) {
    const raw = op.operationObject[ANSWER_EXTENSION];
    if (raw === undefined) continue;
    const base = `${op.pointer}/${ANSWER_EXTENSION}`;
    const members: AnswerMemberIr[] = [];
    for (const [member, source] of Object.entries(raw as Json)) {
      const at = `${base}/${pointerSegment(member)}`;
      try {
        members.push(answerMember(member, source as Json, document, operations, at));
      } catch (error) {
        if (!(error instanceof SpecError)) throw error;
        issues.push(error);
      }
    }
    out.set(op.operationId, members);
  }
  if (issues.length > 0) throw new SpecErrorList(issues);
  return out;
}

function answerMember(
  member: string,
  source: Json,
  document: Json,
  operations: readonly OperationIr[],
  at: string,
): AnswerMemberIr {
  const plain = { instance: null, omit: null };
  if ("value" in source) return { member, value: source.value, ...plain };
  if (typeof source.instance === "string")
    return { member, value: null, instance: source.instance as "uuid", omit: null };
  if (typeof source.omit === "object" && source.omit !== null) {
    const [header] = Object.entries(((source.omit as Json).unless_header ?? {}) as Record<string, string>);
    return {
      member,
      value: null,
      instance: null,
      omit: { unlessHeader: header === undefined ? null : { name: header[0], value: header[1] } },
    };
  }
  const pointer = String(source.document);
  const found = atPointer(document, pointer);
  if (found === undefined)
    throw new SpecError("invalid_extension", { pointer: `${at}/document` }, `${pointer} names nothing in the contract`);
  if (source.as === "major-minor") {
    const match = typeof found === "string" ? /^(\d+)\.(\d+)/.exec(found) : null;
    if (match === null)
      throw new SpecError("invalid_extension", { pointer: `${at}/as` }, `${pointer} is not a version string`);
    return { member, value: { major: Number(match[1]), minor: Number(match[2]) }, ...plain };
  }
  if (source.as === "feature-contracts") return { member, value: featureContracts(document, operations), ...plain };
  return { member, value: found, ...plain };
}

/**
 * Each contract of the document's `x-powercontext-feature-contracts` with its
 * version and the operations, in document order, whose own
 * `x-powercontext-feature-contracts` names it.
 */
export function featureContracts(document: Json, operations: readonly OperationIr[]): Json {
  const declared = (document[FEATURES] ?? {}) as Json;
  const ordered = documentOrder({ document, operations });
  const result: Json = {};
  for (const [name, version] of Object.entries(declared)) {
    result[name] = {
      version,
      operations: ordered
        .filter((op) => {
          const named = op.operationObject[FEATURES];
          return Array.isArray(named) && named.map(String).includes(name);
        })
        .map((op) => op.operationId),
    };
  }
  return result;
}

/** The value at a JSON pointer of `document`, or undefined. */
function atPointer(document: Json, pointer: string): unknown {
  let current: unknown = document;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

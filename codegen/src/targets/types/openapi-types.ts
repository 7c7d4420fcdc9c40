import type { ApiIr, OperationIr, ParameterIr, ResponseIr } from "../../ir/model.js";
import { typeName, UniqueNames } from "../../ir/naming.js";
import { banner } from "../../emit/banner.js";
import { indexed, namedType, NEVER, object, ref, UNKNOWN, type TsMember } from "../../emit/ts/builder.js";
import { docComment } from "../../emit/ts/syntax.js";
import { SchemaTypes, schemaDoc } from "./schema-type.js";

/** The names the module itself exports, which no schema type may take. */
const MODULE_NAMES = ["paths", "components", "operations", "webhooks", "$defs"];

/** The type names of the component schemas: the read (response) side, and the write (request) side where it differs. */
export interface SchemaTypeNames {
  readonly read: ReadonlyMap<string, string>;
  readonly write: ReadonlyMap<string, string>;
}

/**
 * The type name of every component schema: the schema name's {@link typeName}
 * (the name itself unless it is a TypeScript keyword), made unique. A
 * schema that reaches a `readOnly` or `writeOnly` member has two types: `Name`
 * for responses (no `writeOnly` members) and `NameWritable` for requests (no
 * `readOnly` members).
 */
export function schemaTypeNames(ir: ApiIr): SchemaTypeNames {
  const taken = new UniqueNames(MODULE_NAMES);
  const sided = ir.readWriteMarkers ? sidedSchemas(ir) : new Set<string>();
  const read = new Map<string, string>();
  const write = new Map<string, string>();
  for (const { name } of ir.schemas) {
    const readName = taken.claim(typeName(name));
    read.set(name, readName);
    write.set(name, sided.has(name) ? taken.claim(`${readName}Writable`) : readName);
  }
  return { read, write };
}

/** The schemas whose request and response shapes differ: those that reach a `readOnly` or `writeOnly` member through references. */
function sidedSchemas(ir: ApiIr): Set<string> {
  const refs = new Map<string, string[]>();
  const sided = new Set<string>();
  for (const { name, schema } of ir.schemas) {
    const text = JSON.stringify(schema);
    if (/"(readOnly|writeOnly)":true/.test(text)) sided.add(name);
    refs.set(
      name,
      [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"/]+)"/g)].map((m) => decodeURIComponent(m[1] as string)),
    );
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, targets] of refs) {
      if (!sided.has(name) && targets.some((t) => sided.has(t))) {
        sided.add(name);
        changed = true;
      }
    }
  }
  return sided;
}

/**
 * Emits `openapi.d.ts` from the IR: one named type per component schema (two
 * where the request and response shapes differ) with its TSDoc, then
 * `components` (the schemas by their spec names), `operations` (per
 * operationId: parameters by location, the request body, and each response's
 * headers and content by media type) and `paths`, in the layout openapi-typescript
 * uses, so code written against that layout keeps compiling. Type-only.
 */
export function emitTypes(ir: ApiIr): string {
  const names = schemaTypeNames(ir);
  const types = new SchemaTypes(
    ir.lookup,
    (name, side) => (side === "read" ? names.read : names.write).get(name) ?? "unknown",
  );
  let out = banner(ir);
  for (const { name, schema } of ir.schemas) {
    out += `${namedType(names.read.get(name) as string, types.type(schema, "read"), schemaDoc(schema))}\n`;
    const writable = names.write.get(name) as string;
    if (writable !== names.read.get(name))
      out += `${namedType(writable, types.type(schema, "write"), [`\`${name}\` as a request sends it: without its readOnly members.`])}\n`;
  }
  const schemaMembers: TsMember[] = ir.schemas.map(({ name }) => ({ name, type: ref(names.read.get(name) as string) }));
  out += `${docComment(["The spec's reusable parts: each component schema by its name in the spec (the response side)."])}export interface components ${object([{ name: "schemas", type: object(schemaMembers, null) }], null).print("")}\n\n`;
  out += `${docComment(["Per operationId: its parameters by location, its request body and each declared response's headers and content."])}export interface operations ${object(
    ir.operations.map((op) => operationMember(op, types)),
    null,
  ).print("")}\n\n`;
  out += `${docComment(["Per path: the operation of each method it declares."])}export interface paths ${object(pathMembers(ir), null).print("")}\n`;
  return out;
}

function operationMember(op: OperationIr, types: SchemaTypes): TsMember {
  const groups: TsMember[] = (["query", "header", "path", "cookie"] as const).map((location) =>
    parameterGroup(op.parameters[location], location, types),
  );
  const members: TsMember[] = [{ name: "parameters", type: object(groups, null) }];
  const body = op.requestBody;
  if (body === null) members.push({ name: "requestBody", type: NEVER, optional: true });
  else {
    const content = object([{ name: body.mediaType, type: types.type(body.schema, "write") }], null);
    members.push({
      name: "requestBody",
      type: object([{ name: "content", type: content }], null),
      optional: !body.required,
    });
  }
  members.push({
    name: "responses",
    type: object(
      op.responses.map((r) => responseMember(r, types)),
      null,
    ),
  });
  const doc = [
    op.summary,
    ...(op.description !== "" ? ["", op.description] : []),
    ...(op.deprecated ? ["@deprecated"] : []),
  ].filter((line, i) => i > 0 || line !== "");
  return { name: op.operationId, type: object(members, null), ...(doc.length > 0 ? { doc } : {}) };
}

function parameterGroup(parameters: readonly ParameterIr[], location: string, types: SchemaTypes): TsMember {
  if (parameters.length === 0) return { name: location, type: NEVER, optional: true };
  const members = parameters.map(
    (p): TsMember => ({
      name: p.name,
      type: types.type(p.schema, "write"),
      optional: !p.required,
      ...(p.description !== null ? { doc: [p.description] } : {}),
    }),
  );
  return { name: location, type: object(members, null), optional: !parameters.some((p) => p.required) };
}

function responseMember(response: ResponseIr, types: SchemaTypes): TsMember {
  const headers: TsMember[] = response.headers.map((h) => ({
    name: h.name,
    type: h.schema === null ? UNKNOWN : types.type(h.schema, "read"),
    optional: !h.required,
  }));
  const members: TsMember[] = [{ name: "headers", type: object(headers, UNKNOWN) }];
  if (response.media.length === 0) members.push({ name: "content", type: NEVER, optional: true });
  else
    members.push({
      name: "content",
      type: object(
        response.media.map((m) => ({
          name: m.mediaType,
          type: m.schema === null ? UNKNOWN : types.type(m.schema, "read"),
        })),
        null,
      ),
    });
  return {
    name: String(response.status),
    type: object(members, null),
    ...(response.description !== "" ? { doc: [response.description] } : {}),
  };
}

function pathMembers(ir: ApiIr): TsMember[] {
  const byPath = new Map<string, OperationIr[]>();
  for (const op of ir.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const operations = ref("operations");
  return [...byPath].map(([path, ops]) => ({
    name: path,
    type: object(
      ops.map((op) => ({
        name: op.method.toLowerCase(),
        type: indexed(operations, op.operationId),
        ...(op.summary !== "" ? { doc: [op.summary] } : {}),
      })),
      null,
    ),
  }));
}

import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import type { Json } from "../domain/types.js";
import type { AccessFactsIr, ErrorCodeIr, ResourceIr } from "./model.js";

/** The document extensions of the access model (docs/architecture.md, "Access"). */
export const ACCESS_POLICY_EXTENSION = "x-powercontext-access-policy";
export const ACCESS_RESOLVERS_EXTENSION = "x-powercontext-access-resolvers";
/** The operation extensions of the access model. */
export const ACCESS_AFTER_EXTENSION = "x-powercontext-access-after";
export const ACCESS_OWNER_EXTENSION = "x-powercontext-access-owner";

/** One operation as the reader needs it. */
export interface AccessOperation {
  readonly operationId: string;
  readonly pointer: string;
  readonly operation: Json;
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads the access facts: `x-powercontext-access-policy` and `-resolvers` of the
 * document, `-after` and `-owner` of its operations, whose shapes the loader checked
 * (codegen/schema/extensions.schema.json, `access-*`), then the cross-references no
 * schema states: every action a role, family,
 * resolver or check names is an action of the policy; roles, families and resources
 * named exist; every resolver an operation's `x-powercontext-access` names is defined;
 * the refusals' codes are registry codes with their status. Null when the document has
 * neither document extension (and no operation uses the operation ones).
 *
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every problem
 */
export function readAccessFacts(
  document: Json,
  operations: readonly AccessOperation[],
  resources: readonly ResourceIr[],
  registry: readonly ErrorCodeIr[],
): AccessFactsIr | null {
  const policy = document[ACCESS_POLICY_EXTENSION] as unknown;
  const resolvers = document[ACCESS_RESOLVERS_EXTENSION] as unknown;
  const issues: SpecError[] = [];
  const after: Record<string, readonly Json[]> = {};
  const owners: Record<string, Json> = {};
  for (const op of operations) {
    const entries = op.operation[ACCESS_AFTER_EXTENSION] as unknown;
    if (entries !== undefined) after[op.operationId] = entries as Json[];
    const owner = op.operation[ACCESS_OWNER_EXTENSION] as unknown;
    if (owner !== undefined) owners[op.operationId] = owner as Json;
  }
  if (policy === undefined && resolvers === undefined) {
    for (const id of [...Object.keys(after), ...Object.keys(owners)]) {
      const op = operations.find((o) => o.operationId === id) as AccessOperation;
      issues.push(
        new SpecError("invalid_extension", { pointer: op.pointer }, `needs ${ACCESS_POLICY_EXTENSION} on the document`),
      );
    }
    if (issues.length > 0) throw new SpecErrorList(issues);
    return null;
  }
  const facts: AccessFactsIr = { policy: policy as Json, resolvers: (resolvers ?? {}) as Json, after, owners };
  checkReferences(facts, operations, resources, registry, issues);
  if (issues.length > 0) throw new SpecErrorList(issues);
  return facts;
}

/** The cross-references of validated facts (see {@link readAccessFacts}). */
function checkReferences(
  facts: AccessFactsIr,
  operations: readonly AccessOperation[],
  resources: readonly ResourceIr[],
  registry: readonly ErrorCodeIr[],
  issues: SpecError[],
): void {
  const P = `/${ACCESS_POLICY_EXTENSION}`;
  const bad = (pointer: string, detail: string) => issues.push(new SpecError("invalid_extension", { pointer }, detail));
  const policy = facts.policy as {
    self_action: string;
    actions: { server: string[]; scope: string[] };
    roles: Record<string, { on: string; actions: string[]; children: string[] }>;
    owner_role: string;
    families: Record<string, { actions: string[]; mutations: string[]; grantable: string[] }>;
    share_action: string;
    artifact_resource: string;
    owned: string[];
    discovery: Record<string, string>;
    static_principal?: { server_roles: string[]; scope_preset: string[] };
    refusals: Record<string, { status: number; code: string }>;
  };
  const actions = new Set([
    ...policy.actions.server,
    ...policy.actions.scope,
    ...Object.values(policy.families).flatMap((f) => [...f.actions, ...f.mutations]),
    policy.share_action,
  ]);
  const action = (pointer: string, name: string) => {
    if (!actions.has(name)) bad(pointer, `${JSON.stringify(name)} is no action of the policy`);
  };
  const roleOn = (pointer: string, name: string, on: string) => {
    const role = policy.roles[name];
    if (role === undefined) bad(pointer, `${JSON.stringify(name)} is no role of the policy`);
    else if (role.on !== on) bad(pointer, `${name} is a role on ${role.on}, not on ${on}`);
  };
  const resource = (pointer: string, name: string) => {
    if (!resources.some((r) => r.name === name))
      bad(pointer, `${JSON.stringify(name)} is no resource of x-powercontext-resources`);
  };
  action(`${P}/self_action`, policy.self_action);
  for (const [name, role] of Object.entries(policy.roles)) {
    const at = `${P}/roles/${pointerSegment(name)}`;
    for (const [i, a] of role.actions.entries()) action(`${at}/actions/${i}`, a);
    for (const [i, a] of role.children.entries()) action(`${at}/children/${i}`, a);
  }
  roleOn(`${P}/owner_role`, policy.owner_role, "artifact");
  for (const [name, family] of Object.entries(policy.families)) {
    for (const [i, role] of family.grantable.entries())
      roleOn(`${P}/families/${pointerSegment(name)}/grantable/${i}`, role, "artifact");
  }
  for (const name of Object.keys(policy.discovery))
    if (!Object.hasOwn(policy.families, name))
      bad(`${P}/discovery/${pointerSegment(name)}`, `${JSON.stringify(name)} is no Artifact family of the policy`);
  resource(`${P}/artifact_resource`, policy.artifact_resource);
  for (const [i, name] of policy.owned.entries()) resource(`${P}/owned/${i}`, name);
  for (const [i, role] of (policy.static_principal?.server_roles ?? []).entries())
    roleOn(`${P}/static_principal/server_roles/${i}`, role, "server");
  for (const [i, role] of (policy.static_principal?.scope_preset ?? []).entries())
    roleOn(`${P}/static_principal/scope_preset/${i}`, role, "scope");
  for (const [kind, refusal] of Object.entries(policy.refusals)) {
    const row = registry.find((r) => r.code === refusal.code);
    if (row === undefined || row.status !== refusal.status)
      bad(
        `${P}/refusals/${kind}`,
        `${refusal.code} is not a code of x-powercontext-error-codes with status ${refusal.status}`,
      );
  }
  const checkActions = (node: unknown, at: string): void => {
    if (Array.isArray(node)) for (const [i, item] of node.entries()) checkActions(item, `${at}/${i}`);
    else if (isObject(node)) {
      if (typeof node.action === "string") action(`${at}/action`, node.action);
      for (const [key, value] of Object.entries(node))
        if (key !== "action") checkActions(value, `${at}/${pointerSegment(key)}`);
    }
  };
  checkActions(facts.resolvers, `/${ACCESS_RESOLVERS_EXTENSION}`);
  const resolvers = facts.resolvers as Record<string, unknown>;
  for (const op of operations) {
    const access = op.operation["x-powercontext-access"] as Json | undefined;
    if (isObject(access) && typeof access.resolver === "string" && !Object.hasOwn(resolvers, access.resolver))
      bad(
        `${op.pointer}/x-powercontext-access/resolver`,
        `${access.resolver} is not a resolver of ${ACCESS_RESOLVERS_EXTENSION}`,
      );
    if (isObject(access) && typeof access.action === "string")
      action(`${op.pointer}/x-powercontext-access/action`, access.action);
    const entries = facts.after[op.operationId];
    if (entries !== undefined) {
      const at = `${op.pointer}/${ACCESS_AFTER_EXTENSION}`;
      checkActions(entries, at);
      for (const [i, entry] of entries.entries()) {
        const lookup = entry.lookup as { resource: string } | undefined;
        if (lookup !== undefined) resource(`${at}/${i}/lookup/resource`, lookup.resource);
      }
    }
    const owner = facts.owners[op.operationId] as { inherit: string } | undefined;
    if (owner !== undefined) resource(`${op.pointer}/${ACCESS_OWNER_EXTENSION}/inherit`, owner.inherit);
  }
}

import { SimError } from "./errors.js";
import type { Principal } from "./access/principals.js";
import type { JsonRecord } from "./members.js";
import type { SimulatorState } from "./state.js";
import type { HandlerResult, SimRequest } from "./types.js";
import { objectBody } from "./validate.js";
import type { Enrollment } from "./skills/remote-targets.js";

/**
 * The managed-Skill and remote-Skill operations, answered by the Skill domain
 * (`state.skills`: skills/managed.ts, remote-targets.ts, publications.ts). Credentials,
 * access, the body's schema and the Scope were checked before; the receiver
 * operations carry the target credential as their bearer token, which the
 * domain checks itself.
 */
type SkillHandler = (state: SimulatorState, principal: Principal | null, request: SimRequest) => HandlerResult;

/** The Source type of a Skill usage observation, as the release names it. */
const USAGE_SOURCE = "skill-usage";
const ok = (body: unknown): HandlerResult => ({ status: 200, body });
const text = (body: JsonRecord, name: string): string => String(body[name]);
const nullable = <T>(value: unknown): T | null => (value === undefined ? null : (value as T));

/** The Skill operations the domain answers, by operationId. */
export const skillHandlers: Record<string, SkillHandler> = {
  get_skill: ({ skills }, _p, { body }) => {
    const b = objectBody(body);
    return ok(skills.managed.get(text(b, "scope_id"), b.artifact as JsonRecord));
  },

  list_managed_skills: ({ skills }, _p, { body }) => {
    const b = objectBody(body);
    const limit = typeof b.limit === "number" ? b.limit : 100;
    const query = typeof b.query === "string" ? b.query : "";
    return ok({ skills: skills.managed.list(text(b, "scope_id"), b.include_deprecated === true, query, limit) });
  },

  get_skill_package_manifest: ({ skills }, _p, { body }) => {
    const b = objectBody(body);
    return ok(skills.managed.manifest(text(b, "scope_id"), b.artifact as JsonRecord));
  },

  download_skill_package: ({ skills }, _p, { body }) => {
    const b = objectBody(body);
    const built = skills.managed.package(text(b, "scope_id"), b.artifact as JsonRecord);
    return ok({ package: { ...built.reference }, archive_base64: built.archiveBase64 });
  },

  // A usage observation is a Source of its own type, keyed by the observation id, for an exact package-backed Skill revision.
  record_skill_usage: ({ skills, sources }, _p, { body }) => {
    const b = objectBody(body);
    const scopeId = text(b, "scope_id");
    const built = skills.managed.package(scopeId, b.skill_ref as JsonRecord);
    if (b.package_digest !== `sha256:${built.reference.tree_digest}`)
      throw new SimError(422, "invalid_request", "The usage names another package than the Skill revision's.", null);
    const { scope_id: _scope, ...observation } = b;
    return {
      status: 201,
      body: sources.capture(scopeId, text(b, "observation_id"), observation, { type: USAGE_SOURCE }),
    };
  },

  update_skill_lifecycle: ({ skills }, _p, { body }) => {
    const b = objectBody(body);
    return ok(
      skills.managed.changeLifecycle(
        text(b, "scope_id"),
        text(b, "artifact_id"),
        b.expected_generation as number,
        text(b, "lifecycle_state"),
        nullable<string>(b.replacement_artifact_id),
      ),
    );
  },

  list_remote_skill_targets: ({ skills }, _p, { body }) => {
    const b = objectBody(body);
    const scopeId = text(b, "scope_id");
    const limit = typeof b.limit === "number" ? b.limit : 100;
    const targets = skills.targets.list(scopeId, nullable<string>(b.target_id), limit);
    return ok({
      targets: targets.map((target) => ({
        target,
        publications: skills.publications.of(scopeId, String(target.target_id)),
      })),
    });
  },

  create_remote_skill_target: ({ skills }, _p, { body }) => {
    const b = objectBody(body);
    return {
      status: 201,
      body: skills.targets.create(text(b, "scope_id"), text(b, "agent_kind"), text(b, "display_name")),
    };
  },

  enroll_remote_skill_target: ({ skills }, _p, { body }) =>
    ok(skills.targets.enroll(objectBody(body) as unknown as Enrollment)),

  rename_remote_skill_target: ({ skills }, _p, { body }) => {
    const b = objectBody(body);
    const { scope_id, target_id, expected_generation, display_name } = b;
    return ok(
      skills.targets.rename(String(scope_id), String(target_id), expected_generation as number, String(display_name)),
    );
  },

  revoke_remote_skill_target: ({ skills }, _p, { body }) => {
    const b = objectBody(body);
    return ok(skills.targets.revoke(text(b, "scope_id"), text(b, "target_id"), b.expected_generation as number));
  },

  publish_remote_skill: ({ skills }, _p, { body }) => {
    const b = objectBody(body);
    return ok(
      skills.publications.publish(
        text(b, "scope_id"),
        text(b, "target_id"),
        b.artifact as JsonRecord,
        nullable<number>(b.expected_generation),
        b.allow_deprecated === true,
      ),
    );
  },

  unpublish_remote_skill: ({ skills }, _p, { body }) => {
    const b = objectBody(body);
    const { scope_id, target_id, artifact_id, expected_generation } = b;
    return ok(
      skills.publications.unpublish(
        String(scope_id),
        String(target_id),
        String(artifact_id),
        expected_generation as number,
      ),
    );
  },

  reconcile_remote_skills: ({ skills }, _p, { body, token }) => {
    const b = objectBody(body);
    const observations = (Array.isArray(b.observations) ? b.observations : []) as JsonRecord[];
    return ok(
      skills.publications.reconcile(
        token ?? undefined,
        observations,
        text(b, "receiver_version"),
        nullable<string>(b.environment_fingerprint),
      ),
    );
  },

  download_remote_skill_package: ({ skills }, _p, { body, token }) => {
    const b = objectBody(body);
    return ok(
      skills.publications.download(
        token ?? undefined,
        b.generation as number,
        b.artifact as JsonRecord,
        b.package as JsonRecord,
      ),
    );
  },

  record_remote_skill_receipt: ({ skills }, _p, { body, token }) =>
    ok(skills.publications.receipt(token ?? undefined, objectBody(body))),
};

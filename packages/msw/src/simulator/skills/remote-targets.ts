import { isoTime } from "../clock.js";
import { SimError } from "../errors.js";
import type { SeededRandom } from "../random.js";
import type { JsonRecord } from "../members.js";
import type { ResourceStore } from "../resources/store.js";

/**
 * Remote Skill targets as the release keeps them: an administrator creates a
 * pending target and gets a one-time enrollment code (valid for ten minutes);
 * the receiver trades the code for its own credential, which activates the
 * target and records what the receiver reported (until then those members
 * are null: a target never seen has no installation, version or last sight).
 * Every change (enrollment, rename, revocation) names the target's current
 * `generation` and moves it on; a stale or unknown one is `409
 * invalid_target_state`. A revoked target keeps its identity, but its
 * credential no longer works.
 */

const TARGETS = "remote_skill_target";
const ENROLLMENT_MS = 10 * 60 * 1000;
const PENDING = "pending";
const ACTIVE = "active";
const REVOKED = "revoked";
const SECRET_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Where a code or a credential leads: the target's Scope and id. */
interface TargetKey {
  readonly scopeId: string;
  readonly targetId: string;
}

/** What a receiver reports when it enrolls. */
export interface Enrollment {
  readonly enrollment_code: string;
  readonly installation_id: string;
  readonly receiver_version: string;
  readonly environment_fingerprint?: string | null;
  readonly machine_hostname?: string | null;
  readonly workspace_name?: string | null;
}

/** The remote Skill targets of every Scope, their enrollment codes and credentials. */
export class RemoteSkillTargets {
  readonly #codes = new Map<string, TargetKey & { readonly expiresMs: number }>();
  readonly #credentials = new Map<string, TargetKey>();

  constructor(
    private readonly store: ResourceStore,
    private readonly random: SeededRandom,
    private readonly now: () => number,
  ) {}

  /** A new pending target of `agentKind` and its enrollment code. */
  create(scopeId: string, agentKind: string, displayName: string): JsonRecord {
    const targetId = `${agentKind.replace(/_/g, "-")}-${this.#hex(12)}`;
    const target: JsonRecord = {
      scope_id: scopeId,
      target_id: targetId,
      display_name: displayName.trim(),
      agent_kind: agentKind,
      installation_scope: "project",
      delivery_mode: "agent_pull",
      installation_id: null,
      state: PENDING,
      receiver_version: null,
      environment_fingerprint: null,
      machine_hostname: null,
      workspace_name: null,
      last_seen_at: null,
      generation: 0,
    };
    this.store.insert(TARGETS, [scopeId], targetId, target, "");
    const code = `pce_${this.#secret()}`;
    const expiresMs = this.now() + ENROLLMENT_MS;
    this.#codes.set(code, { scopeId, targetId, expiresMs });
    return { target, enrollment_code: code, enrollment_expires_at: isoTime(expiresMs) };
  }

  /**
   * Trades an enrollment code for the target's credential, once.
   * @throws SimError 409 `invalid_enrollment` for a code never issued, used, expired or revoked, or an installation another target holds
   */
  enroll(request: Enrollment): JsonRecord {
    const key = this.#codes.get(request.enrollment_code);
    const target = key === undefined ? undefined : this.#find(key.scopeId, key.targetId);
    const installed = this.store.everywhere(TARGETS).some((r) => r.current.installation_id === request.installation_id);
    if (
      key === undefined ||
      target === undefined ||
      target.state !== PENDING ||
      target.generation !== 0 ||
      key.expiresMs <= this.now() ||
      installed
    )
      throw new SimError(409, "invalid_enrollment", "This enrollment code cannot enroll a receiver.", null);
    this.#codes.delete(request.enrollment_code);
    const credential = `pct_installation-${this.#hex(32)}.${this.#secret()}`;
    this.#credentials.set(credential, key);
    this.#save({
      ...target,
      installation_id: request.installation_id,
      state: ACTIVE,
      receiver_version: request.receiver_version,
      environment_fingerprint: request.environment_fingerprint ?? null,
      machine_hostname: request.machine_hostname?.trim() ?? null,
      workspace_name: request.workspace_name?.trim() ?? null,
      last_seen_at: isoTime(this.now()),
      generation: 1,
    });
    return { scope_id: key.scopeId, target_id: key.targetId, agent_kind: target.agent_kind, credential };
  }

  /** The targets of a Scope (or the one `targetId` names), oldest first, at most `limit`. */
  list(scopeId: string, targetId: string | null, limit: number): JsonRecord[] {
    return this.store
      .records(TARGETS, [scopeId])
      .map((r) => r.current)
      .filter((t) => targetId === null || t.target_id === targetId)
      .slice(0, limit);
  }

  /** Renames a target at generation `expected` (the same name changes nothing). @throws SimError 409 `invalid_target_state` */
  rename(scopeId: string, targetId: string, expected: number, displayName: string): JsonRecord {
    const target = this.#current(scopeId, targetId, expected);
    const name = displayName.trim();
    if (target.display_name === name) return target;
    return this.#save({ ...target, display_name: name, generation: expected + 1 });
  }

  /** Revokes a target at generation `expected`: its code and credential stop working. @throws SimError 409 `invalid_target_state` */
  revoke(scopeId: string, targetId: string, expected: number): JsonRecord {
    const target = this.#current(scopeId, targetId, expected);
    if (target.state === REVOKED) return target;
    for (const [code, key] of this.#codes)
      if (key.scopeId === scopeId && key.targetId === targetId) this.#codes.delete(code);
    for (const [credential, key] of this.#credentials)
      if (key.scopeId === scopeId && key.targetId === targetId) this.#credentials.delete(credential);
    return this.#save({ ...target, state: REVOKED, generation: expected + 1 });
  }

  /** The target, when it is active. @throws SimError 409 `invalid_target_state` for an unknown, pending or revoked one */
  requireActive(scopeId: string, targetId: string): JsonRecord {
    const target = this.#find(scopeId, targetId);
    if (target === undefined || target.state !== ACTIVE) throw invalidTargetState();
    return target;
  }

  /**
   * The active target a receiver's bearer credential belongs to.
   * @throws SimError 401 `invalid_target_credential` for no credential, one never issued, or one of a revoked target
   */
  authenticate(credential: string | null | undefined): JsonRecord {
    const key = credential === null || credential === undefined ? undefined : this.#credentials.get(credential);
    const target = key === undefined ? undefined : this.#find(key.scopeId, key.targetId);
    if (target === undefined || target.state !== ACTIVE)
      throw new SimError(401, "invalid_target_credential", "The receiver's target credential is not valid.", null);
    return target;
  }

  /** Records a receiver's report: its version, environment and the time it was seen (the generation stays). */
  observe(target: JsonRecord, receiverVersion: string, fingerprint: string | null): JsonRecord {
    return this.#save({
      ...target,
      receiver_version: receiverVersion,
      environment_fingerprint: fingerprint,
      last_seen_at: isoTime(this.now()),
    });
  }

  #current(scopeId: string, targetId: string, expected: number): JsonRecord {
    const target = this.#find(scopeId, targetId);
    if (target === undefined || target.generation !== expected) throw invalidTargetState();
    return target;
  }

  #find(scopeId: string, targetId: string): JsonRecord | undefined {
    return this.store.find(TARGETS, [scopeId], targetId)?.current;
  }

  #save(target: JsonRecord): JsonRecord {
    return this.store.update(TARGETS, [target.scope_id], target.target_id, target, false).current;
  }

  #hex(length: number): string {
    let out = "";
    while (out.length < length) out += this.random.int(16).toString(16);
    return out;
  }

  #secret(): string {
    let out = "";
    for (let i = 0; i < 43; i += 1) out += SECRET_ALPHABET[this.random.int(SECRET_ALPHABET.length)];
    return out;
  }
}

/** The refusal of a change the target's state does not allow (unknown, stale generation, not active). */
export function invalidTargetState(): SimError {
  return new SimError(409, "invalid_target_state", "The remote target's state does not allow this change.", null);
}

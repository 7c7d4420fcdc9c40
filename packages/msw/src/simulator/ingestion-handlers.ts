import { SimError } from "./errors.js";
import { stableJson, type JsonRecord } from "./members.js";
import type { SimulatorState } from "./state.js";
import type { HandlerResult, SimRequest } from "./types.js";
import { objectBody, scopeField } from "./validate.js";

/**
 * Connector observations, answered from the Source definitions the store keeps: an
 * observation names a registered definition (its `source_type` and
 * `definition_version`), carries that manifest's fingerprint and exactly its
 * projections, and is stored as a Source of its type under its name. Credentials,
 * access, the body's schema, its model rules and the Scope were checked before. The
 * payload and projection values are not checked against the manifest's JSON Schemas
 * (docs/compatibility.md).
 */

const DEFINITION = "source_definition";

const ingestionInvalid = () => new SimError(422, "invalid_source_ingestion", "Source ingestion is invalid.", null);

function projectionKeys(projections: unknown): string[] {
  return (Array.isArray(projections) ? (projections as JsonRecord[]) : []).map((p) => stableJson(p.key)).sort();
}

/** The Source ingestion operations the store answers, by operationId. */
export const ingestionHandlers: Record<
  string,
  (state: SimulatorState, principal: unknown, request: SimRequest) => HandlerResult
> = {
  submit_source_observation: (state, _principal, request) => {
    const body = objectBody(request.body);
    const observation = body.observation as JsonRecord;
    const definition = state.store.find(DEFINITION, [observation.source_type], observation.definition_version);
    if (definition === undefined)
      throw new SimError(404, "source_definition_not_found", "No Source definition has this name and version.", null);
    const manifest = definition.current;
    if (observation.definition_fingerprint !== manifest.fingerprint) throw ingestionInvalid();
    if (stableJson(projectionKeys(observation.projections)) !== stableJson(projectionKeys(manifest.projections)))
      throw ingestionInvalid();
    const { position } = state.sources.capture(scopeField(body), String(observation.name), observation, {
      type: String(observation.source_type),
    });
    return {
      status: 202,
      body: { source: { name: observation.source_type, source_id: observation.name }, position },
    };
  },
};

import { contractResources, type ContractResource } from "../generated/contract.js";
import { reference } from "./artifacts.js";
import type { InferenceMode } from "./refusal-facts.js";
import type { JsonRecord } from "./resources/members.js";
import { etagOf } from "./resources/records.js";
import type { ResourceWriter } from "./resources/writer.js";

/**
 * The Prompt configuration of a key, as the release reports it: the saved
 * Prompt (the prompt-family Artifact named by the key) with its ETag, null
 * until one is written; the built-in instructions beside it, which are also
 * the effective ones while nothing is saved; and whether the server can run
 * the Prompt at all (`disabled` with `provider_not_configured` without an
 * inference model). The mock's built-in instructions are a placeholder
 * sentence, not the release's text.
 */

/** The Artifact family of saved Prompts. */
const PROMPT_FAMILY = "prompt";

/** Prompt configurations over the resource writer. */
export class Prompts {
  constructor(
    private readonly writer: ResourceWriter,
    private readonly inference: InferenceMode,
  ) {}

  /** The `PromptConfiguration` body of `promptKey` in a Scope. */
  configuration(scopeId: string, promptKey: string): JsonRecord {
    const { writer, inference } = this;
    const saved = writer.find("artifact", [scopeId, PROMPT_FAMILY], promptKey);
    const builtin = {
      version: `powercontext.${promptKey}.v1`,
      // The release builds its extraction prompts for coding sessions; the others have no profile.
      profile: promptKey.endsWith(".extract") ? "coding" : null,
      instructions: `The built-in instructions of ${promptKey}.`,
    };
    const content = (saved?.content ?? null) as JsonRecord | null;
    return {
      scope_id: scopeId,
      prompt_key: promptKey,
      status: inference === "on" ? "supported" : "disabled",
      reason: inference === "on" ? null : "provider_not_configured",
      mode: saved === undefined ? "auto" : "custom",
      artifact: saved === undefined ? null : reference(saved),
      artifact_etag: saved === undefined ? null : etagOf(contractResources.artifact as ContractResource, saved),
      effective: {
        instructions: typeof content?.instructions === "string" ? content.instructions : builtin.instructions,
        demonstrations: Array.isArray(content?.demonstrations) ? content.demonstrations : [],
      },
      builtin,
    };
  }
}

import { contractResources } from "../generated/contract.js";
import type { ContractResource } from "../contract/types.js";
import { responseSchemas } from "../generated/response-schemas.js";
import { reference } from "./artifacts.js";
import type { JsonRecord } from "./members.js";
import { etagOf } from "./resources/records.js";
import type { ResourceWriter } from "./resources/writer.js";

/**
 * The Prompt configuration of a key, as the release reports it: the saved
 * Prompt (the prompt-family Artifact named by the key) with its ETag, null
 * until one is written; the built-in instructions beside it, which are also
 * the effective ones while nothing is saved; and whether the server can run
 * the Prompt at all (`disabled` with `provider_not_configured` without an
 * inference model), for each key and in `get_capabilities`. The mock's built-in
 * instructions are a placeholder sentence, not the release's text.
 */

/** The Artifact family of saved Prompts. */
const PROMPT_FAMILY = "prompt";
/** The Prompt the release ships switched off. */
const RERANK = "memory.rerank";

/** Prompt configurations over the resource writer. */
export class Prompts {
  /**
   * @param writer the resource writer the saved Prompts are read through
   * @param withModel whether the server has an inference model (false: a default 1.4.1 install)
   */
  constructor(
    private readonly writer: ResourceWriter,
    readonly withModel: boolean,
  ) {}

  /** The `PromptConfiguration` body of `promptKey` in a Scope. */
  configuration(scopeId: string, promptKey: string): JsonRecord {
    const saved = this.writer.find("artifact", [scopeId, PROMPT_FAMILY], promptKey);
    const builtin = builtinOf(promptKey);
    // A saved automatic Prompt runs the built-in instructions; only a custom one replaces them.
    const content = (saved?.content ?? null) as JsonRecord | null;
    const custom = content?.mode === "custom" ? content : null;
    return {
      scope_id: scopeId,
      prompt_key: promptKey,
      ...this.#availability(promptKey),
      mode: custom === null ? "auto" : "custom",
      artifact: saved === undefined ? null : reference(saved),
      artifact_etag: saved === undefined ? null : etagOf(contractResources.artifact as ContractResource, saved),
      effective: {
        instructions: typeof custom?.instructions === "string" ? custom.instructions : builtin.instructions,
        demonstrations: Array.isArray(custom?.demonstrations) ? custom.demonstrations : [],
      },
      builtin,
    };
  }

  /** `get_capabilities`' `prompts`: every Prompt key of the contract with whether it can run and its versions. */
  capabilities(): JsonRecord {
    const keys = ((responseSchemas.response_PromptKey as { enum?: string[] } | undefined)?.enum ?? []) as string[];
    return Object.fromEntries(
      keys.map((key) => {
        const builtin = builtinOf(key);
        return [
          key,
          {
            ...this.#availability(key),
            definition_version: `powercontext.prompt.${key}.v1`,
            builtin_version: builtin.version,
            builtin_profile: builtin.profile,
          },
        ];
      }),
    );
  }

  /** Whether the server can run the Prompt: not without a model, and never the reranker, which the release leaves off. */
  #availability(promptKey: string): { status: string; reason: string | null } {
    if (promptKey === RERANK) return { status: "disabled", reason: "operation_disabled" };
    return this.withModel
      ? { status: "supported", reason: null }
      : { status: "disabled", reason: "provider_not_configured" };
  }
}

/** The mock's built-in instructions of a Prompt: a placeholder sentence, under a version named after the key. */
function builtinOf(promptKey: string): { version: string; profile: string | null; instructions: string } {
  return {
    version: `powercontext.${promptKey}.v1`,
    // The release builds its extraction prompts for coding sessions; the others have no profile.
    profile: promptKey.endsWith(".extract") ? "coding" : null,
    instructions: `The built-in instructions of ${promptKey}.`,
  };
}

import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import type { InferenceMode } from "../../src/simulator/refusal-facts.js";
import { adminJson as send } from "../support/world.js";
import { TEST_SCOPES } from "../support/scopes.js";

/**
 * Saved Prompts (the `prompt` Artifact family) as a 1.4.1 server keeps them, measured
 * against the release: a Prompt Artifact is named by its Prompt key, one per key and
 * Scope; its content is read after NFC and strip, an automatic Prompt carries no
 * instructions or demonstrations and a custom one carries instructions (else `422
 * invalid_prompt_content`); a custom Prompt needs a Prompt the server can run (`422
 * prompt_customization_unavailable`, checked after the content); the configuration
 * reports the saved mode and runs the built-in instructions unless the Prompt is custom.
 */

function simulator(inference: InferenceMode): PowerContextSimulator {
  return createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 5, inference });
}

const content = (mode: string, instructions: string, demonstrations: unknown[] = []) => ({
  schema_version: "powercontext.prompt.v1",
  mode,
  instructions,
  demonstrations,
});

function create(sim: PowerContextSimulator, promptKey: string, body: unknown) {
  return send(sim, "create_artifact", {
    params: { scope_id: "s1" },
    body: { family: "prompt", prompt_key: promptKey, content: body },
  });
}

const code = (answer: { body: any }) => answer.body?.error?.code;

describe("saved Prompts", () => {
  it("names a Prompt Artifact by its key, once per Scope", () => {
    const sim = simulator("off");
    const first = create(sim, "topic_memory.probe", content("auto", ""));
    expect(first).toMatchObject({ status: 201, body: { family: "prompt", artifact_id: "topic_memory.probe" } });
    const again = create(sim, "topic_memory.probe", content("auto", ""));
    expect(again).toMatchObject({
      status: 409,
      body: { error: { code: "idempotency_conflict", details: { kind: "artifact" } } },
    });
    const read = send(sim, "get_artifact", {
      params: { scope_id: "s1", family: "prompt", artifact_id: "topic_memory.probe" },
    });
    expect(read).toMatchObject({ status: 200, body: { artifact_id: "topic_memory.probe", revision: 1 } });
  });

  it.each([
    ["automatic with instructions", content("auto", "Be brief.")],
    ["automatic with demonstrations", content("auto", "", [{ input: {}, expected_output: {} }])],
    ["custom with blank instructions", content("custom", " \n\t")],
  ])("refuses %s as invalid_prompt_content, before the customization check", (_name, body) => {
    for (const inference of ["off", "on"] as const) {
      const answer = create(simulator(inference), "skill.generate", body);
      expect([answer.status, code(answer)]).toEqual([422, "invalid_prompt_content"]);
    }
  });

  it("reads the instructions trimmed: whitespace only is an automatic Prompt's empty text, stored empty", () => {
    const sim = simulator("off");
    expect(create(sim, "skill.generate", content("auto", " \u3000\n")).status).toBe(201);
    const read = send(sim, "get_artifact", {
      params: { scope_id: "s1", family: "prompt", artifact_id: "skill.generate" },
    });
    expect(read.body.content.instructions).toBe("");
  });

  it("refuses a custom Prompt the server cannot run: none without a model, never the reranker", () => {
    const off = create(simulator("off"), "skill.generate", content("custom", "Be brief."));
    expect([off.status, code(off)]).toEqual([422, "prompt_customization_unavailable"]);
    const rerank = create(simulator("on"), "memory.rerank", content("custom", "Be brief."));
    expect([rerank.status, code(rerank)]).toEqual([422, "prompt_customization_unavailable"]);
    const on = create(simulator("on"), "skill.generate", content("custom", "  Be brief. "));
    expect(on).toMatchObject({ status: 201, body: { artifact_id: "skill.generate" } });
  });

  it("reports the saved mode: a saved automatic Prompt runs the built-in instructions, a custom one its own", () => {
    const sim = simulator("on");
    create(sim, "topic_memory.probe", content("auto", ""));
    create(sim, "skill.generate", content("custom", " Be brief. "));
    const config = (key: string) =>
      send(sim, "get_prompt_configuration", { params: { scope_id: "s1", prompt_key: key } }).body;
    const auto = config("topic_memory.probe");
    expect(auto).toMatchObject({ mode: "auto", artifact: { artifact_id: "topic_memory.probe", revision: 1 } });
    expect(auto.effective.instructions).toBe(auto.builtin.instructions);
    expect(config("skill.generate")).toMatchObject({ mode: "custom", effective: { instructions: "Be brief." } });
  });

  it("refuses a replacement body its model cannot read as an access fault, with or without If-Match", () => {
    const sim = simulator("off");
    create(sim, "topic_memory.probe", content("auto", ""));
    const replace = (headers: Record<string, string>) =>
      send(sim, "replace_artifact", {
        params: { scope_id: "s1", family: "prompt", artifact_id: "topic_memory.probe" },
        headers,
        body: { expected_revision: 1, content: content("auto", "") },
      });
    expect(code(replace({}))).toBe("invalid_access_request");
    expect(code(replace({ "If-Match": '"revision:1"' }))).toBe("invalid_access_request");
  });

  it("refuses a replacement body another family's model reads as invalid_prompt_content, before the Prompt is looked up", () => {
    const sim = simulator("off");
    create(sim, "topic_memory.probe", content("auto", ""));
    const atomic = { schema: "powercontext.atomic-memory.v1", kind: "fact", text: "Not a Prompt." };
    for (const artifact_id of ["topic_memory.probe", "no-such-prompt"]) {
      const answer = send(sim, "replace_artifact", {
        params: { scope_id: "s1", family: "prompt", artifact_id },
        headers: { "If-Match": '"revision:1"' },
        body: { content: atomic },
      });
      expect([artifact_id, answer.status, code(answer), answer.body.error.details]).toEqual([
        artifact_id,
        422,
        "invalid_prompt_content",
        null,
      ]);
    }
    // Another family keeps the operation's answer, which names the content.
    const made = send(sim, "create_artifact", {
      params: { scope_id: "s1" },
      body: {
        family: "experience",
        content: { situation: "s", action: "a", outcome: "o", lesson: "l", failure: null },
      },
    });
    const experience = send(sim, "replace_artifact", {
      params: { scope_id: "s1", family: "experience", artifact_id: made.body.artifact_id },
      headers: { "If-Match": '"revision:1"' },
      body: { content: atomic },
    });
    expect([experience.status, code(experience), experience.body.error.details?.field]).toEqual([
      422,
      "invalid_request",
      "content",
    ]);
  });
});

import type { SeededRandom } from "../random.js";
import type { ResourceStore } from "../resources/store.js";
import type { ResourceWriter } from "../resources/writer.js";
import { ManagedSkills } from "./managed.js";
import { SkillPublications } from "./publications.js";
import { RemoteSkillTargets } from "./remote-targets.js";

/** The Skill domain of the simulator: managed Skills, remote targets and what they should hold. */
export interface SkillDomain {
  readonly managed: ManagedSkills;
  readonly targets: RemoteSkillTargets;
  readonly publications: SkillPublications;
}

/** Builds the Skill domain over the store; Skill Artifacts are packaged and governed through write hooks on `writer`. */
export function createSkillDomain(
  store: ResourceStore,
  writer: ResourceWriter,
  random: SeededRandom,
  now: () => number,
): SkillDomain {
  const managed = new ManagedSkills(store, writer);
  const targets = new RemoteSkillTargets(store, random, now);
  return { managed, targets, publications: new SkillPublications(store, targets, managed, now) };
}

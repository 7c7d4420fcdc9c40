import type { Target } from "../target.js";
import { emitTypes } from "./openapi-types.js";

/** Where the types go, by layout. */
export const TYPES_PATHS = {
  repository: { types: "packages/types/generated/openapi.d.ts" },
  standalone: { types: "openapi.d.ts" },
} as const;

/**
 * `types`: the spec's TypeScript types, written from the IR
 * (docs/adr/0019-types-from-the-ir.md). The operation tables share its folder and
 * come with it.
 */
export const typesTarget: Target = {
  name: "types",
  summary: "the spec's TypeScript types (openapi.d.ts)",
  needs: "`types`: nothing at run time (declarations only)",
  roles: { "openapi.d.ts": "the spec's types (`paths`, `components`, `operations`), type-only" },
  byDefault: { repository: true, standalone: true },
  folder: () => "packages/types/generated",
  requires: () => ["tables"],
  async emit({ ir, layout }) {
    return { files: new Map([[TYPES_PATHS[layout].types, await emitTypes(ir)]]) };
  },
};

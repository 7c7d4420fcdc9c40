// The PowerContext HTTP contract as TypeScript types: one named type per schema, and
// `components`, `operations`, `paths`. Type-only; no runtime code.
// The operation table in the upstream Python SDK's terms is `@powercontext/types/operations.json`.
export * from "./generated/openapi.js";

// The PowerContext HTTP contract as TypeScript types: `paths`, `components`, `operations`
// (and `Readable`/`Writable` when the spec uses readOnly/writeOnly). Type-only; no runtime code.
// The operation table in the upstream Python SDK's terms is `@powercontext/types/operations.json`.
export * from "./generated/openapi.js";

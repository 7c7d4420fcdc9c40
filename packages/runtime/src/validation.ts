/**
 * `@powercontext/runtime/validation`: what generated validator modules import.
 * `validator(schema)` compiles a schema in the compact form the generator
 * writes (docs/adr/0020-validator-tables.md, docs/adr/0031-validators-fast-and-ordered.md)
 * on first use; it imports nothing else of the runtime, so a module that only
 * validates (a mock, a test) loads no transport. The handlers of the rarer
 * keywords (`anyOfKeyword`, ...) are what a table node lists in `k` for the
 * keywords it uses; `recursive` is how a table refers back into a cycle.
 */
export { validator, type ValidateFunction, type ValidationError } from "./validation/validator.js";
export {
  allOfKeyword,
  anyOfKeyword,
  constKeyword,
  enumKeyword,
  exclusiveMaximumKeyword,
  exclusiveMinimumKeyword,
  formatKeyword,
  ifKeyword,
  multipleOfKeyword,
  notKeyword,
  oneOfKeyword,
  refKeyword,
  uniqueItemsKeyword,
} from "./validation/keywords.js";
export { recursive } from "./validation/depth.js";
export type { Keyword, SchemaCheck, SchemaNode, SchemaRef } from "./validation/schema-node.js";

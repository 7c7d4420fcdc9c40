/**
 * `@powercontext/runtime/validation`: what generated validator modules import.
 * `validator(schema)` compiles a schema in the compact form the generator
 * writes (docs/adr/0020-validator-tables.md) on first use; it imports nothing
 * else of the runtime, so a module that only validates (a mock, a test) loads
 * no transport. The handlers of the rarer keywords (`anyOfKeyword`, ...) are
 * what a table node lists in `k` for the keywords it uses.
 */
export { validator, type ValidateFunction, type ValidationError } from "./validation/compile.js";
export {
  allOfKeyword,
  anyOfKeyword,
  exclusiveMaximumKeyword,
  exclusiveMinimumKeyword,
  formatKeyword,
  ifKeyword,
  multipleOfKeyword,
  notKeyword,
  oneOfKeyword,
} from "./validation/keywords.js";
export type { Keyword, SchemaCheck, SchemaNode, SchemaRef } from "./validation/schema-node.js";

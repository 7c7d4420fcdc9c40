/**
 * `@powercontext/runtime` on Node (the package's `"node"` export condition):
 * the browser entry with undici's dispatcher API as the default transport
 * (ADR 0008) and the `dispatcher` option. The three functions below take the
 * place of the browser entry's, which default to the global `fetch`.
 */
export * from "./index.js";
export { createCaller, createRuntime, resolveConfig, NODE_PLATFORM } from "./node-platform.js";
export { undiciTransport, defaultAgent } from "./transport/undici-adapter.js";
export { createNodeTransport, type NodeTransport, type NodeTransportOptions } from "./transport/node.js";

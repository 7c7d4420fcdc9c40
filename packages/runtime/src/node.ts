/** Node entry (`@powercontext/runtime/node`), kept for existing imports: the same as the package's `"node"` condition. */
export * from "./index.node.js";

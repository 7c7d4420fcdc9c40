/** Node entry (`@powercontext/sdk/node`): everything of the browser entry plus the undici transport. */
export * from "./index.js";
export { createNodeTransport, type NodeTransport, type NodeTransportOptions } from "@powercontext/runtime/node";

export * from "./simulator/index.js";
export * from "./handlers/index.js";

export { startMockServer, type MockServer, type MockServerOptions } from "./start.js";
export { createMockApp } from "./app.js";
export { corsHeaders } from "./cors.js";
export { loadPrincipalsFile } from "./principals-file.js";
export { createProgram, main } from "./cli.js";
export * from "../index.js";

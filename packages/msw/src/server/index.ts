export { startMockServer, type MockServer, type MockServerOptions } from "./start.js";
export { createMockApp, type MockAppOptions } from "./app.js";
export { DEFAULT_MAX_REQUEST_BODY_BYTES } from "./body-limit.js";
export { corsHeaders } from "./cors.js";
export { loadPrincipalsFile } from "./principals-file.js";
export { createProgram, main } from "./cli.js";
export * from "../index.js";

export { createPowerContextHandlers, type PowerContextHandlersOptions } from "./create-handlers.js";
export { outcomeToMsw, bearerToken, queryRecord, type PlainResponse } from "./outcome-to-msw.js";

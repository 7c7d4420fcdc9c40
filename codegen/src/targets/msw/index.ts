import type { Target } from "../target.js";
import { emitMswContract } from "./msw-contract.js";
import { emitMswDocument } from "./msw-document.js";
import { emitMswHandlers, emitMswHandlerTypes } from "./msw-handlers.js";
import { emitMswRoutes } from "./msw-routes.js";
import { emitMswAccess } from "./msw-access.js";

const FOLDER = "packages/msw/src/generated";

/** Where the mock's files go, by layout (a standalone folder gets the handlers alone). */
export const MSW_PATHS = {
  repository: {
    mswHandlers: `${FOLDER}/handlers.ts`,
    mswHandlerTypes: `${FOLDER}/handler-types.ts`,
    mswContract: `${FOLDER}/contract.ts`,
    mswResponseSchemas: `${FOLDER}/response-schemas.ts`,
    mswRoutes: `${FOLDER}/routes.ts`,
    mswAccess: `${FOLDER}/access.ts`,
    mswDocument: `${FOLDER}/openapi-document.ts`,
  },
  standalone: { mswHandlers: "handlers.ts" },
} as const;

/**
 * `msw`: msw handlers for every operation; in the repository also the handlers'
 * types on their own (so the simulator's types import nothing of msw), the
 * simulator's contract, the response schemas it samples from, the route table of
 * the mock server, the access model it decides by and the document it serves. The contract uses the SDK's
 * validators (one copy), so in the repository the client comes with it; a
 * standalone folder's handlers import the types file beside them.
 */
export const mswTarget: Target = {
  name: "msw",
  summary: "msw handlers (and, in the repository, the mock's contract, routes and document)",
  needs: "`msw`: `msw` 2.11 or later (a peer of the handlers)",
  roles: {
    "handlers.ts":
      "msw request handlers for every operation (imports `msw`; only tests and mock setups import this file)",
  },
  byDefault: { repository: true, standalone: true },
  folder: () => FOLDER,
  requires: (layout) => (layout === "standalone" ? ["types"] : ["client"]),
  emit({ ir, layout, validatorSchemas }) {
    if (layout === "standalone") return { files: new Map([[MSW_PATHS.standalone.mswHandlers, emitMswHandlers(ir)]]) };
    const paths = MSW_PATHS.repository;
    const contract = emitMswContract(ir, validatorSchemas());
    return {
      files: new Map([
        // The types alone in their own module, so the simulator's types import nothing of msw.
        [paths.mswHandlerTypes, emitMswHandlerTypes(ir)],
        [paths.mswHandlers, emitMswHandlers(ir, "./handler-types.js")],
        [paths.mswContract, contract.contract],
        [paths.mswResponseSchemas, contract.responseSchemas],
        [paths.mswRoutes, emitMswRoutes(ir)],
        [paths.mswAccess, emitMswAccess(ir)],
        [paths.mswDocument, emitMswDocument(ir, ir.written)],
      ]),
    };
  },
};

import type { Page } from "./routing.js";

/**
 * The server's own page at `GET /openapi.json` (and `HEAD`), as on the release:
 * the contract the mock serves, `openapi.yaml` as JSON (the release's contract
 * plus the documented seed additions, docs/compatibility.md), behind the same
 * credential as every other non-public path. The text is a generated module
 * (`src/generated/openapi-document.ts`) imported on the first request for it,
 * so neither the msw handlers nor the server's start-up pay for it.
 */
export const CONTRACT_PAGE: Page = { path: "/openapi.json", methods: ["GET", "HEAD"] };

let text: Promise<string> | undefined;

/** The served contract's JSON text, imported once. */
export function contractJson(): Promise<string> {
  text ??= import("../generated/openapi-document.js").then((module) => module.openapiDocumentJson);
  return text;
}

/**
 * The browser app: a page that shows the server's default Scope and what it can
 * do. Its view model is typed with `@powercontext/types` (the package of types
 * only); its calls go through the client generated from the live server's own
 * contract (`generated/`, `--targets client,types`: no msw, no handlers.ts), over
 * the runtime's browser entry, whose transport is the page's `fetch`.
 *
 * The page calls its own origin: the page server forwards API paths to the
 * PowerContext server and adds the token there, so the token never reaches the
 * page and no cross-origin request (which the 1.4.1 server's CORS preflight
 * answers with 401) is made. See docs/browser-app.md.
 */
import type { components } from "@powercontext/types";
import { createClient } from "./generated/index.js";

/** What the page shows, in the types the application is written against. */
interface ScopeCard {
  readonly scope: components["schemas"]["ScopeDescriptor"];
  readonly capabilities: components["schemas"]["Capabilities"];
  readonly live: boolean;
}

async function load(): Promise<ScopeCard> {
  // Same origin: no token in the page, the page server adds it.
  const client = createClient({ baseUrl: window.location.origin });
  const [liveness, scope, capabilities] = await Promise.all([
    client.getLiveness(),
    client.getDefaultScope(),
    client.getCapabilities(),
  ]);
  return { scope, capabilities, live: liveness.status === "ok" };
}

function render(card: ScopeCard): string {
  return [
    `Server ${card.live ? "live" : "not live"}.`,
    `Default Scope ${card.scope.scope_id}: ${card.scope.title} (version ${card.scope.version}).`,
    `Search modes: ${card.capabilities.search_modes.join(", ")}.`,
  ].join("\n");
}

const out = document.getElementById("out");
const state = window as unknown as { __card?: ScopeCard; __error?: string };
try {
  const card = await load();
  state.__card = card;
  if (out !== null) out.textContent = render(card);
} catch (error) {
  state.__error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (out !== null) out.textContent = state.__error;
}

/**
 * The browser app against your server: builds it from the server's contract and
 * serves it on a loopback port (Ctrl-C stops). Open the printed URL.
 *
 * Run: POWERCONTEXT_CLIENT_SERVER_URL=http://127.0.0.1:8000 \
 *      POWERCONTEXT_CLIENT_API_TOKEN=... npx tsx examples/browser-app/main.ts
 */
import { buildApp } from "./build.js";
import { startPageServer } from "./page-server.js";

const upstream = process.env.POWERCONTEXT_CLIENT_SERVER_URL ?? "http://127.0.0.1:8000";
const token = process.env.POWERCONTEXT_CLIENT_API_TOKEN ?? "";
const { dist } = await buildApp(upstream, token);
const page = await startPageServer({ dir: dist, upstream, token });
console.log(`The app is at ${page.url} (API calls go to ${upstream} through it).`);
process.once("SIGINT", () => void page.close());

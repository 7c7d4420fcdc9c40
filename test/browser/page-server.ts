// Serve a tiny static page (index.html plus JavaScript modules held in memory) on a
// loopback port, for the headless-Chromium smoke test.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface PageServer {
  readonly origin: string;
  close(): Promise<void>;
}

export async function servePage(files: Readonly<Record<string, string>>): Promise<PageServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const name = path === "/" ? "/index.html" : path;
    const body = files[name];
    if (body === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const type = name.endsWith(".html") ? "text/html; charset=utf-8" : "text/javascript; charset=utf-8";
    res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(body);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
] as const;

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}

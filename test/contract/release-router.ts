// The installed release's router, read at test time: its routes in the order the
// application registers them, and which of them it matches against the path as sent.
// Nothing of it is written into the repository.
import { execFileSync } from "node:child_process";
import { venvPython } from "../../scripts/contract/release.mjs";
import { repoRoot } from "../real/tools.js";

/** One route of the release's application. */
export interface ReleaseRoute {
  /** null for the application's own pages (its contract and reference page) */
  readonly operationId: string | null;
  readonly path: string;
  readonly methods: readonly string[];
  /** matched against the raw (still percent-encoded) path */
  readonly rawPath: boolean;
}

// Builds the application as the server does (with the Handoff Report route the tests'
// server enables) and lists its routes; a route class that overrides `matches` to read
// `raw_path` is the release's raw-path route.
const READ_ROUTES = `
import inspect, json
from powercontext.server.app import create_app
app = create_app(handoff_report_enabled=True)
out = []
for route in app.routes:
    matches = getattr(type(route), "matches", None)
    raw = matches is not None and "raw_path" in inspect.getsource(matches)
    out.append({"operationId": getattr(route, "operation_id", None), "path": route.path, "methods": sorted(getattr(route, "methods", None) or []), "rawPath": raw})
print(json.dumps(out))
`;

/**
 * The release's routes in registration order.
 *
 * @throws {Error} when the venv's python is missing or the application cannot be built
 */
export function readReleaseRoutes(): ReleaseRoute[] {
  const text = execFileSync(venvPython(repoRoot), ["-c", READ_ROUTES], {
    encoding: "utf8",
    maxBuffer: 8 * 1024 * 1024,
  });
  return JSON.parse(text) as ReleaseRoute[];
}

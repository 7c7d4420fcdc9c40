import { contractRouterAnswers, contractRoutes } from "../generated/routes.js";
import { unquotePath } from "./lenient-path.js";

/**
 * What the released server's router does with a request before any operation
 * runs (docs/compatibility.md, "Routing"), read from the generated route table
 * (`x-powercontext-router`: the routes in the order the release registers them,
 * and which it matches against the path as sent):
 *
 * - a route with this path and method: the operation answers;
 * - a route with this path but not this method: `405`, `Allow` naming the
 *   method of the first such route (the release names that one only);
 * - no route, but one for the path with (or without) a trailing slash among
 *   the routes matched against the decoded path: `307` to it;
 * - otherwise `404`.
 *
 * The server's own pages (`/openapi.json`) are routes too, registered first.
 */

/** A route of the server that is no operation: a path and the methods it takes. */
export interface Page {
  readonly path: string;
  readonly methods: readonly string[];
}

/** The outcome of routing one request. */
export type Route =
  /** Some operation has this method and path: the msw handlers answer it. */
  | { readonly kind: "operation" }
  /** One of the server's own pages takes this method at this path. */
  | { readonly kind: "page"; readonly page: Page }
  /** The path exists with other methods: `405` with `allow`. */
  | { readonly kind: "method"; readonly allow: string }
  /** The path differs from a route only by its trailing slash: `307` to `pathname` (as sent). */
  | { readonly kind: "slash"; readonly pathname: string }
  /** No route has this path: `404`. */
  | { readonly kind: "missing" };

interface Template {
  readonly methods: readonly string[];
  readonly segments: readonly string[];
  /** Matched against the path as sent; otherwise against the decoded path. */
  readonly rawPath: boolean;
  readonly page: Page | null;
}

const OPERATION_TEMPLATES: readonly Template[] = contractRoutes.map((route) => ({
  methods: [route.method],
  segments: route.path.split("/"),
  rawPath: route.rawPath,
  page: null,
}));

function matches(template: Template, segments: readonly string[]): boolean {
  if (template.segments.length !== segments.length) return false;
  return template.segments.every((part, i) =>
    part.startsWith("{") && part.endsWith("}") ? (segments[i] ?? "") !== "" : part === segments[i],
  );
}

/** Routes (in registration order) of the server with `pages`, then the operations. */
export class Router {
  readonly #templates: readonly Template[];

  constructor(pages: readonly Page[] = []) {
    const own = pages.map(
      (page): Template => ({ methods: page.methods, segments: page.path.split("/"), rawPath: false, page }),
    );
    this.#templates = [...own, ...OPERATION_TEMPLATES];
  }

  /** How the release routes `method` at `pathname` (the path as sent, still percent-encoded). */
  route(method: string, pathname: string): Route {
    const raw = pathname.split("/");
    const decoded = unquotePath(pathname).split("/");
    const found = this.#templates.filter((t) => matches(t, t.rawPath ? raw : decoded));
    const full = found.find((t) => t.methods.includes(method));
    if (full !== undefined) return full.page === null ? { kind: "operation" } : { kind: "page", page: full.page };
    const first = found[0];
    if (first !== undefined) return { kind: "method", allow: first.methods.join(", ") };
    if (pathname !== "/") {
      // The release retries a redirect path on its decoded path only; raw-path routes still see the slash.
      const other = pathname.endsWith("/") ? pathname.replace(/\/+$/, "") : `${pathname}/`;
      const toggled = unquotePath(other).split("/");
      if (this.#templates.some((t) => !t.rawPath && matches(t, toggled)))
        return { kind: "slash", pathname: other === "" ? "/" : other };
    }
    return { kind: "missing" };
  }
}

const PUBLIC_PATHS: ReadonlySet<string> = new Set(contractRouterAnswers.publicPaths);
const PUBLIC_PREFIXES: readonly string[] = contractRouterAnswers.publicPrefixes;

/**
 * True when the release's authentication lets `pathname` (as sent) through
 * without a credential: its decoded path is one of the contract's public paths
 * (`x-powercontext-router.public-paths`: the root, the reference page, the health
 * probes, the remote receiver routes, ...) or lies under a public prefix. Every
 * other path, unknown ones and ones with a trailing slash included, needs the
 * token first: the release authenticates before it routes.
 */
export function isPublicPath(pathname: string): boolean {
  const decoded = unquotePath(pathname);
  return PUBLIC_PATHS.has(decoded) || PUBLIC_PREFIXES.some((prefix) => decoded.startsWith(prefix));
}

/**
 * The body the release's framework answers a path no route has (`404`) or a method
 * the path does not take (`405`) with (`x-powercontext-router.framework-bodies`), or
 * null when the contract names none (the mock then sends the error envelope).
 */
export function frameworkBody(status: 404 | 405): unknown {
  const bodies = contractRouterAnswers.frameworkBodies;
  if (bodies === null) return null;
  return structuredClone(status === 404 ? bodies.notFound : bodies.methodNotAllowed);
}

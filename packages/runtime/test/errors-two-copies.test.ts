// Two installed copies of the built runtime (two directories, each holding its
// own copy of dist/): an error thrown by one copy must pass `instanceof` against
// the other copy's classes, by brand, while the constructors stay distinct.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkFile, repoRoot, requireTools } from "../../../test/real/tools.js";

type Runtime = typeof import("../src/index.js");

const dist = join(repoRoot, "packages/runtime/dist");
const enabled = requireTools("two copies of the runtime", checkFile(join(dist, "index.js"), "run: npm run build"));

/** A copy of the built runtime in its own package folder; returns its module. */
async function installCopy(root: string, name: string): Promise<Runtime> {
  const dir = join(root, name, "node_modules/@powercontext/runtime");
  cpSync(dist, join(dir, "dist"), { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "@powercontext/runtime", type: "module", exports: "./dist/index.js" }),
  );
  return (await import(pathToFileURL(join(dir, "dist/index.js")).href)) as Runtime;
}

/**
 * Contract classes built on one copy, branded as the generator writes them
 * (packages/sdk/src/generated/contract-errors.ts), with that copy's table.
 */
function contractOf(rt: Runtime) {
  class VersionConflictError extends rt.GuardedConflictError {
    static override get brand(): symbol {
      return rt.errorBrand("VersionConflictError");
    }
    override name = "VersionConflictError";
  }
  class OperationBlockedError extends rt.ConflictError {
    static override get brand(): symbol {
      return rt.errorBrand("OperationBlockedError");
    }
    override name = "OperationBlockedError";
  }
  const table = {
    version_conflict: { status: 409, errorClass: VersionConflictError },
    operation_blocked: { status: 409, errorClass: OperationBlockedError },
  };
  return {
    VersionConflictError,
    OperationBlockedError,
    make: (error: Parameters<Runtime["serverResponseError"]>[0]) => rt.serverResponseError(error, table),
  };
}

const init = {
  statusCode: 409,
  code: "version_conflict",
  serverMessage: null,
  details: { current_version: 3 },
  requestId: "r-1",
  retryAfterMs: null,
};

describe.skipIf(!enabled)("instanceof across two installed copies of the runtime", () => {
  let root = "";
  let a: Runtime;
  let b: Runtime;
  let ca: ReturnType<typeof contractOf>;
  let cb: ReturnType<typeof contractOf>;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "powercontext-copies-"));
    a = await installCopy(root, "app-a");
    b = await installCopy(root, "app-b");
    ca = contractOf(a);
    cb = contractOf(b);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("loads two distinct copies", () => {
    expect(a.ClientError).not.toBe(b.ClientError);
    const error = cb.make(init);
    // What instanceof did before brands: the constructor chain of copy B is not copy A's.
    expect(Function.prototype[Symbol.hasInstance].call(a.ServerResponseError, error)).toBe(false);
  });

  it("matches an error of copy B against copy A's classes and their bases", () => {
    const error = cb.make(init);
    expect(error).toBeInstanceOf(cb.VersionConflictError);
    expect(error instanceof ca.VersionConflictError).toBe(true);
    expect(error instanceof a.GuardedConflictError).toBe(true);
    expect(error instanceof a.ConflictError).toBe(true);
    expect(error instanceof a.ServerResponseError).toBe(true);
    expect(error instanceof a.ClientError).toBe(true);
    expect(error instanceof Error).toBe(true);
    expect(error.code).toBe("version_conflict");
    expect(error.name).toBe("VersionConflictError");
  });

  it("does not match unrelated classes of either copy", () => {
    const error = cb.make(init);
    expect(error instanceof ca.OperationBlockedError).toBe(false);
    expect(error instanceof a.NotFoundError).toBe(false);
    expect(error instanceof a.TransportError).toBe(false);
    expect(new a.TimeoutError({ path: "/p", timeoutMs: 5, limit: "attempt" }) instanceof b.ServerResponseError).toBe(
      false,
    );
    expect(new Error("plain") instanceof a.ClientError).toBe(false);
    expect(null instanceof a.ClientError).toBe(false);
    expect({ code: "version_conflict" } instanceof a.ClientError).toBe(false);
  });

  it("keeps each SDK-raised error's stable code across copies", () => {
    const timeout = new a.TimeoutError({ path: "/v1/memory/flush", timeoutMs: 5, limit: "attempt" });
    expect(timeout instanceof b.TimeoutError && timeout instanceof b.TransportError).toBe(true);
    expect(timeout.code).toBe("ERR_POWERCONTEXT_TIMEOUT");
    expect(new b.AbortError("/p") instanceof a.AbortError).toBe(true);
    expect(new b.ConfigurationError("x").code).toBe("ERR_POWERCONTEXT_CONFIGURATION");
  });

  it("keeps the Python client's 1.4.1 names working with instanceof, across copies", () => {
    const unauthorized = cb.make({ ...init, statusCode: 401, code: "unauthorized", details: null });
    expect(unauthorized instanceof a.UnauthorizedResponseError).toBe(true);
    expect(unauthorized instanceof a.AuthenticationError).toBe(true);
    const forbidden = cb.make({ ...init, statusCode: 403, code: null, details: null });
    expect(forbidden instanceof a.ForbiddenResponseError).toBe(true);
    const unavailable = cb.make({ ...init, statusCode: 503, code: null, details: null });
    expect(unavailable instanceof a.UnavailableResponseError).toBe(true);
    expect(unavailable instanceof a.UnauthorizedResponseError).toBe(false);
  });

  it("leaves an application's own subclass to the ordinary prototype check", () => {
    class AppError extends a.NotFoundError {}
    const own = new AppError({ ...init, statusCode: 404, code: null, details: null });
    expect(own instanceof AppError).toBe(true);
    expect(own instanceof b.NotFoundError).toBe(true);
    expect(cb.make({ ...init, statusCode: 404, code: null, details: null }) instanceof AppError).toBe(false);
  });
});

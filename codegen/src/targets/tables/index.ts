import type { Target } from "../target.js";
import { emitHostTable } from "./host-table.js";
import { emitPythonTable } from "./python-table.js";

/** Where the operation tables go, by layout (the hosts' TypeScript table only in the repository). */
export const TABLES_PATHS = {
  repository: {
    pythonTable: "packages/types/generated/operations.json",
    hostTable: "packages/types/generated/operations.generated.ts",
  },
  standalone: { pythonTable: "operations.json" },
} as const;

/**
 * `tables`: the operation table in the Python Client SDK's terms
 * (`operations.json`), and in the repository the hosts' table
 * (`operations.generated.ts`, docs/python.md). In the repository it shares the
 * types' folder, so each comes with the other.
 */
export const tablesTarget: Target = {
  name: "tables",
  summary: "the operation tables (operations.json; the hosts' operations.generated.ts in the repository)",
  needs: "`tables`: nothing (data)",
  roles: {
    "operations.json":
      "the operation table in the Python Client SDK's terms (method, path, request location, success status, type names), for hosts",
  },
  byDefault: { repository: true, standalone: true },
  folder: () => "packages/types/generated",
  requires: (layout) => (layout === "repository" ? ["types"] : []),
  emit({ ir, layout }) {
    const files = new Map<string, string>([[TABLES_PATHS[layout].pythonTable, emitPythonTable(ir)]]);
    if (layout === "repository") files.set(TABLES_PATHS.repository.hostTable, emitHostTable(ir));
    return { files };
  },
};

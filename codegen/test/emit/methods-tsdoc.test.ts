import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const root = (file: string) => fileURLToPath(new URL(`../../../${file}`, import.meta.url));
const spec = parse(readFileSync(root("openapi.yaml"), "utf8")) as {
  paths: Record<string, Record<string, Record<string, any>>>;
};
const methods = readFileSync(root("packages/sdk/src/generated/methods.ts"), "utf8");

const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, op]) => typeof op === "object" && op !== null && typeof op.operationId === "string")
    .map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
);
const camel = (id: string) => id.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

describe("generated methods of openapi.yaml", () => {
  it("one camelCase method per operation", () => {
    expect(operations.length).toBe(130);
    for (const { op } of operations)
      expect(methods, op.operationId).toMatch(new RegExp(`\\n  ${camel(op.operationId)}\\(`));
  });

  it.each(operations.map((o) => [o.op.operationId as string, o] as const))(
    "%s has TSDoc with summary, path, retry class, access and statuses",
    (id, { path, method, op }) => {
      const at = methods.indexOf(`\n  ${camel(id)}(`);
      const doc = methods.slice(methods.lastIndexOf("/**", at), at);
      expect(doc).toContain(op.summary);
      expect(doc).toContain(`\`${method} ${path}\` (operationId \`${id}\`)`);
      expect(doc).toContain(`Retry class: ${op["x-powercontext-retry-class"]}.`);
      const access = op["x-powercontext-access"];
      if (access?.action) expect(doc).toContain(`\`${access.action}\``);
      else if (access?.resolver) expect(doc).toContain(`rule \`${access.resolver}\``);
      else expect(doc).toContain("Permission: none checked");
      for (const status of Object.keys(op.responses)) expect(doc).toContain(status);
    },
  );
});

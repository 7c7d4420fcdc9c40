import {
  EXTENSIONS_SCHEMA,
  EXTENSIONS_SCHEMA_PATH,
  FACT_PLACES,
  placeExtensions,
  referenced,
  type FactSchema,
} from "../../facts/schema.js";

const PLACE_TITLES = {
  document: "On the document",
  operation: "On an operation",
  response: "On a response",
  schema: "On a component schema",
} as const;

/**
 * Emits docs/extensions.md, the reference of every `x-powercontext-*` extension,
 * from `extensions.schema.json`: a table per place (document, operation, response,
 * component schema) with each extension's origin, written shape and meaning, then
 * a section per object the extensions are made of, one row per member (its shape,
 * what it is when left out, what it means), and the model rules as one table.
 *
 * @param regenerate - the command that rewrites the file, named in its banner
 */
export function emitExtensionReference(regenerate: string): string {
  const lines = [
    "# The x-powercontext-* extensions",
    "",
    `<!-- Generated from ${EXTENSIONS_SCHEMA_PATH} by ${regenerate}; do not edit. -->`,
    "",
    "Every vendor extension the generator reads, where it stands, its shape and what it means.",
    "The loader checks each one against the schema named above; what one extension cannot say",
    "alone (a name that must be an operationId, a registry code or resource, a request member)",
    "the generator checks when it builds its IR. Extensions of origin `ours` are written by",
    "`contract/overlay/` and are no wire facts; those of origin `release` are the released",
    "server's own, kept as it has them (docs/architecture.md, \"Vendor extensions read by the",
    'generator"). A spec may use another prefix (`--extension-prefix`).',
    "",
  ];
  const sections = new Set<string>();
  for (const place of FACT_PLACES) {
    lines.push(
      `## ${PLACE_TITLES[place]}`,
      "",
      "| extension | origin | shape | meaning |",
      "| --- | --- | --- | --- |",
    );
    for (const [name, schema] of placeExtensions(place)) {
      const target = referenced(schema);
      const described = target?.definition ?? schema;
      if (target !== undefined) sections.add(target.name);
      lines.push(
        row([`\`${name}\``, String(described["x-origin"] ?? schema["x-origin"] ?? ""), shape(schema), text(described)]),
      );
    }
    lines.push("");
  }
  lines.push("## The objects they are made of", "");
  for (const name of objectDefinitions(sections)) lines.push(...definitionSection(name));
  return `${lines.join("\n").trimEnd()}\n`;
}

/** The definitions with members, in schema order: those the extensions name, then every other one they reach. */
function objectDefinitions(named: ReadonlySet<string>): string[] {
  const all = Object.entries(EXTENSIONS_SCHEMA.$defs).filter(
    ([name, d]) =>
      !(FACT_PLACES as readonly string[]).includes(name) && (d.properties !== undefined || isRuleChoice(d)),
  );
  return [...all.filter(([n]) => named.has(n)), ...all.filter(([n]) => !named.has(n))]
    .map(([n]) => n)
    .filter((n) => !n.startsWith("rule-") || n === "rule-condition");
}

function isRuleChoice(definition: FactSchema): boolean {
  return definition.discriminator !== undefined;
}

function definitionSection(name: string): string[] {
  const definition = EXTENSIONS_SCHEMA.$defs[name] as FactSchema;
  const lines = [`### \`${name}\``, "", text(definition), ""];
  if (isRuleChoice(definition)) {
    lines.push("| rule | arguments | meaning |", "| --- | --- | --- |");
    for (const branch of definition.oneOf as FactSchema[]) {
      const rule = referenced(branch)?.definition ?? {};
      const properties = Object.entries((rule.properties ?? {}) as Record<string, FactSchema>);
      const tag = properties.find(([key]) => key === "rule")?.[1].const;
      const args = properties
        .filter(([key]) => key !== "rule")
        .map(([key, member]) => `\`${key}\`${leftOut(member, (rule.required ?? []) as string[], key, true)}`);
      lines.push(row([`\`${String(tag)}\``, args.join(", "), text(rule)]));
    }
    return [...lines, ""];
  }
  const required = (definition.required ?? []) as string[];
  lines.push("| member | shape | left out | meaning |", "| --- | --- | --- | --- |");
  for (const [key, member] of Object.entries(definition.properties as Record<string, FactSchema>))
    lines.push(row([`\`${key}\``, shape(member), leftOut(member, required, key, false), text(member)]));
  return [...lines, ""];
}

/** What a member is when the spec leaves it out. */
function leftOut(member: FactSchema, required: readonly string[], key: string, brief: boolean): string {
  const fallback = member.default ?? referenced(member)?.definition.default;
  if (required.includes(key)) return brief ? "" : "required";
  if (typeof member["x-derived"] === "string") return brief ? "" : `never written: ${member["x-derived"]}`;
  if (typeof member["x-default"] === "string")
    return brief ? ` (default: ${member["x-default"]})` : member["x-default"];
  if (fallback !== undefined)
    return brief ? ` (default \`${JSON.stringify(fallback)}\`)` : `\`${JSON.stringify(fallback)}\``;
  return brief ? " (optional)" : "none";
}

/** The written shape of a value, in a few words. */
function shape(schema: FactSchema): string {
  const target = referenced(schema);
  if (target !== undefined) {
    const d = target.definition;
    if (d.properties !== undefined || isRuleChoice(d)) return `[\`${target.name}\`](#${target.name})`;
    // A named word for a string or scalar definition (`member`, `scalar`), else its shape.
    return d.type === "string" || Array.isArray(d.type) ? target.name.replace(/-/g, " ") : shape(d);
  }
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `\`${String(v)}\``).join(", ");
  const forms = (schema.oneOf ?? schema.anyOf) as FactSchema[] | undefined;
  if (forms !== undefined)
    return forms.map((form) => (form.properties !== undefined ? written(form) : shape(form))).join(" or ");
  const kinds = Array.isArray(schema.type) ? (schema.type as string[]) : [String(schema.type)];
  return kinds
    .map((kind) => {
      if (kind === "array") return `list of ${shape((schema.items ?? {}) as FactSchema)}`;
      if (kind === "object" && schema.properties === undefined && schema.additionalProperties !== undefined)
        return `map to ${shape(schema.additionalProperties as FactSchema)}`;
      if (kind === "object" && schema.properties !== undefined) return written(schema);
      if (kind === "object") return "object";
      if (kind === "undefined") return typeof schema.title === "string" ? schema.title : "any";
      return kind;
    })
    .join(" or ");
}

/** An object's written members, `?` after those it may leave out: `{ of, bare? }`. */
function written(schema: FactSchema): string {
  const required = (schema.required ?? []) as string[];
  const members = Object.entries(schema.properties as Record<string, FactSchema>)
    .filter(([, member]) => member["x-derived"] === undefined)
    .map(([key]) => (required.includes(key) ? key : `${key}?`));
  return `\`{ ${members.join(", ")} }\``;
}

function text(schema: FactSchema): string {
  return typeof schema.description === "string" ? schema.description : "";
}

/** A table row, with the cells' own pipes and line breaks escaped. */
function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, "\\|").replace(/\n/g, " ")).join(" | ")} |`;
}

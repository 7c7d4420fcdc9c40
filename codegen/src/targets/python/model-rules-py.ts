import type { ModelRuleIr, SchemaIr } from "../../ir/model.js";
import { pyLiteral, pyString } from "./literal.js";

/**
 * The model rules of a schema (`SchemaIr.rules`, docs/architecture.md "Model rules")
 * as pydantic validators, to be appended to the class datamodel-code-generator wrote
 * for the schema. `trim` becomes a `mode="before"` model validator on the raw input;
 * every other rule is checked in one `mode="after"` model validator on the members the
 * input had, by wire name (`sent`, values as validated); the conditions read the model
 * with its defaults (`at`). Spec names reach the code only as string literals; the
 * messages name the member and the rule, never a value.
 *
 * @returns the methods' source, indented for a class body, or null without rules
 */
export function pythonRuleMethods(schema: SchemaIr): string | null {
  if (schema.rules.length === 0) return null;
  const trims = schema.rules.flatMap((rule) => (rule.kind === "trim" ? rule.members : []));
  const checks = schema.rules.filter((rule) => rule.kind !== "trim");
  const methods: string[] = [];
  if (trims.length > 0) methods.push(trimMethod(trims));
  if (checks.length > 0) methods.push(checkMethod(schema.name, checks));
  return methods.join("\n");
}

function tuple(values: readonly unknown[]): string {
  return pyLiteral(values, { tuples: true, width: Number.MAX_SAFE_INTEGER });
}

function trimMethod(members: readonly string[]): string {
  return `    @model_validator(mode="before")
    @classmethod
    def _trim_members(cls, data: Any) -> Any:
        """Model rule trim: these string members are read without surrounding whitespace."""
        if not isinstance(data, dict):
            return data
        trimmed = dict(data)
        for name in ${tuple(members)}:
            if isinstance(trimmed.get(name), str):
                trimmed[name] = trimmed[name].strip()
        return trimmed
`;
}

function checkMethod(className: string, rules: readonly ModelRuleIr[]): string {
  const needsWhole = rules.some((rule) => rule.kind === "required-when" || rule.kind === "forbidden-unless");
  const body = rules.map(checkOf).join("");
  return `    @model_validator(mode="after")
    def _check_model_rules(self) -> ${className}:
        """The model rules of the contract (x-powercontext-rules), checked on the members as sent."""
        fields = type(self).model_fields
        sent = {field.alias or name: getattr(self, name) for name, field in fields.items() if name in self.model_fields_set}
${needsWhole ? AT_HELPER : ""}${body}        return self
`;
}

/** Reads the value at a path of wire names, defaults applied; a missing step reads as None. */
const AT_HELPER = `
        def at(*path: str) -> Any:
            value: Any = self
            for step in path:
                if isinstance(value, BaseModel):
                    value = {field.alias or name: getattr(value, name) for name, field in type(value).model_fields.items()}
                value = value.get(step) if isinstance(value, dict) else None
            return value

`;

/** The Python statements (8 spaces in) that check one rule. */
function checkOf(rule: ModelRuleIr): string {
  switch (rule.kind) {
    case "trim":
      return "";
    case "not-null":
      return `        for name in ${tuple(rule.members)}:
            if name in sent and sent[name] is None:
                raise ValueError(f"{name} is null; leave the member out instead")
`;
    case "finite-numbers":
      return `        pending = [sent[name] for name in ${tuple(rule.members)} if name in sent]
        while pending:
            item = pending.pop()
            if isinstance(item, float) and (item != item or item in (float("inf"), float("-inf"))):
                raise ValueError("a number is NaN or infinite")
            if isinstance(item, BaseModel):
                pending.extend(dict(item).values())
            elif isinstance(item, dict):
                pending.extend(item.values())
            elif isinstance(item, list | tuple):
                pending.extend(item)
`;
    case "not-blank":
      return `        for name in ${tuple(rule.members)}:
            if isinstance(sent.get(name), str) and not sent[name].strip():
                raise ValueError(f"{name} is blank")
`;
    case "unique-items":
      return `        for name in ${tuple(rule.members)}:
            items = sent.get(name)
            if isinstance(items, list) and any(item in items[:index] for index, item in enumerate(items)):
                raise ValueError(f"{name} holds an item twice")
`;
    case "relative-path":
      return `        for name in ${tuple(rule.members)}:
            value = sent.get(name)
            for path in value if isinstance(value, list) else [value]:
                if not isinstance(path, str)${rule.allowEmpty ? ' or path == ""' : ""}:
                    continue
                if (
                    any(part in ("", ".", "..") for part in path.split("/"))
                    or any(char in path for char in "\\\\:\\x00")
                    or any("\\ud800" <= char <= "\\udfff" for char in path)
                ):
                    raise ValueError(f"{name} is not a repository-relative path")
`;
    case "span":
      return `        start, end = sent.get(${pyString(rule.from)}), sent.get(${pyString(rule.to)})
        if isinstance(start, int) and isinstance(end, int) and not ${rule.min} <= end - start <= ${rule.max}:
            raise ValueError(${pyString(`${rule.to} - ${rule.from} must be between ${rule.min} and ${rule.max}`)})
`;
    case "required-when":
    case "forbidden-unless": {
      const holds = rule.kind === "required-when";
      return `        if at(${rule.when.path.map(pyString).join(", ")}) ${holds ? "in" : "not in"} ${tuple(rule.when.in)} and sent.get(${pyString(rule.member)}) is ${holds ? "None" : "not None"}:
            raise ValueError(${pyString(`${rule.member} is ${holds ? "required" : "not allowed"} when ${rule.when.path.join(".")} is ${holds ? "" : "not "}one of ${rule.when.in.map(String).join(", ")}`)})
`;
    }
    case "max-items-together":
      return `        if sum(len(sent[name]) for name in ${tuple(rule.members)} if isinstance(sent.get(name), list)) > ${rule.max}:
            raise ValueError(${pyString(`${rule.members.join(" and ")} together hold more than ${rule.max} items`)})
`;
    case "exclusive":
      return `        given = [name for name in ${tuple(rule.members)} if name in sent]
        if len(given) != 1 or sent[given[0]] is None:
            raise ValueError(${pyString(`exactly one of ${rule.members.join(", ")} must be sent, and not null`)})
`;
  }
}

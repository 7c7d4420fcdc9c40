import type { ModelRuleIr, RuleCondition, RuleScalar, SchemaIr } from "../../ir/model.js";
import { pyLiteral, pyString } from "./literal.js";

/**
 * The model rules of a schema (`SchemaIr.rules`, docs/architecture.md "Model rules")
 * as pydantic validators, to be appended to the class datamodel-code-generator wrote
 * for the schema. `trim` becomes a `mode="before"` model validator on the raw input;
 * every other rule is checked in one `mode="after"` model validator on the members the
 * input had, by wire name (`sent`, values as validated); the conditions read the model
 * with its defaults (`at`). Spec names reach the code only as string literals; the
 * messages name the member and the rule, never a value. Only `wire` rules are emitted:
 * the release's own request models check those, so its Python client refuses them before
 * sending; a `runtime` rule is the server's to answer (parity).
 *
 * @returns the methods' source, indented for a class body, or null without wire rules
 */
export function pythonRuleMethods(schema: SchemaIr): string | null {
  const rules = schema.rules.filter((rule) => rule.stage === "wire");
  if (rules.length === 0) return null;
  const trims = rules.flatMap((rule) => (rule.kind === "trim" ? rule.members : []));
  const checks = rules.filter((rule) => rule.kind !== "trim");
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

/** Rules whose check reads values along paths (`at`, `values`). */
const PATH_RULES = new Set<ModelRuleIr["kind"]>([
  "required-when",
  "forbidden-unless",
  "items-when",
  "constrain-when",
  "one-of",
  "none-of",
  "different",
  "same",
  "member-of",
  "max-sum",
]);
/** Rules whose check reads a member's strings (`strings`). */
const STRING_RULES = new Set<ModelRuleIr["kind"]>(["no-outer-whitespace", "max-bytes", "excluded-categories"]);

function checkMethod(className: string, rules: readonly ModelRuleIr[]): string {
  const needsPaths = rules.some((rule) => PATH_RULES.has(rule.kind));
  const needsStrings = rules.some((rule) => STRING_RULES.has(rule.kind));
  const body = rules.map(checkOf).join("");
  return `    @model_validator(mode="after")
    def _check_model_rules(self) -> ${className}:
        """The model rules of the contract (x-powercontext-rules), checked on the members as sent."""
        fields = type(self).model_fields
        sent = {field.alias or name: getattr(self, name) for name, field in fields.items() if name in self.model_fields_set}
${needsPaths ? AT_HELPER : ""}${needsStrings ? STRINGS_HELPER : ""}${body}        return self
`;
}

/**
 * Reads values along a path of wire names, defaults applied: `values` gives every value
 * the path reaches (`[]` steps into each item of a list; a missing step reaches none),
 * `at` the first one or None.
 */
const AT_HELPER = `
        def values(*path: str) -> list[Any]:
            from enum import Enum

            found: list[Any] = [self]
            for step in path:
                reached: list[Any] = []
                for value in found:
                    if isinstance(value, BaseModel):
                        value = {field.alias or name: getattr(value, name) for name, field in type(value).model_fields.items()}
                    if step == "[]":
                        reached.extend(value if isinstance(value, list) else [])
                    elif isinstance(value, dict) and value.get(step) is not None:
                        reached.append(value[step])
                found = reached
            return [value.value if isinstance(value, Enum) else value for value in found]

        def at(*path: str) -> Any:
            found = values(*path)
            return found[0] if found else None

`;

/** The strings of a member as sent: the string itself, each item (`name[]`), each key (`name{}`) or value (`name{*}`). */
const STRINGS_HELPER = `
        def strings(member: str) -> list[str]:
            name = member.rstrip("[]{}*")
            value = sent.get(name)
            if isinstance(value, BaseModel):
                value = value.model_dump(by_alias=True)
            if member.endswith("[]"):
                found = value if isinstance(value, list) else []
            elif member.endswith("{}"):
                found = list(value) if isinstance(value, dict) else []
            elif member.endswith("{*}"):
                found = list(value.values()) if isinstance(value, dict) else []
            else:
                found = [value]
            return [item for item in found if isinstance(item, str)]

`;

/** The Python test that a condition holds. */
function holds(when: RuleCondition): string {
  const [listed, negate] = conditionList(when);
  return `at(${when.path.map(pyString).join(", ")}) ${negate ? "not in" : "in"} ${tuple(listed)}`;
}

function conditionWords(when: RuleCondition): string {
  const [listed, negate] = conditionList(when);
  return `${when.path.join(".")} is ${negate ? "none" : "one"} of ${listed.map(String).join(", ")}`;
}

/** The values a condition lists, and whether the value must be none of them (`not-in`). */
function conditionList(when: RuleCondition): [readonly RuleScalar[], boolean] {
  return when.in !== null ? [when.in, false] : [when.notIn ?? [], true];
}

function pathArgs(path: readonly string[]): string {
  return path.map(pyString).join(", ");
}

/** The Python statements (8 spaces in) that check one rule. */
function checkOf(rule: ModelRuleIr): string {
  switch (rule.kind) {
    case "trim":
    case "sort-items":
    case "null-as-absent":
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
    case "zip-archive":
      return `        import re

        for name in ${tuple(rule.members)}:
            value = sent.get(name)
            if isinstance(value, str) and (
                len(value) % 4 != 0
                or not re.fullmatch(r"[A-Za-z0-9+/]*={0,2}", value)
                or not value.startswith(("UEsDB", "UEsFB"))
            ):
                raise ValueError(f"{name} is not a ZIP archive in base64")
`;
    case "unique-items": {
      const by =
        rule.by === null
          ? "item"
          : // a dotted key names a member nested in the item
            `tuple(functools.reduce(lambda at, step: at.get(step) if isinstance(at, dict) else None, key.split("."), getattr(item, "model_dump", lambda **_: item)(by_alias=True)) for key in ${tuple(rule.by)})`;
      const key =
        rule.compare === "nfc-casefold"
          ? `(unicodedata.normalize("NFC", item).casefold() if isinstance(item, str) else ${by})`
          : by;
      const imports = [
        ...(rule.by === null ? [] : ["functools"]),
        ...(rule.compare === "nfc-casefold" ? ["unicodedata"] : []),
      ];
      return `${imports.map((name) => `        import ${name}\n`).join("")}${imports.length > 0 ? "\n" : ""}        for name in ${tuple(rule.members.map((m) => m.replace(/\[\]$/, "")))}:
            items = sent.get(name)
            keys = [${key} for item in items] if isinstance(items, list) else []
            if any(key in keys[:index] for index, key in enumerate(keys)):
                raise ValueError(f"{name} holds an item twice")
`;
    }
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
    case "before":
      return `        start, end = sent.get(${pyString(rule.from)}), sent.get(${pyString(rule.to)})
        instant = __import__("datetime").datetime
        if isinstance(start, instant) and isinstance(end, instant) and start >= end:
            raise ValueError(${pyString(`${rule.from} must be before ${rule.to}`)})
`;
    case "span":
      return `        start, end = sent.get(${pyString(rule.from)}), sent.get(${pyString(rule.to)})
        if isinstance(start, int) and isinstance(end, int) and not ${rule.min} <= end - start <= ${rule.max}:
            raise ValueError(${pyString(`${rule.to} - ${rule.from} must be between ${rule.min} and ${rule.max}`)})
`;
    case "required-when":
      return `        if ${holds(rule.when)} and sent.get(${pyString(rule.member)}) is None:
            raise ValueError(${pyString(`${rule.member} is required when ${conditionWords(rule.when)}`)})
`;
    case "forbidden-unless":
      return `        if not (${holds(rule.when)}) and sent.get(${pyString(rule.member)}) is not None:
            raise ValueError(${pyString(`${rule.member} is only allowed when ${conditionWords(rule.when)}`)})
`;
    case "items-when": {
      const bounds = [
        rule.min === null ? null : `count < ${rule.min}`,
        rule.max === null ? null : `count > ${rule.max}`,
      ].filter((b) => b !== null);
      return `        count = len(sent.get(${pyString(rule.member)}) or [])
        if ${holds(rule.when)} and (${bounds.join(" or ")}):
            raise ValueError(${pyString(`${rule.member} holds ${rule.min ?? 0} to ${rule.max ?? "any number of"} items when ${conditionWords(rule.when)}`)})
`;
    }
    case "constrain-when": {
      const tests = [
        rule.in === null ? null : `value not in ${tuple(rule.in)}`,
        rule.notIn === null ? null : `value in ${tuple(rule.notIn)}`,
        rule.min === null ? null : `(isinstance(value, int | float) and value < ${rule.min})`,
        rule.max === null ? null : `(isinstance(value, int | float) and value > ${rule.max})`,
        rule.pattern === null
          ? null
          : `(isinstance(value, str) and __import__("re").search(${pyString(rule.pattern)}, value) is None)`,
      ].filter((t) => t !== null);
      return `        if ${holds(rule.when)} and any(${tests.join(" or ")} for value in values(${pathArgs(rule.path)})):
            raise ValueError(${pyString(`${rule.path.join(".")} is not allowed when ${conditionWords(rule.when)}`)})
`;
    }
    case "one-of":
    case "none-of":
      return `        if any(value ${rule.kind === "one-of" ? "not in" : "in"} ${tuple(rule.in)} for value in values(${pathArgs(rule.path)})):
            raise ValueError(${pyString(`${rule.path.join(".")} must ${rule.kind === "one-of" ? "" : "not "}be one of ${rule.in.map(String).join(", ")}`)})
`;
    case "same": {
      const [a = [], b = []] = rule.paths;
      return `        if at(${pathArgs(a)}) != at(${pathArgs(b)}):
            raise ValueError(${pyString(`${a.join(".")} and ${b.join(".")} must be equal`)})
`;
    }
    case "digest":
      // Runtime only (the rule language allows no wire digest): the server's to answer.
      return "";
    case "different": {
      const [a = [], b = []] = rule.paths;
      return `        if at(${pathArgs(a)}) is not None and at(${pathArgs(a)}) == at(${pathArgs(b)}):
            raise ValueError(${pyString(`${a.join(".")} and ${b.join(".")} must differ`)})
`;
    }
    case "member-of":
      return `        if at(${pathArgs(rule.path)}) is not None and at(${pathArgs(rule.path)}) not in values(${pathArgs(rule.list)}, "[]"):
            raise ValueError(${pyString(`${rule.path.join(".")} must be one of ${rule.list.join(".")}`)})
`;
    case "max-sum":
      return `        if sum(value for value in values(${pathArgs(rule.path)}) if isinstance(value, int | float)) > ${rule.max}:
            raise ValueError(${pyString(`${rule.path.filter((s) => s !== "[]").join(".")} add up to more than ${rule.max}`)})
`;
    case "no-outer-whitespace":
      return `        for member in ${tuple(rule.members)}:
            if any(text != text.${rule.side === "end" ? "rstrip" : "strip"}() for text in strings(member)):
                raise ValueError(f"{member} has ${rule.side === "end" ? "trailing" : "surrounding"} whitespace")
`;
    case "max-bytes":
      return `${rule.normalize === "nfc-strip" ? "        import unicodedata\n\n" : ""}        for member in ${tuple(rule.members)}:
            if any(len(${rule.normalize === "nfc-strip" ? 'unicodedata.normalize("NFC", text).strip()' : "text"}.encode("utf-8")) > ${rule.max} for text in strings(member)):
                raise ValueError(f"{member} is longer than ${rule.max} bytes")
`;
    case "excluded-categories":
      return `        import unicodedata

        for member in ${tuple(rule.members)}:
            if any(unicodedata.category(char) in ${tuple(rule.categories)} for text in strings(member) for char in text):
                raise ValueError(f"{member} holds a character it may not hold")
`;
    case "after-now":
      return `        from datetime import datetime, timezone

        for name in ${tuple(rule.members)}:
            moment = sent.get(name)
            if isinstance(moment, datetime) and moment.tzinfo is not None and moment <= datetime.now(timezone.utc):
                raise ValueError(f"{name} is not in the future")
`;
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

// The sweep's requests: one per operation, built from openapi.yaml alone. Required
// members only, the first enum value, the smallest value within bounds, and an id that
// names nothing for every path identity, so each server shows what it answers to a
// well-formed request about something that does not exist.
type Schema = { readonly [keyword: string]: unknown };

/** The id sent for every identity: well formed, never assigned by either server. */
export const UNKNOWN_ID = "conformance-unknown-0001";

const MAX_DEPTH = 12;

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Builds request values from the document's schemas (OpenAPI 3.0, `#/components/...` references). */
export class Synthesizer {
  constructor(private readonly document: Schema) {}

  private deref(node: unknown): Schema {
    let current = node;
    for (let i = 0; i < 32 && isObject(current) && typeof current.$ref === "string"; i++) {
      let target: unknown = this.document;
      for (const raw of (current.$ref as string).slice(2).split("/"))
        target = isObject(target) ? target[raw.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
      current = target;
    }
    return isObject(current) ? current : {};
  }

  /** The smallest value the schema accepts, as far as its keywords tell. */
  value(node: unknown, name = "", depth = 0): unknown {
    const schema = this.deref(node);
    if (depth > MAX_DEPTH) return null;
    if ("example" in schema) return schema.example;
    if ("default" in schema && schema.default !== null) return schema.default;
    if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? null;
    if (Array.isArray(schema.allOf)) {
      return Object.assign({}, ...schema.allOf.map((part) => this.value(part, name, depth + 1)).filter(isObject));
    }
    const alternatives = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    if (Array.isArray(alternatives) && alternatives.length > 0) {
      const choice = this.value(alternatives[0], name, depth + 1);
      const mapping = isObject(schema.discriminator) ? schema.discriminator : null;
      if (mapping && isObject(choice) && typeof mapping.propertyName === "string" && isObject(mapping.mapping)) {
        const ref = (alternatives[0] as Schema).$ref;
        const tag = Object.entries(mapping.mapping).find(([, target]) => target === ref)?.[0];
        if (tag !== undefined) return { ...choice, [mapping.propertyName]: tag };
      }
      return choice;
    }
    const type = schema.type ?? (isObject(schema.properties) ? "object" : undefined);
    if (type === "object") return this.object(schema, depth);
    if (type === "array") {
      const count = typeof schema.minItems === "number" ? schema.minItems : 0;
      return Array.from({ length: count }, () => this.value(schema.items, name, depth + 1));
    }
    if (type === "integer" || type === "number")
      return typeof schema.minimum === "number" ? schema.minimum + (schema.exclusiveMinimum === true ? 1 : 0) : 1;
    if (type === "boolean") return false;
    if (type === "string") return this.string(schema, name);
    return null;
  }

  private object(schema: Schema, depth: number): Record<string, unknown> {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const out = Object.fromEntries(
      required.map((member) => [member, this.value(properties[member], member, depth + 1)]),
    );
    return this.satisfying(schema, out, depth);
  }

  /**
   * `value` mended to satisfy the schema's model rules (`x-powercontext-rules`) where a rule
   * names the value to hold: a constant of `one-of` or `constrain-when`, a member a
   * condition requires (built from its schema), none where one is forbidden.
   */
  private satisfying(schema: Schema, value: Record<string, unknown>, depth: number): Record<string, unknown> {
    const rules = Array.isArray(schema["x-powercontext-rules"]) ? (schema["x-powercontext-rules"] as Schema[]) : [];
    const properties = isObject(schema.properties) ? schema.properties : {};
    const at = (path: unknown): unknown =>
      (path as string[]).reduce<unknown>((node, step) => (isObject(node) ? node[step] : undefined), value) ?? null;
    const holds = (when: unknown): boolean => {
      const condition = when as Schema;
      const listed = ((condition.in ?? condition["not-in"]) as unknown[]).includes(at(condition.path));
      return "in" in condition ? listed : !listed;
    };
    const put = (path: unknown, constant: unknown): void => {
      const steps = path as string[];
      let node: unknown = value;
      for (const step of steps.slice(0, -1)) node = step === "[]" ? node : isObject(node) ? node[step] : undefined;
      const last = steps[steps.length - 1] as string;
      for (const target of Array.isArray(node) ? node : [node])
        if (isObject(target) && last in target) (target as Record<string, unknown>)[last] = constant;
    };
    for (const rule of rules) {
      if (rule.rule === "one-of" || (rule.rule === "constrain-when" && Array.isArray(rule.in) && holds(rule.when)))
        put(rule.path, (rule.in as unknown[])[0]);
      if (rule.rule === "required-when" && holds(rule.when) && (value[String(rule.member)] ?? null) === null)
        value[String(rule.member)] = this.value(properties[String(rule.member)], String(rule.member), depth + 1);
      if (rule.rule === "forbidden-unless" && !holds(rule.when)) delete value[String(rule.member)];
    }
    return value;
  }

  private string(schema: Schema, name: string): string {
    if (schema.format === "date-time") return "2030-01-01T00:00:00Z";
    if (schema.format === "uuid") return "00000000-0000-4000-8000-000000000001";
    if (name.endsWith("_id") || name === "id") return UNKNOWN_ID;
    const min = typeof schema.minLength === "number" ? schema.minLength : 1;
    const max = typeof schema.maxLength === "number" ? schema.maxLength : 64;
    const text = "conformance".padEnd(min, "x");
    return text.slice(0, Math.max(min, Math.min(max, text.length)));
  }

  /** A flat request (path, query, header and body members) for an operation of the document. */
  request(operation: Schema, pathItem: Schema): Record<string, unknown> {
    const request: Record<string, unknown> = {};
    const parameters = [
      ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
      ...(Array.isArray(operation.parameters) ? operation.parameters : []),
    ].map((p) => this.deref(p));
    for (const parameter of parameters) {
      const schema = this.deref(parameter.schema);
      if (parameter.in === "path")
        request[String(parameter.name)] =
          schema.type === "string" && !Array.isArray(schema.enum)
            ? UNKNOWN_ID
            : this.value(schema, String(parameter.name));
      else if (parameter.required === true)
        request[String(parameter.name)] = this.value(parameter.schema, String(parameter.name));
    }
    const body = this.deref(operation.requestBody);
    const media = isObject(body.content) ? this.deref((body.content as Schema)["application/json"]) : {};
    if (media.schema !== undefined) Object.assign(request, this.value(media.schema));
    return request;
  }
}

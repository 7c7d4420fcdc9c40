import type { Rule } from "./rule-types.js";
import {
  conditionHolds,
  foldKey,
  isRecord,
  listed,
  propertyOf,
  sameJson,
  strip,
  stringsOf,
  utf8Bytes,
  valueAt,
  valuesAt,
} from "./values.js";

/** What is wrong with an object under one rule: the member (null for the whole object) and our words; null when nothing is. */
export type Finding = { readonly member: string | null; readonly message: string } | null;

type Obj = Readonly<Record<string, unknown>>;

const UNICODE_CATEGORIES = new Map<string, RegExp>();

function categoryPattern(categories: readonly string[]): RegExp {
  const key = categories.join(",");
  let pattern = UNICODE_CATEGORIES.get(key);
  if (pattern === undefined) {
    pattern = new RegExp(`[${categories.map((c) => `\\p{${c}}`).join("")}]`, "u");
    UNICODE_CATEGORIES.set(key, pattern);
  }
  return pattern;
}

function present(object: Obj, member: string): boolean {
  return Object.hasOwn(object, member);
}

function eachMember(members: readonly string[], test: (member: string) => string | null): Finding {
  for (const member of members) {
    const message = test(member);
    if (message !== null) return { member: propertyOf(member), message };
  }
  return null;
}

function isRelativePath(path: string, allowEmpty: boolean): boolean {
  if (allowEmpty && path === "") return true;
  if (/[\\:\u0000]|[\ud800-\udfff]/u.test(path.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""))) return false;
  return path.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

function uniqueKey(item: unknown, by: readonly string[] | null, fold: boolean): unknown {
  if (fold && typeof item === "string") return foldKey(item);
  if (by === null || !isRecord(item)) return item;
  // a member name, or names joined by dots for a member nested in the item
  return by.map((member) => valueAt(item, member.split(".")));
}

function hasDuplicate(items: readonly unknown[], by: readonly string[] | null, fold: boolean): boolean {
  const keys = items.map((item) => uniqueKey(item, by, fold));
  return keys.some((key, index) => keys.slice(0, index).some((earlier) => sameJson(earlier, key)));
}

function isInfinite(value: unknown): boolean {
  if (typeof value === "number") return !Number.isFinite(value);
  if (Array.isArray(value)) return value.some(isInfinite);
  return isRecord(value) && Object.values(value).some(isInfinite);
}

/**
 * The digest a `digest` rule compares with: the `sha256:<hex>` of a value's canonical JSON.
 * The rules engine computes no hash itself (the SDK never checks a digest rule); the reader
 * that checks runtime rules hands one in.
 */
export type DigestOf = (value: unknown) => string;

/**
 * Checks one rule on the object it is declared on. `now` is the clock (ms since the epoch)
 * `after-now` compares with; `digestOf` computes what a `digest` rule compares with
 * (without it, such a rule checks nothing). `trim`, `sort-items` and `null-as-absent` check
 * nothing: they are how the server reads and keeps a member (`rewrite.ts`).
 */
export function checkRule(rule: Rule, object: Obj, now: number, digestOf?: DigestOf): Finding {
  switch (rule.kind) {
    case "trim":
    case "sort-items":
    case "null-as-absent":
      return null;
    case "not-null":
      return eachMember(rule.members, (m) => (present(object, m) && object[m] === null ? `${m} is null` : null));
    case "finite-numbers":
      return eachMember(rule.members, (m) => (isInfinite(object[m]) ? `${m} holds a number that is not finite` : null));
    case "not-blank":
      return eachMember(rule.members, (m) =>
        stringsOf(object, m).some((text) => strip(text) === "") ? `${propertyOf(m)} is blank` : null,
      );
    case "after-now":
      return eachMember(rule.members, (m) => {
        const value = object[m];
        return typeof value === "string" && Date.parse(value) <= now ? `${m} is not in the future` : null;
      });
    case "zip-archive":
      return eachMember(rule.members, (m) =>
        typeof object[m] === "string" && !isZipBase64(object[m] as string)
          ? `${m} is not a ZIP archive in base64`
          : null,
      );
    case "no-outer-whitespace":
      return eachMember(rule.members, (m) =>
        stringsOf(object, m).some((text) => strip(text, rule.side) !== text)
          ? `${propertyOf(m)} has ${rule.side === "end" ? "trailing" : "surrounding"} whitespace`
          : null,
      );
    case "unique-items":
      return eachMember(rule.members, (m) => {
        const items = object[propertyOf(m)];
        return Array.isArray(items) && hasDuplicate(items, rule.by, rule.compare === "nfc-casefold")
          ? `${propertyOf(m)} holds an item twice`
          : null;
      });
    case "relative-path":
      return eachMember(rule.members, (m) => {
        const value = object[m];
        const paths = Array.isArray(value) ? value : [value];
        return paths.some((p) => typeof p === "string" && !isRelativePath(p, rule.allowEmpty))
          ? `${m} is not a repository-relative path`
          : null;
      });
    case "before": {
      const from = typeof object[rule.from] === "string" ? Date.parse(object[rule.from] as string) : Number.NaN;
      const to = typeof object[rule.to] === "string" ? Date.parse(object[rule.to] as string) : Number.NaN;
      return from >= to ? { member: null, message: `${rule.from} is not before ${rule.to}` } : null;
    }
    case "span": {
      const from = object[rule.from];
      const to = object[rule.to];
      if (!Number.isInteger(from) || !Number.isInteger(to)) return null;
      const width = (to as number) - (from as number);
      return width < rule.min || width > rule.max
        ? { member: null, message: `${rule.to} - ${rule.from} is not between ${rule.min} and ${rule.max}` }
        : null;
    }
    case "required-when":
      return conditionHolds(object, rule.when) && (object[rule.member] ?? null) === null
        ? { member: rule.member, message: `${rule.member} is required here` }
        : null;
    case "forbidden-unless":
      return !conditionHolds(object, rule.when) && (object[rule.member] ?? null) !== null
        ? { member: rule.member, message: `${rule.member} is not allowed here` }
        : null;
    case "items-when": {
      if (!conditionHolds(object, rule.when)) return null;
      const items = object[rule.member];
      const count = Array.isArray(items) ? items.length : 0;
      return (rule.min !== null && count < rule.min) || (rule.max !== null && count > rule.max)
        ? { member: rule.member, message: `${rule.member} holds ${count} items, which is not allowed here` }
        : null;
    }
    case "constrain-when": {
      if (!conditionHolds(object, rule.when)) return null;
      const bad = valuesAt(object, rule.path).some(
        (value) =>
          (rule.in !== null && !listed(rule.in, value)) ||
          (rule.notIn !== null && listed(rule.notIn, value)) ||
          (typeof value === "number" &&
            ((rule.min !== null && value < rule.min) || (rule.max !== null && value > rule.max))) ||
          (typeof value === "string" && typeof rule.pattern === "string" && !compiled(rule.pattern).test(value)),
      );
      return bad ? { member: rule.path[0] ?? null, message: `${rule.path.join(".")} is not allowed here` } : null;
    }
    case "one-of":
    case "none-of": {
      const wanted = rule.kind === "one-of";
      return valuesAt(object, rule.path).some((value) => listed(rule.in, value) !== wanted)
        ? { member: rule.path[0] ?? null, message: `${rule.path.join(".")} holds a value not allowed here` }
        : null;
    }
    case "different": {
      const [a = [], b = []] = rule.paths;
      const first = valueAt(object, a);
      return first !== null && sameJson(first, valueAt(object, b))
        ? { member: null, message: `${a.join(".")} and ${b.join(".")} are the same` }
        : null;
    }
    case "same": {
      const [a = [], b = []] = rule.paths;
      return sameJson(valueAt(object, a), valueAt(object, b))
        ? null
        : { member: a[0] ?? null, message: `${a.join(".")} and ${b.join(".")} differ` };
    }
    case "digest": {
      const value = object[rule.member];
      if (digestOf === undefined || typeof value !== "string") return null;
      const of = Object.fromEntries(rule.of.filter((m) => present(object, m)).map((m) => [m, object[m]]));
      return value === digestOf(of)
        ? null
        : { member: rule.member, message: `${rule.member} is not the digest of ${rule.of.join(", ")}` };
    }
    case "member-of": {
      const value = valueAt(object, rule.path);
      return value !== null && !valuesAt(object, [...rule.list, "[]"]).some((item) => sameJson(item, value))
        ? { member: rule.list[0] ?? null, message: `${rule.path.join(".")} is not one of ${rule.list.join(".")}` }
        : null;
    }
    case "max-sum": {
      const sum = valuesAt(object, rule.path).reduce<number>((total, v) => total + (typeof v === "number" ? v : 0), 0);
      return sum > rule.max
        ? { member: rule.path[0] ?? null, message: `the values add up to more than ${rule.max}` }
        : null;
    }
    case "max-bytes":
      return eachMember(rule.members, (m) =>
        stringsOf(object, m).some(
          (text) => utf8Bytes(rule.normalize === "nfc-strip" ? strip(text.normalize("NFC")) : text) > rule.max,
        )
          ? `${propertyOf(m)} is longer than ${rule.max} bytes`
          : null,
      );
    case "max-items-together": {
      const count = rule.members.reduce(
        (n, m) => n + (Array.isArray(object[m]) ? (object[m] as unknown[]).length : 0),
        0,
      );
      return count > rule.max
        ? { member: null, message: `${rule.members.join(" and ")} together hold more than ${rule.max} items` }
        : null;
    }
    case "excluded-categories": {
      const pattern = categoryPattern(rule.categories);
      return eachMember(rule.members, (m) =>
        stringsOf(object, m).some((text) => pattern.test(text))
          ? `${propertyOf(m)} holds a character not allowed`
          : null,
      );
    }
    case "exclusive": {
      const given = rule.members.filter((m) => present(object, m));
      return given.length !== 1 || object[given[0] as string] === null
        ? { member: null, message: `exactly one of ${rule.members.join(", ")} must be sent, and not null` }
        : null;
    }
  }
}

/** Each `pattern` compiled once (a rule table holds a handful), not per value checked. */
const patterns = new Map<string, RegExp>();
function compiled(pattern: string): RegExp {
  let re = patterns.get(pattern);
  if (re === undefined) patterns.set(pattern, (re = new RegExp(pattern, "u")));
  return re;
}

/** Padded standard base64 whose first bytes are a ZIP record signature (`PK\x03\x04` or, empty, `PK\x05\x06`). */
function isZipBase64(text: string): boolean {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return false;
  return text.startsWith("UEsDB") || text.startsWith("UEsFB");
}

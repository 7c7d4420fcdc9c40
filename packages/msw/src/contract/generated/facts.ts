// Generated from codegen/schema/extensions.schema.json by `npm run generate`; do not edit.
// The contract facts as the generator carries them (docs/extensions.md).

/**
 * Cursor paging of a list, for `for await` iteration.
 */
export type PaginationFact = {
    /**
     * The request member carrying the cursor.
     */
    readonly cursorParameter: string;
    /**
     * The response member with the next page's cursor; empty or null on the last page.
     */
    readonly nextCursorField: string;
    /**
     * The response member holding the page's items.
     */
    readonly itemsField: string;
};

/**
 * The request member whose value chooses the media type of the success answer (`get_handoff_report`: `format: markdown` is `text/markdown`); any other value, or none, gets the response's preferred media type. The mock's responder answers in the chosen type.
 */
export type MediaFromFact = {
    /**
     * A request member: a parameter by its wire name, or a body property.
     */
    readonly member: string;
    /**
     * Member value -> a media type the primary success response declares.
     */
    readonly values: {
        readonly [key: string]: string;
    };
};

/**
 * One refusal the server answers when every condition of `when` holds (always, without one).
 */
export type RefusalRuleFact = {
    /**
     * The status of the refusal, 4xx or 5xx.
     */
    readonly status: number;
    /**
     * A code of `x-powercontext-error-codes` with this status.
     */
    readonly code: string;
    /**
     * The envelope's `error.message`.
     */
    readonly message: string;
    /**
     * The envelope's `error.details`.
     */
    readonly details: {
        readonly [key: string]: unknown;
    } | null | null;
    /**
     * The conditions, all of which hold for the refusal to be answered.
     */
    readonly when: {
        /**
         * Only while the server has (`on`) or has no (`off`) inference model.
         */
        readonly inference: "on" | "off" | null;
        /**
         * Only when this request member (or dotted path into one) is there and not null.
         */
        readonly present: string | null;
        /**
         * Only when this request member (or each of these) is absent, null or an empty list (a selection the release's request model requires, evidence a proposal needs).
         */
        readonly empty: string | readonly string[] | null;
        /**
         * Only when the Scope has this work pending (`sources`: Sources past its Memory cursor; `evidence`: Sources with content to extract anywhere in it, for a processor whose window the mock does not keep); needs `scope`.
         */
        readonly pending: "sources" | "evidence" | null;
        /**
         * Only when each of these request members (or dotted paths into one; `list[]` steps into a list's items, any item counts) has this value (an absent member has the value null).
         */
        readonly equals: {
            readonly [key: string]: string | number | boolean | null;
        };
        /**
         * Only when each of these list members holds this value.
         */
        readonly includes: {
            readonly [key: string]: string | number | boolean | null;
        };
        /**
         * Only when each of these members (dotted paths into the request; `list[]` steps into a list's items, `object{}` into an object's keys, any item or key counts) is there with none of these values: an access target outside the families the server resolves for the operation, a key a model does not declare (an empty list: any value).
         */
        readonly outside: {
            readonly [key: string]: readonly (string | number | boolean | null)[];
        };
        /**
         * Only when each of these request members is a number greater than this one (a bound a model the server builds later sets lower than the contract's).
         */
        readonly above: {
            readonly [key: string]: number;
        };
        /**
         * Only when each of these request members is text holding more distinct words than this, as the server's text analysis counts them (NFC, case folded, words of letters and digits, each Han character one word): a bound of its text search.
         */
        readonly wordsAbove: {
            readonly [key: string]: number;
        };
        /**
         * Only when each of these request members is text with whitespace at its start or end (read as the server strips text): an id the handler builds a reference from, such as a Source's from a path.
         */
        readonly untrimmed: readonly string[];
        /**
         * Only when the request names a record the mock does not hold (a target the release's access layer cannot find to authorize).
         */
        readonly unknown: UnknownRecordFact | null;
        /**
         * Only when the mock holds the record the request names with these member values (a Scope's Profile policy with generation on).
         */
        readonly record: StoredRecordFact | null;
        /**
         * Only when the request does not send each of these headers (by name) with this value.
         */
        readonly withoutHeader: {
            readonly [key: string]: string;
        };
    };
    /**
     * The request member naming the Scope: the refusal comes only once that Scope is found (an unknown one is refused first). Left out, the refusal comes before any lookup and before a missing precondition.
     */
    readonly scope: string | null | null;
    /**
     * What the server records when it refuses: `extraction_failure`, the failure its extraction diagnostics then report (`get_capabilities`' `extraction.observation.last_failure`, with the time of the refusal).
     */
    readonly records: {
        readonly extractionFailure: {
            readonly code: string;
            readonly stage: string;
        };
    } | null | null;
};

/**
 * The resource families the mock stores, by snake_case name (docs/adr/0021-mock-resource-engine.md). Member names are dotted paths into a record (`artifact.artifact_id`).
 */
export type ResourcesFact = readonly ({
    readonly name: string;
} & ResourceFact)[];

/**
 * What the operation does to one resource of `x-powercontext-resources`, answered by the mock's generic resource engine.
 */
export type ResourceUseFact = {
    /**
     * A resource of `x-powercontext-resources`.
     */
    readonly name: string;
    /**
     * `create`, `read`, `list`, `change`, `put` (create or change), `remove`, `revision` (one kept version) or `revisions` (all of them, newest first).
     */
    readonly action: "create" | "read" | "list" | "change" | "put" | "remove" | "revision" | "revisions";
    /**
     * Record member -> the request member carrying it, where the request carries it elsewhere (`artifact.artifact_id: target.artifact.artifact_id`).
     */
    readonly from: readonly {
        readonly member: string;
        readonly request: string;
    }[];
    /**
     * Request member -> a resource it must name a record of, in the same collection (and a version that record kept, when the request names one).
     */
    readonly requires: readonly {
        readonly request: string;
        readonly resource: string;
    }[];
    /**
     * A change looks the records `requires` names up after the target's own checks (`expect`, `if_match`), as a handler that checks the version before it reads the new references; by default they come first.
     */
    readonly requiresLast: boolean;
    /**
     * Optimistic concurrency: the request member must equal (as JSON) the record's version, or the record's `member`, else `conflict`. Without `member` the resource has a `version`.
     */
    readonly expect: {
        /**
         * The request member carrying the expected value.
         */
        readonly request: string;
        /**
         * The record member compared instead of the version. A `put` of a record no write made yet compares with the fresh record's (its `initial`).
         */
        readonly member: string | null;
        /**
         * The refusal of a stale expectation.
         */
        readonly conflict: RefusalFact;
        /**
         * Members of `error.details` and where each takes its value: `expected` or `provided`, the request's; `current`, the stored record's.
         */
        readonly details: RefusalDetailsFact;
        /**
         * The value that expects no record yet (`put`); left out, a record must exist.
         */
        readonly absent: number | null;
    } | null;
    /**
     * Optimistic concurrency on the ETag: `If-Match` must be the record's ETag. The resource has an `etag`.
     */
    readonly ifMatch: {
        /**
         * The refusal of another ETag.
         */
        readonly stale: RefusalFact;
        /**
         * The refusal of a request without `If-Match`; left out, such a request goes through.
         */
        readonly missing: RefusalFact | null;
        /**
         * Members of `error.details` and where each takes its value: `expected` or `provided`, the request's; `current`, the stored record's.
         */
        readonly details: RefusalDetailsFact;
    } | null;
    /**
     * A creation keyed by a caller-chosen request member answers the first record again for the same request, and `conflict` for another.
     */
    readonly idempotency: {
        /**
         * A member of a request or a record; dotted for a nested member (`artifact.artifact_id`).
         */
        readonly request: string;
        /**
         * A refusal the contract names: its status and the envelope's `error.code`. The status may be one the operation does not declare (the release sends `404 scope_not_found` and `400 invalid_cursor` on operations whose contract lists neither).
         */
        readonly conflict: RefusalFact;
    } | null;
    /**
     * A creation under a caller-chosen id answers the stored record for the same content, and `conflict` for other content.
     */
    readonly replay: {
        /**
         * A refusal the contract names: its status and the envelope's `error.code`. The status may be one the operation does not declare (the release sends `404 scope_not_found` and `400 invalid_cursor` on operations whose contract lists neither).
         */
        readonly conflict: RefusalFact;
    } | null;
    /**
     * Replaces the resource's `not_found` for this operation.
     */
    readonly notFound: RefusalFact | null;
    /**
     * The refusal of a cursor the list did not hand out for this request; left out, such a list starts over.
     */
    readonly badCursor: RefusalFact | null;
    /**
     * Record members a request naming an existing record must repeat (the record is found by its id and collection alone): another value is `conflict`. A fresh record takes them from the request.
     */
    readonly repeat: {
        readonly members: readonly string[];
        /**
         * A refusal the contract names: its status and the envelope's `error.code`. The status may be one the operation does not declare (the release sends `404 scope_not_found` and `400 invalid_cursor` on operations whose contract lists neither).
         */
        readonly conflict: RefusalFact;
    } | null;
    /**
     * A read of an id no record has answers the fresh record (its id and collection keys, `initial` and the digests of those) instead of `not_found`; a `put` under `if_match` of a record no write made yet compares `If-Match` with the fresh record's ETag.
     */
    readonly fresh: boolean;
    /**
     * For a `change`: the request replaces the record's request members, as a PUT does: a member it leaves out takes the value the request schema gives it (its default, or null when nullable) instead of keeping the stored one.
     */
    readonly replace: boolean;
    /**
     * For a `list`: a record member whose highest value, among the records the first page was chosen from, bounds the list; the cursor carries the bound, so later pages leave out records written since and a list followed while writes go on ends.
     */
    readonly bound: string | null;
    /**
     * For a change: the record keeps its version (a decision on a Candidate is no new version of it). The resource has a `version`.
     */
    readonly sameVersion: boolean;
    /**
     * For `remove`: the response member that says whether a record was removed; an unknown id is then no refusal.
     */
    readonly flag: string | null;
    /**
     * A record whose member holds one of the values is final: a change of it is `refusal` (unless `keep` says the request leaves it as it is), before any version or ETag check (a decided Candidate).
     */
    readonly terminal: {
        /**
         * A member of a request or a record; dotted for a nested member (`artifact.artifact_id`).
         */
        readonly member: string;
        readonly values: readonly (string | number | boolean | null)[];
        /**
         * A refusal the contract names: its status and the envelope's `error.code`. The status may be one the operation does not declare (the release sends `404 scope_not_found` and `400 invalid_cursor` on operations whose contract lists neither).
         */
        readonly refusal: RefusalFact;
        /**
         * Detail members of the refusal that take the record's value of `member` (`current`).
         */
        readonly details: RefusalDetailsFact;
        /**
         * A change whose request member `request` holds one of `values` is no refusal while the record's final state is one of `states` (default: any): the final record is answered as it stands, unchanged (a delivery reported as failed after the receipt was settled).
         */
        readonly keep: {
            /**
             * A member of a request or a record; dotted for a nested member (`artifact.artifact_id`).
             */
            readonly request: string;
            readonly values: readonly (string | number | boolean | null)[];
            readonly states: readonly (string | number | boolean | null)[];
        } | null;
    } | null;
    /**
     * A creation whose request `member` holds one of the `ids` keys names its record with that fixed id (a singleton, such as a Scope's one Profile Artifact), or one of the `id_members` keys with the value of that request member (a Prompt Artifact named by its Prompt key); a creation while that record exists is `conflict`, or the refusal `conflicts` gives for that key.
     */
    readonly fixedId: {
        /**
         * A member of a request or a record; dotted for a nested member (`artifact.artifact_id`).
         */
        readonly member: string;
        readonly ids: {
            readonly [key: string]: string;
        };
        readonly idMembers: {
            readonly [key: string]: string;
        };
        /**
         * A refusal the contract names: its status and the envelope's `error.code`. The status may be one the operation does not declare (the release sends `404 scope_not_found` and `400 invalid_cursor` on operations whose contract lists neither).
         */
        readonly conflict: RefusalFact;
        /**
         * The refusal of a creation while the record exists, for a key of `ids` or `id_members` whose refusal is not `conflict` (a Handoff's `artifact_already_exists`).
         */
        readonly conflicts: {
            readonly [key: string]: RefusalFact;
        };
    } | null;
    /**
     * Members the answer leaves out, unless the request sends the header with that value (a newer contract the client speaks).
     */
    readonly omit: {
        readonly members: readonly string[];
        /**
         * `{ <header name>: <value> }`: the header and value that keep the members in.
         */
        readonly unlessHeader: {
            readonly name: string;
            readonly value: string;
        } | null | null;
    } | null;
    /**
     * For a list: `opaque` cursors, bound to the request; `last_id`, the cursor is the id of the page's last record and any text lists the ids after it (the resource is ordered by id).
     * Default: `"opaque"`.
     */
    readonly cursor: "opaque" | "last_id";
    /**
     * Members the write sets to the clock's time (`now`) or to the caller's Principal as the wire names it (`caller`).
     */
    readonly stamp: readonly {
        readonly member: string;
        readonly value: "now" | "caller";
    }[];
    /**
     * Related records a list's filters read beside a record's own members, by the name they are read under: the records of `resource` whose member `on` holds the listed record's id (a Scope's bindings, `bindings: { resource: scope_binding, on: scope_id }`). Filters read them as a list (`bindings[].key.kind`), so filters through one join match on one related record together; the answer does not show them.
     */
    readonly joins: readonly ({
        readonly name: string;
    } & JoinFact)[];
    /**
     * What a list keeps, by record member (dotted, `name[]` for any item of a list: one matching item is enough, and filters through the same list must match on one item together); a request without the filter's value keeps every record.
     */
    readonly filters: readonly ({
        readonly member: string;
    } & FilterFact)[];
    /**
     * Members the operation sets to a constant; for a list, what every listed record is shown (and filtered) with.
     */
    readonly set: {
        readonly [key: string]: string | number | boolean | null;
    };
    /**
     * Members a creation sets to a constant, after `set`, when the request's members hold these values (an absent member holds null): a package the request leaves disabled is skipped as such.
     */
    readonly setWhen: readonly {
        /**
         * Each of these request members has this value, or one of these values.
         */
        readonly when: {
            readonly [key: string]: string | number | boolean | null | readonly (string | number | boolean | null)[];
        };
        readonly set: {
            readonly [key: string]: string | number | boolean | null;
        };
    }[];
    /**
     * The record's member the answer is, for an operation answered with part of its record (a delivery report answers the package's receipt); the whole record without it.
     */
    readonly answerMember: string | null;
    /**
     * A JSON pointer into the body (or into each listed item) where the record sits, for bodies that wrap it; "" for the body itself.
     * Default: `""`.
     */
    readonly recordAt: string;
    /**
     * The list member of a list body.
     * Left out: `x-powercontext-pagination`'s `items_field`, else null; a `list` or `revisions` has one.
     */
    readonly items: string | null;
    /**
     * The request member carrying a page cursor and the response member with the next one.
     * Never written in the spec: from `x-powercontext-pagination`, null without it.
     */
    readonly page: {
        readonly cursor: string;
        readonly nextCursor: string;
    } | null;
    /**
     * Request members that are never stored. The expectation, the cursor, the limit and the filters' request members are controls without being listed.
     */
    readonly controls: readonly string[];
    /**
     * The request member with the page size, which has an integer default in the request schema (a `list` or `revisions` whose request has a `limit` with one uses it without naming it).
     */
    readonly limit: {
        /**
         * The request member.
         */
        readonly request: string;
        /**
         * Its default in the request schema.
         */
        readonly default: number;
    } | null;
};

/**
 * The anchor resource's records a request names, which must exist before the operation runs.
 */
export type AnchorRecordsFact = {
    /**
     * The anchor resource of `x-powercontext-resources`.
     */
    readonly resource: string;
    /**
     * Request member paths of the records' ids (`[]` after a list member).
     */
    readonly requests: readonly string[];
    /**
     * The request member path of the record the server looks up once the request is validated and access decided, before its handler checks anything (an operation of `x-powercontext-scope-mode: current` whose body carries the document's `x-powercontext-scope-field`); absent: every record is looked up where the handler does.
     */
    readonly first: string | null;
};

/**
 * One model rule: what it checks (`rule-check`) and who applies it with which answer (`rule-binding`).
 */
export type ModelRuleFact = RuleCheckFact & RuleBindingFact;

/**
 * How the issues of the runtime model rules reached from an operation's request answer (its `x-powercontext-rule-answer`'s `issues`): `standalone`, `body`, `opaque` or `{ field, reason }`.
 * Default: `"standalone"`.
 */
export type RuleIssuesFact = "standalone" | "body" | "opaque" | {
    readonly field: string;
    readonly reason: string;
};

/**
 * Only when the request names a record the mock does not hold (a target the release's access layer cannot find to authorize).
 */
export type UnknownRecordFact = {
    /**
     * A resource of `x-powercontext-resources`.
     */
    readonly resource: string;
    /**
     * The dotted request path of the record's id; no value there, no condition. Through a list step (`refs[].id`) each item names a record, and one the mock does not hold is enough.
     */
    readonly id: string;
    /**
     * The record's collection keys, one per `within` member of the resource: a dotted request path (from the same item, when it goes through the id's list step), or a constant.
     */
    readonly within: readonly (string | {
        readonly value: string | number | boolean | null;
    })[];
    /**
     * Record member -> the dotted request path of its value: a stored record counts only when it holds each of these values (a Source found by its id must also be of the type the request names).
     */
    readonly holding: {
        readonly [key: string]: string;
    };
};

/**
 * Only when the mock holds the record the request names with these member values (a Scope's Profile policy with generation on).
 */
export type StoredRecordFact = {
    /**
     * A resource of `x-powercontext-resources`.
     */
    readonly resource: string;
    /**
     * The dotted request path of the record's id; no value there, no condition.
     */
    readonly id: string;
    /**
     * The record's collection keys, one per `within` member of the resource: a dotted request path, or a constant.
     */
    readonly within: readonly (string | {
        readonly value: string | number | boolean | null;
    })[];
    /**
     * Record members (dotted) and the value each must have (an absent member has the value null).
     */
    readonly equals: {
        readonly [key: string]: string | number | boolean | null;
    };
};

/**
 * One stored resource family: how its records are named, kept, versioned and refused.
 */
export type ResourceFact = {
    /**
     * The member naming a record, in records and (unless `from` says otherwise) in requests.
     */
    readonly id: string;
    /**
     * Ids the server assigns are `<prefix>_<32 hex digits>` from the seeded sequence; without it the caller names every record.
     */
    readonly prefix: string | null;
    /**
     * The members that select a record's collection (a Scope, a family), each with the resource it must name (null: any value); a request naming no such record is that resource's `not_found`.
     */
    readonly within: readonly {
        readonly member: string;
        readonly resource: string | null;
    }[];
    /**
     * A counter member, set to `start` at creation and +1 on every change.
     */
    readonly version: {
        /**
         * A member of a request or a record; dotted for a nested member (`artifact.artifact_id`).
         */
        readonly member: string;
        /**
         * The version of a new record.
         * Default: `1`.
         */
        readonly start: number;
    } | null;
    /**
     * Every version stays readable (the `revision` and `revisions` actions); needs `version`.
     */
    readonly history: boolean;
    /**
     * The ETag a record is sent with: a template of `{member}` placeholders (`revision:{revision}`), sent quoted.
     */
    readonly etag: string | null;
    /**
     * A member numbered 1, 2, 3, ... per collection at creation.
     */
    readonly sequence: string | null;
    /**
     * Members holding `sha256:<hex>` of other members, computed in order (so a digest may digest an earlier one): of one member's value (a string as it is, anything else as canonical JSON: sorted keys, no spaces), or `{ of: [member, ...], bare? }`, of the canonical JSON object of those members keyed by name, without the `sha256:` prefix when `bare`.
     */
    readonly digests: readonly ({
        readonly member: string;
    } & DigestFact)[];
    /**
     * What a record holds before any write: a new record starts from it (the request's members win), and a `fresh` read answers it.
     */
    readonly initial: {
        readonly [key: string]: string | number | boolean | null | readonly (string | number | boolean | null)[];
    };
    /**
     * Members the server never stores from a request: a record is written with null there whatever the writer gave (a subject's `description`, which the release does not take from a caller as identity). A dotted member is written only where its parent object is there.
     */
    readonly cleared: readonly string[];
    /**
     * The anchor: every operation whose request names one of its records must name an existing one (see `x-powercontext-anchor`). At most one resource is the anchor, a top-level one (no `within`).
     */
    readonly anchor: boolean;
    /**
     * A member set to the clock's time at creation.
     */
    readonly created: string | null;
    /**
     * A member set to the clock's time at creation and at every change.
     */
    readonly updated: string | null;
    /**
     * The member lists are ordered by, ascending; left out, the id.
     */
    readonly order: string | null;
    /**
     * The component schema a record is answered in where an answer's own schema leaves it free-form (a report embedding records): its declared members only, as the release's model of the record serialises it. Left out, such a record is answered as stored.
     */
    readonly shape: string | null;
    /**
     * The refusal of an id no record has.
     */
    readonly notFound: RefusalFact;
};

/**
 * A refusal the contract names: its status and the envelope's `error.code`. The status may be one the operation does not declare (the release sends `404 scope_not_found` and `400 invalid_cursor` on operations whose contract lists neither).
 */
export type RefusalFact = {
    /**
     * The status of the refusal, 4xx or 5xx.
     */
    readonly status: number;
    /**
     * The envelope's `error.code`.
     */
    readonly code: string;
    /**
     * Fixed members of `error.details`.
     */
    readonly details: {
        readonly [key: string]: string | number | boolean | null;
    } | null;
};

/**
 * Members of `error.details` and where each takes its value: `expected` or `provided`, the request's; `current`, the stored record's.
 */
export type RefusalDetailsFact = readonly {
    readonly name: string;
    readonly value: "expected" | "provided" | "current";
}[];

export type JoinFact = {
    /**
     * A resource of `x-powercontext-resources`.
     */
    readonly resource: string;
    /**
     * The related record's member holding the listed record's id.
     */
    readonly on: string;
};

export type FilterFact = {
    /**
     * The request member holding the value to match.
     */
    readonly request: string;
    /**
     * The value when the request has none, for a default the server applies that the request schema does not declare.
     * Left out: the request member's default in the request schema, else null.
     */
    readonly default: string | number | boolean | null | readonly (string | number | boolean | null)[];
    /**
     * `equal`: the record's member equals the value (or is in it, for a list); `contains`: it holds the value as a case-sensitive substring; `folded`: it equals the value after NFC and case folding (as the release matches tags); `range`: it is at or after the value and before the value of `until` (times compared as instants), each bound left open when the request has none.
     * Default: `"equal"`.
     */
    readonly match: "equal" | "contains" | "folded" | "range";
    /**
     * With `match: range`, the request member holding the bound the record's member must come before.
     */
    readonly until: string | null;
    /**
     * The record's value for each value the request may give, where the two spell it differently (a request's `denied` for a record whose member is `false`); a request value not listed is matched as it is.
     */
    readonly values: {
        readonly [key: string]: string | number | boolean | null;
    };
    /**
     * The filter applies only while each of these request members has this value, or one of these values (a search in the field the request names).
     */
    readonly when: {
        readonly [key: string]: string | number | boolean | null | readonly (string | number | boolean | null)[];
    };
};

/**
 * What a model rule checks: `rule` names the check, the other members are its arguments (each branch below describes its rules; members are read camelCased, `rule` as `kind`). `stage` and `answer` belong to `rule-binding`.
 */
export type RuleCheckFact = {
    readonly kind: "not-null" | "finite-numbers";
    /**
     * Left out: every property of the schema carrying the rule.
     */
    readonly members: readonly string[];
} | {
    readonly kind: "trim";
    readonly members: readonly string[];
    /**
     * Default: `"none"`.
     */
    readonly normalize: "none" | "nfc";
} | {
    readonly kind: "not-blank" | "after-now" | "zip-archive";
    readonly members: readonly string[];
} | {
    readonly kind: "no-outer-whitespace";
    readonly members: readonly string[];
    /**
     * Default: `"both"`.
     */
    readonly side: "both" | "end";
} | {
    readonly kind: "unique-items";
    readonly members: readonly string[];
    readonly by: readonly string[] | null;
    /**
     * Default: `"exact"`.
     */
    readonly compare: "exact" | "nfc-casefold";
} | {
    readonly kind: "relative-path";
    readonly members: readonly string[];
    readonly allowEmpty: boolean;
} | {
    readonly kind: "before";
    readonly from: string;
    readonly to: string;
} | {
    readonly kind: "span";
    readonly from: string;
    readonly to: string;
    /**
     * Default: `0`.
     */
    readonly min: number;
    readonly max: number;
} | {
    readonly kind: "required-when" | "forbidden-unless";
    readonly member: string;
    /**
     * Holds when the value at `path` (defaults applied; a missing step reads as null) is one of `in`, or none of `not-in` (exactly one of them is written).
     */
    readonly when: RuleConditionFact;
} | {
    readonly kind: "items-when";
    readonly member: string;
    /**
     * Holds when the value at `path` (defaults applied; a missing step reads as null) is one of `in`, or none of `not-in` (exactly one of them is written).
     */
    readonly when: RuleConditionFact;
    readonly min: number | null;
    readonly max: number | null;
} | {
    readonly kind: "constrain-when";
    /**
     * Holds when the value at `path` (defaults applied; a missing step reads as null) is one of `in`, or none of `not-in` (exactly one of them is written).
     */
    readonly when: RuleConditionFact;
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly path: readonly string[];
    readonly in: readonly (string | number | boolean | null)[] | null;
    readonly notIn: readonly (string | number | boolean | null)[] | null;
    readonly min: number | null;
    readonly pattern: string | null;
    readonly max: number | null;
} | {
    readonly kind: "one-of" | "none-of";
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly path: readonly string[];
    readonly in: readonly (string | number | boolean | null)[];
} | {
    readonly kind: "different";
    readonly paths: readonly (readonly string[])[];
} | {
    readonly kind: "same";
    readonly paths: readonly (readonly string[])[];
} | {
    readonly kind: "digest";
    readonly member: string;
    readonly of: readonly string[];
} | {
    readonly kind: "member-of";
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly path: readonly string[];
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly list: readonly string[];
} | {
    readonly kind: "max-sum";
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly path: readonly string[];
    readonly max: number;
} | {
    readonly kind: "max-bytes";
    readonly members: readonly string[];
    readonly max: number;
    /**
     * Default: `"none"`.
     */
    readonly normalize: "none" | "nfc-strip";
} | {
    readonly kind: "max-items-together";
    readonly members: readonly string[];
    readonly max: number;
} | {
    readonly kind: "excluded-categories";
    readonly members: readonly string[];
    readonly categories: readonly ("Cc" | "Cf" | "Cs" | "Co" | "Cn")[];
} | {
    readonly kind: "sort-items";
    readonly members: readonly string[];
    /**
     * Default: `"nfc-casefold"`.
     */
    readonly compare: "nfc-casefold";
} | {
    readonly kind: "null-as-absent";
    readonly members: readonly string[];
} | {
    readonly kind: "exclusive";
    readonly members: readonly string[];
};

export type RuleBindingFact = {
    /**
     * wire (default): the release's request model checks it, so the SDK's request validator, the Python models and the mock's access-stage check apply it. runtime: the release checks it after its request model; only the mock applies it, answering with `answer`.
     * Default: `"wire"`.
     */
    readonly stage: "wire" | "runtime";
    /**
     * How the server answers a request breaking a runtime rule. `issue`: 422 invalid_request with details.errors holding one issue of `type` (default value_error) at `loc` (default: the member path from the schema carrying the rule; the operation's x-powercontext-rule-answer may turn it into the body path or into `opaque`). `opaque`: 422 invalid_request, details null. `field`: 422 invalid_request with details {field, reason}. `refusal`: the status, registry code and details given.
     */
    readonly answer: {
        readonly kind: "issue";
        readonly type: string;
        readonly loc: readonly (string | number)[] | "object" | null;
    } | {
        readonly kind: "opaque";
    } | {
        readonly kind: "field";
        readonly field: string;
        readonly reason: string;
    } | {
        readonly kind: "refusal";
        readonly status: number;
        readonly code: string;
        readonly details: {
            readonly [key: string]: unknown;
        } | null;
        readonly access: boolean;
    } | null;
};

export type DigestFact = {
    /**
     * The digested members.
     */
    readonly of: readonly string[];
    /**
     * True when the digest is of the object of the `of` members keyed by name; false when it is of one member's value.
     * Never written in the spec: true for the object form, false for a member name.
     */
    readonly object: boolean;
    /**
     * Leave out the `sha256:` prefix.
     */
    readonly bare: boolean;
};

/**
 * Holds when the value at `path` (defaults applied; a missing step reads as null) is one of `in`, or none of `not-in` (exactly one of them is written).
 */
export type RuleConditionFact = {
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly path: readonly string[];
    readonly in: readonly (string | number | boolean | null)[] | null;
    readonly notIn: readonly (string | number | boolean | null)[] | null;
};

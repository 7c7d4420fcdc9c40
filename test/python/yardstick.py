"""Compare a generated Python layer with the one the Python Client SDK 1.4.1 ships.

    python test/python/yardstick.py --root DIR --package NAME

DIR holds the package NAME (dotted) that our generator wrote from the release's own
contract (``powercontext.http._generated.schema.OPENAPI_SCHEMA``) plus our model rules
(``x-powercontext-rules`` from contract/overlay/model-rules.yaml). Both ``operations``
modules are imported and every attribute of every ``Operation`` is compared, model
types by class name; ``schema.py`` must hold the release's contract (our rules aside).
Both ``models`` modules are compared class by class (yardstick_models.py). Prints the
counts and exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

import powercontext.http._generated.operations as release_operations
from yardstick_models import compare_models

MODULE_CONSTANTS = ("OPENAPI_VERSION", "API_TITLE", "API_DESCRIPTION", "API_VERSION", "FEATURE_CONTRACTS")


# --- operations.py -------------------------------------------------------------------------------


def operation_constants(module: Any) -> dict[str, Any]:
    return {name: value for name, value in vars(module).items() if isinstance(value, module.Operation)}


def comparable(field: str, value: Any) -> Any:
    if field in {"request_type", "response_type"}:
        return None if value is None else value.__name__
    if hasattr(value, "model_dump"):
        return value.model_dump()
    return value


def compare_operations(ours_module: Any) -> tuple[int, int, list[str]]:
    theirs = operation_constants(release_operations)
    ours = operation_constants(ours_module)
    fields = list(release_operations.Operation.model_fields)
    problems: list[str] = []
    missing_fields = [f for f in fields if f not in ours_module.Operation.model_fields]
    problems += [f"our Operation has no field {f}" for f in missing_fields]
    extra_fields = [f for f in ours_module.Operation.model_fields if f not in fields]
    problems += [f"our Operation has an extra field {f}" for f in extra_fields]
    equal = 0
    for name, operation in theirs.items():
        mine = ours.get(name)
        if mine is None:
            problems.append(f"{name}: missing")
            continue
        diffs = [
            f for f in fields if f not in missing_fields and comparable(f, getattr(operation, f)) != comparable(f, getattr(mine, f))
        ]
        if diffs:
            problems += [
                f"{name}.{f}: release {comparable(f, getattr(operation, f))!r}, ours {comparable(f, getattr(mine, f))!r}"
                for f in diffs
            ]
        else:
            equal += 1
    problems += [f"{name}: not in the release" for name in ours if name not in theirs]
    if list(ours) != list(theirs):
        problems.append("the Operation constants are in another order than the release's")
    for constant in MODULE_CONSTANTS:
        if getattr(ours_module, constant, None) != getattr(release_operations, constant):
            problems.append(f"{constant} differs")
    return equal, len(theirs), problems


def runtime_unique(document: dict[str, Any]) -> set[tuple[str, str]]:
    """(schema, member) of every runtime ``unique-items`` rule: a check the release's request model does not make."""

    return {
        (name, member)
        for name, schema in document["components"]["schemas"].items()
        for rule in schema.get("x-powercontext-rules", [])
        if rule.get("rule") == "unique-items" and rule.get("stage") == "runtime"
        for member in rule.get("members", [])
    }


def runtime_null(document: dict[str, Any]) -> set[tuple[str, str]]:
    """(schema, member) of every ``null-as-absent`` rule: a member the release's request model takes as null."""

    return {
        (name, member)
        for name, schema in document["components"]["schemas"].items()
        for rule in schema.get("x-powercontext-rules", [])
        if rule.get("rule") == "null-as-absent"
        for member in rule.get("members", [])
    }


def without_null(value: dict[str, Any]) -> dict[str, Any]:
    """A member's schema as the release's contract writes it: without the null it takes (``nullable``, and
    the ``allOf`` wrapping a reference that carried it)."""

    out = {k: v for k, v in value.items() if k != "nullable"}
    parts = out.get("allOf")
    if isinstance(parts, list) and len(parts) == 1 and isinstance(parts[0], dict) and set(parts[0]) == {"$ref"}:
        out = {**{k: v for k, v in out.items() if k != "allOf"}, "$ref": parts[0]["$ref"]}
    return out


def without_rules(
    document: dict[str, Any],
    unique: set[tuple[str, str]] = frozenset(),
    nullable: set[tuple[str, str]] = frozenset(),
) -> dict[str, Any]:
    """The document without our ``x-powercontext-rules`` (annotations the release's contract does not carry).

    At the members of ``unique`` (runtime ``unique-items`` rules) ``uniqueItems`` is left out too, and at
    those of ``nullable`` (``null-as-absent`` rules) the null the member takes: the wire schema follows
    the release's request model where its contract states more, or less, than the model does.
    """

    def member_schema(name: str, member: str, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        out = {k: v for k, v in value.items() if not ((name, member) in unique and k == "uniqueItems")}
        return without_null(out) if (name, member) in nullable else out

    def stripped(name: str, schema: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in schema.items() if k != "x-powercontext-rules"}
        properties = out.get("properties")
        if isinstance(properties, dict):
            out["properties"] = {member: member_schema(name, member, value) for member, value in properties.items()}
        return out

    schemas = {name: stripped(name, schema) for name, schema in document["components"]["schemas"].items()}
    return {**document, "components": {**document["components"], "schemas": schemas}}


def first_differences(ours: Any, theirs: Any, at: str = "", found: list[str] | None = None) -> list[str]:
    """The JSON pointers of the first few places where two documents differ."""

    found = [] if found is None else found
    if len(found) >= 5:
        return found
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs)):
            if ours.get(key) != theirs.get(key):
                first_differences(ours.get(key), theirs.get(key), f"{at}/{key}", found)
    elif ours != theirs:
        found.append(at or "/")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--package", required=True)
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root))
    ours_operations = importlib.import_module(f"{args.package}.operations")
    ours_models_path = args.root.joinpath(*args.package.split("."), "models.py")

    equal, total, operation_problems = compare_operations(ours_operations)
    release_schema = importlib.import_module("powercontext.http._generated.schema").OPENAPI_SCHEMA
    ours_schema = importlib.import_module(f"{args.package}.schema").OPENAPI_SCHEMA
    unique = runtime_unique(ours_schema)
    nullable = runtime_null(ours_schema)
    if without_rules(ours_schema, unique, nullable) != without_rules(release_schema, unique, nullable):
        differences = first_differences(
            without_rules(ours_schema, unique, nullable), without_rules(release_schema, unique, nullable)
        )
        operation_problems.append(f"schema.py: OPENAPI_SCHEMA differs from the release's at {', '.join(differences)}")
    models, model_problems = compare_models(ours_models_path)
    problems = operation_problems + model_problems
    report = {"operations": {"equal": equal, "release": total}, "models": models, "problems": problems}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"yardstick operations.py: {equal} of {total} operations equal field by field")
        vectors = models["vectors"]
        print(
            f"yardstick models.py: {models['equal'] + models['equal_with_rules']} of {models['release_classes']} classes equal "
            f"({models['equal']} as generated, {models['equal_with_rules']} with the model rules); vectors: release "
            f"{vectors['release_agrees']} and ours {vectors['ours_agree']} of {vectors['count']} as expected "
            f"({vectors['refused']} refused); {models['differences']} differences"
        )
        for problem in problems:
            print(f"  DIFF {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

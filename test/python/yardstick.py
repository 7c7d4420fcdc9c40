"""Compare a generated Python layer with the one the Python Client SDK 1.4.1 ships.

    python test/python/yardstick.py --root DIR --package NAME

DIR holds the package NAME (dotted) that our generator wrote from the release's own
contract (``powercontext.http._generated.schema.OPENAPI_SCHEMA``). Both
``operations`` modules are imported and every attribute of every ``Operation`` is
compared, model types by class name. Both ``models`` modules are parsed and compared
class by class; a class that differs must be explained by one of the release's own
post-generation passes (docs/python.md lists them). Prints the counts and exits 1 on
any other difference.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import powercontext.http._generated.models as release_models
import powercontext.http._generated.operations as release_operations

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


# --- models.py -----------------------------------------------------------------------------------


def classes(path: Path) -> tuple[dict[str, ast.ClassDef], list[ast.stmt]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    others = [node for node in tree.body if not isinstance(node, ast.ClassDef)]
    return found, others


def dump(node: ast.AST) -> str:
    return ast.dump(node, include_attributes=False)


def without_methods(node: ast.ClassDef, names: set[str]) -> ast.ClassDef:
    copy = ast.parse(ast.unparse(node)).body[0]
    assert isinstance(copy, ast.ClassDef)
    copy.body = [s for s in copy.body if not (isinstance(s, ast.FunctionDef) and s.name in names)]
    return copy


def removed_methods(node: ast.ClassDef) -> set[str]:
    return {s.name for s in node.body if isinstance(s, ast.FunctionDef)}


class DefaultsAsDicts(ast.NodeTransformer):
    """``Model.model_validate({...})`` in a default, written back as the plain ``{...}``."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "model_validate" and len(node.args) == 1 and not node.keywords:
            return node.args[0]
        return node


def defaults_as_dicts(node: ast.ClassDef) -> ast.ClassDef:
    copy = ast.parse(ast.unparse(node)).body[0]
    return DefaultsAsDicts().visit(copy)


def field_names(node: ast.ClassDef) -> set[str]:
    return {s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}


# Each pass of the release: (name, methods it adds, transform back to generated form).
METHOD_PASSES: list[tuple[str, set[str]]] = [
    ("code-validation", {"_validate_code_operation", "_validate_code_query"}),
    ("search-values", {"_reject_invalid_search_value", "_trim_search_query"}),
    ("candidate-evidence", {"_reject_excess_candidate_evidence"}),
]


def explain(theirs: ast.ClassDef, mine: ast.ClassDef) -> list[str] | None:
    """The passes that turn our class into the release's, or None when none do."""

    applied: list[str] = []
    current = theirs
    for name, methods in METHOD_PASSES:
        if removed_methods(current) & methods:
            current = without_methods(current, methods)
            applied.append(name)
    if dump(current) == dump(mine):
        return applied
    rewritten = defaults_as_dicts(current)
    if dump(rewritten) != dump(current) and dump(rewritten) == dump(mine):
        return [*applied, "model-defaults"]
    return None


def exclusive_fields(name: str, theirs: ast.ClassDef, ours: dict[str, ast.ClassDef]) -> list[str] | None:
    """The release's one-of pass: our ``RootModel[A | B]`` became one model with a validator.

    Returns the names of our member classes it replaced, or None when the pattern does not hold.
    """

    if "_validate_exclusive_fields" not in removed_methods(theirs):
        return None
    mine = ours.get(name)
    if mine is None or not mine.bases or "RootModel" not in ast.unparse(mine.bases[0]):
        return None
    members = [m for m in ours if m != name and m.startswith(name) and m[len(name) :].isdigit()]
    if not members or not all(m in ast.unparse(mine.bases[0]) for m in members):
        return None
    union: set[str] = set()
    for member in members:
        union |= field_names(ours[member])
    return members if field_names(theirs) == union else None


def compare_models(ours_path: Path) -> tuple[dict[str, Any], list[str]]:
    theirs, their_others = classes(Path(release_models.__file__))
    ours, our_others = classes(ours_path)
    problems: list[str] = []
    passes: Counter[str] = Counter()
    equal = 0
    replaced: set[str] = set()
    for name, node in theirs.items():
        members = exclusive_fields(name, node, ours)
        if members is not None:
            passes["exclusive-fields"] += 1
            replaced |= set(members)
            continue
        mine = ours.get(name)
        if mine is None:
            problems.append(f"class {name}: missing from ours")
            continue
        if dump(node) == dump(mine):
            equal += 1
            continue
        applied = explain(node, mine)
        if applied is None:
            problems.append(f"class {name}: differs beyond the release's passes")
        else:
            passes.update(applied)
    problems += [f"class {name}: not in the release" for name in ours if name not in theirs and name not in replaced]
    order_theirs = [n for n in theirs if n in ours]
    order_ours = [n for n in ours if n in theirs]
    if order_theirs != order_ours:
        problems.append("the classes are in another order than the release's")
    problems += compare_module_statements(their_others, our_others)
    summary = {
        "release_classes": len(theirs),
        "equal": equal,
        "explained_by_passes": len(theirs) - equal - sum(1 for p in problems if p.startswith("class ")),
        "passes": dict(sorted(passes.items())),
        "differences": len(problems),
    }
    return summary, problems


def compare_module_statements(theirs: list[ast.stmt], ours: list[ast.stmt]) -> list[str]:
    """Everything but classes must match, except the validator imports the passes add."""

    def normalised(statements: list[ast.stmt]) -> list[str]:
        out = []
        for s in statements:
            if isinstance(s, ast.ImportFrom) and s.module == "pydantic":
                names = sorted(a.name for a in s.names if a.name not in {"field_validator", "model_validator"})
                out.append(f"from pydantic import {', '.join(names)}")
            elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant):
                continue
            else:
                out.append(dump(s))
        return out

    a, b = normalised(theirs), normalised(ours)
    return [] if a == b else [f"module statements differ: release {len(a)}, ours {len(b)}"]


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
    if importlib.import_module(f"{args.package}.schema").OPENAPI_SCHEMA != release_schema:
        operation_problems.append("schema.py: OPENAPI_SCHEMA differs from the release's")
    models, model_problems = compare_models(ours_models_path)
    problems = operation_problems + model_problems
    report = {"operations": {"equal": equal, "release": total}, "models": models, "problems": problems}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"yardstick operations.py: {equal} of {total} operations equal field by field")
        print(
            f"yardstick models.py: {models['release_classes']} classes in the release, {models['equal']} equal as generated, "
            f"{models['explained_by_passes']} equal after the release's passes {models['passes']}, "
            f"{models['differences']} other differences"
        )
        for problem in problems:
            print(f"  DIFF {problem}")
    return 1 if problems else 0



if __name__ == "__main__":
    sys.exit(main())

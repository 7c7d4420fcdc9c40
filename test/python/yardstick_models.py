"""The models.py half of the yardstick (test/python/yardstick.py): class-by-class comparison.

Both files are parsed, never imported. A class that differs must be explained by one of the
Python Client SDK 1.4.1's own post-generation passes (docs/python.md lists them); every
other difference is reported.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path
from typing import Any

import powercontext.http._generated.models as release_models


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

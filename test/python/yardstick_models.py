"""The models.py half of the yardstick (test/python/yardstick.py): class-by-class comparison.

Both files are parsed and compared as syntax trees. A class equals the release's *as
generated* when the trees are the same. A class that carries validators on either side
(the release's own checks; our model rules, docs/architecture.md "Model rules") equals
the release's *with rules* when the trees are the same once the methods are taken out of
both, both have validators, and the model-rule vectors (test/vectors/model-rules.json)
are accepted and refused alike by both, as each vector says, each refusal coming from a
rule (the class without its validators accepts the value). Our validators are not the
release's text: the checks are the same facts, the code and the messages are ours.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import model_vectors
import powercontext.http._generated.models as release_models


def classes(path: Path) -> tuple[dict[str, ast.ClassDef], list[ast.stmt]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    others = [node for node in tree.body if not isinstance(node, ast.ClassDef)]
    return found, others


def dump(node: ast.AST) -> str:
    return ast.dump(node, include_attributes=False)


def methods(node: ast.ClassDef) -> list[str]:
    return [s.name for s in node.body if isinstance(s, ast.FunctionDef)]


def without_methods(node: ast.ClassDef) -> str:
    copy = ast.parse(ast.unparse(node)).body[0]
    assert isinstance(copy, ast.ClassDef)
    copy.body = [s for s in copy.body if not isinstance(s, ast.FunctionDef)]
    return dump(copy)


def import_models(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def compare_vectors(ours_path: Path, ruled: set[str]) -> tuple[dict[str, Any], list[str]]:
    """Runs the vectors on the release's models and ours; every class with rules must have an accepted and a refused one."""

    vectors = model_vectors.load()
    ours = import_models(ours_path, "yardstick_our_models")
    plain = model_vectors.without_rules(ours_path, "yardstick_plain_models")
    release = model_vectors.run(release_models, vectors)
    mine = model_vectors.run(ours, vectors)
    problems = model_vectors.problems(vectors, release, "release") + model_vectors.problems(vectors, mine, "ours")
    problems += model_vectors.not_by_a_rule(vectors, model_vectors.run(plain, vectors))
    for name in sorted(ruled):
        kinds = {o.accepted for o in mine if o.schema == name}
        if kinds != {True, False}:
            problems.append(f"class {name}: the vectors need an accepted and a refused value of it")
    summary = {"count": len(vectors), "refused": sum(1 for v in vectors if not v["valid"]), "release_agrees": sum(1 for a, b in zip(release, vectors, strict=True) if a.accepted == b["valid"])}
    summary["ours_agree"] = sum(1 for a, b in zip(mine, vectors, strict=True) if a.accepted == b["valid"])
    return summary, problems


def compare_models(ours_path: Path) -> tuple[dict[str, Any], list[str]]:
    theirs, their_others = classes(Path(release_models.__file__))
    ours, our_others = classes(ours_path)
    problems: list[str] = []
    equal = 0
    ruled: set[str] = set()
    for name, node in theirs.items():
        mine = ours.get(name)
        if mine is None:
            problems.append(f"class {name}: missing from ours")
        elif dump(node) == dump(mine):
            equal += 1
        elif not methods(node) and not methods(mine):
            problems.append(f"class {name}: differs")
        elif not methods(node) or not methods(mine):
            problems.append(f"class {name}: {'only the release' if methods(node) else 'only ours'} has validators")
        elif without_methods(node) != without_methods(mine):
            problems.append(f"class {name}: differs besides its validators")
        else:
            ruled.add(name)
    problems += [f"class {name}: not in the release" for name in ours if name not in theirs]
    order_theirs = [n for n in theirs if n in ours]
    order_ours = [n for n in ours if n in theirs]
    if order_theirs != order_ours:
        problems.append("the classes are in another order than the release's")
    problems += compare_module_statements(their_others, our_others)
    vectors, vector_problems = compare_vectors(ours_path, ruled)
    problems += vector_problems
    summary = {
        "release_classes": len(theirs),
        "equal": equal,
        "equal_with_rules": len(ruled) if not vector_problems else 0,
        "with_rules": sorted(ruled),
        "vectors": vectors,
        "differences": len(problems),
    }
    return summary, problems


def compare_module_statements(theirs: list[ast.stmt], ours: list[ast.stmt]) -> list[str]:
    """Everything but classes must match, except which validator decorators pydantic is asked for."""

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

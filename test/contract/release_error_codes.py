"""Print, as JSON, every error code the installed PowerContext server can answer with.

Reads the installed package's Python source with `ast` (nothing is imported or run)
and prints `{"code": [status, ...]}`. The codes and their statuses are facts of the
release; the test that calls this compares them with openapi.yaml's
x-powercontext-error-codes registry and commits nothing of what it reads.

Where the server decides a code:
- the error mappers of the HTTP application (functions named `_map_*`): each
  `if isinstance(error, X): return status, code, message, details`;
- direct error answers (`_error_response(...)`, `ErrorDetail(code=...)` with the
  status of the enclosing response, `{"code": ...}` literals beside a status);
- codes carried by the exception (`error.code`, `error.status`, `f"{error.kind}_..."`):
  read from the exception classes (class-level `code = "..."`, constructor defaults)
  and from every place the package constructs them with a literal.

The reading over-approximates on purpose: a status chosen by a condition counts every
branch, so a code may list several statuses.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

STATUS_NAME = re.compile(r"^HTTP_(\d{3})_")


def literal_str(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def arg(node: ast.Call, position: int, keyword: str) -> ast.AST | None:
    for item in node.keywords:
        if item.arg == keyword:
            return item.value
    return node.args[position] if len(node.args) > position else None


class Package:
    """Exception classes and their construction sites across the whole package."""

    def __init__(self, root: Path) -> None:
        self.trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(root.rglob("*.py"))}
        self.bases: dict[str, set[str]] = defaultdict(set)
        self.class_code: dict[str, str] = {}
        self.init_params: dict[str, list[str]] = {}
        self.init_defaults: dict[str, dict[str, ast.AST]] = {}
        self.calls: dict[str, list[ast.Call]] = defaultdict(list)
        # a construction inside `except X as error:` may pass on `error.kind`: X says what it holds
        self.caught: dict[int, set[str]] = {}
        for tree in self.trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    self._read_class(node)
                elif isinstance(node, ast.Call) and (name := call_name(node)) is not None:
                    self.calls[name].append(node)
                elif isinstance(node, ast.ExceptHandler) and node.type is not None:
                    caught = guarded_classes(ast.Call(ast.Name("isinstance"), [ast.Name("error"), node.type], []))
                    for inner in ast.walk(node):
                        if isinstance(inner, ast.Call):
                            self.caught[id(inner)] = caught

    def _read_class(self, node: ast.ClassDef) -> None:
        for base in node.bases:
            if isinstance(base, ast.Name):
                self.bases[node.name].add(base.id)
            elif isinstance(base, ast.Attribute):
                self.bases[node.name].add(base.attr)
        for item in node.body:
            if isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "code" for t in item.targets):
                if (value := literal_str(item.value)) is not None:
                    self.class_code[node.name] = value
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                params = [a.arg for a in item.args.args[1:]]
                defaults = dict(zip(params[len(params) - len(item.args.defaults) :], item.args.defaults))
                defaults.update({a.arg: d for a, d in zip(item.args.kwonlyargs, item.args.kw_defaults) if d is not None})
                self.init_params[node.name] = params + [a.arg for a in item.args.kwonlyargs]
                self.init_defaults[node.name] = defaults

    def family(self, names: set[str]) -> set[str]:
        """The classes named and every subclass of them."""
        found = set(names)
        changed = True
        while changed:
            changed = False
            for name, bases in self.bases.items():
                if name not in found and bases & found:
                    found.add(name)
                    changed = True
        return found

    def attribute_values(self, classes: set[str], attribute: str, depth: int = 0) -> list[tuple[ast.AST | None, ast.Call | None]]:
        """(value, construction) for every literal an attribute of these classes' instances can hold."""
        values: list[tuple[ast.AST | None, ast.Call | None]] = []
        for name in classes:
            if attribute == "code" and name in self.class_code:
                values.append((ast.Constant(self.class_code[name]), None))
            params = self.init_params.get(name, [])
            if attribute not in params:
                continue
            default = self.init_defaults.get(name, {}).get(attribute)
            if default is not None:
                values.append((default, None))
            for call in self.calls.get(name, []):
                value = arg(call, params.index(attribute), attribute)
                if isinstance(value, ast.Attribute) and id(call) in self.caught and depth < 4:
                    # passed on from the exception being handled
                    values.extend(self.attribute_values(self.family(self.caught[id(call)]), value.attr, depth + 1))
                else:
                    values.append((value, call))
        return values


def status_values(node: ast.AST, local: dict[str, ast.AST]) -> set[int]:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return {node.value}
    if isinstance(node, ast.Attribute) and (match := STATUS_NAME.match(node.attr)):
        return {int(match.group(1))}
    if isinstance(node, ast.IfExp):
        return status_values(node.body, local) | status_values(node.orelse, local)
    if isinstance(node, ast.Name) and node.id in local:
        return status_values(local[node.id], local)
    return set()


@dataclass(frozen=True)
class Guard:
    """What the enclosing `if` tests admit: exception classes (subclasses included) and a literal code."""

    classes: set[str]
    code: str | None
    plain: bool

    def narrowed(self, test: ast.AST, package: Package, handled: set[str]) -> Guard:
        named = guarded_classes(test)
        code = guarded_code(test)
        classes = (package.family(named) - package.family(handled)) if named else self.classes
        plain = bool(named) and code is None and not isinstance(test, ast.BoolOp)
        return Guard(classes, code if code is not None else self.code, plain)


def returns(body: list[ast.stmt]) -> bool:
    return any(isinstance(statement, ast.Return) for statement in body)


class Mapper:
    """Reads the `if isinstance(error, X): return (...)` chains of the error mappers."""

    def __init__(self, package: Package) -> None:
        self.package = package
        self.codes: dict[str, set[int]] = defaultdict(set)

    def add(self, codes: set[str], statuses: set[int]) -> None:
        for code in codes:
            self.codes[code] |= statuses

    def function(self, node: ast.FunctionDef) -> None:
        local: dict[str, ast.AST] = {}
        for item in ast.walk(node):
            if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
                local[item.targets[0].id] = item.value
        self.block(node.body, Guard(set(), None, True), local)

    def block(self, body: list[ast.stmt], guard: Guard, local: dict[str, ast.AST]) -> None:
        handled: set[str] = set()
        for statement in body:
            if isinstance(statement, ast.If):
                inner = guard.narrowed(statement.test, self.package, handled)
                self.block(statement.body, inner, local)
                if inner.plain and returns(statement.body):
                    # a later branch never sees what this one answered
                    handled |= inner.classes
                self.block(statement.orelse, guard, local)
            elif isinstance(statement, ast.Return) and isinstance(statement.value, ast.Tuple):
                self.answer(statement.value.elts, guard, local)

    def answer(self, elements: list[ast.expr], guard: Guard, local: dict[str, ast.AST]) -> None:
        if len(elements) < 2:
            return
        status_node, code_node = elements[0], elements[1]
        if isinstance(status_node, ast.Call) and isinstance(status_node.func, ast.Attribute):
            # statuses.get(error.code, default): a table of codes, the default for the rest
            table = local.get(status_node.func.value.id) if isinstance(status_node.func.value, ast.Name) else None
            if isinstance(table, ast.Dict):
                listed = {literal_str(k): status_values(v, local) for k, v in zip(table.keys, table.values)}
                fallback = status_values(status_node.args[1], local) if len(status_node.args) > 1 else set()
                for code in self.codes_of(code_node, guard, local):
                    self.add({code}, listed.get(code, fallback))
                return
        if is_error_attribute(status_node, "status"):
            for code_value, call in self.package.attribute_values(guard.classes, "code"):
                code = literal_str(code_value)
                if code is None or call is None:
                    continue
                status_node_at_site = arg(call, 1, "status")
                defaults = [self.package.init_defaults.get(name, {}).get("status") for name in guard.classes]
                chosen = status_node_at_site or next((d for d in defaults if d is not None), None)
                self.add({code}, status_values(chosen, local) if chosen is not None else set())
            return
        self.add(self.codes_of(code_node, guard, local), status_values(status_node, local))

    def codes_of(self, node: ast.AST, guard: Guard, local: dict[str, ast.AST]) -> set[str]:
        if (value := literal_str(node)) is not None:
            return {value}
        if isinstance(node, ast.IfExp):
            return self.codes_of(node.body, guard, local) | self.codes_of(node.orelse, guard, local)
        if is_error_attribute(node, "code"):
            if guard.code is not None:
                return {guard.code}
            return {v for node_, _ in self.package.attribute_values(guard.classes, "code") if (v := literal_str(node_))}
        if isinstance(node, ast.JoinedStr):
            return self.formatted(node, guard.classes)
        return set()

    def formatted(self, node: ast.JoinedStr, classes: set[str]) -> set[str]:
        """f"{error.kind}_not_found": one code per literal the attribute can hold."""
        results = {""}
        for part in node.values:
            if isinstance(part, ast.Constant):
                results = {r + str(part.value) for r in results}
            elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Attribute):
                values = {v for n, _ in self.package.attribute_values(classes, part.value.attr) if (v := literal_str(n))}
                results = {r + v for r in results for v in values}
            else:
                return set()
        return results


def is_error_attribute(node: ast.AST, attribute: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == attribute and isinstance(node.value, ast.Name)


def guarded_code(test: ast.AST) -> str | None:
    """The literal of an `error.code == "..."` test (possibly inside `and`)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return next((c for v in test.values if (c := guarded_code(v)) is not None), None)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        if is_error_attribute(test.left, "code"):
            return literal_str(test.comparators[0])
    return None


def guarded_classes(test: ast.AST) -> set[str]:
    """The exception classes an `isinstance(error, ...)` test (possibly inside `and`) admits."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return set().union(*(guarded_classes(v) for v in test.values))
    if isinstance(test, ast.Call) and call_name(test) == "isinstance" and len(test.args) == 2:
        target = test.args[1]
        items = target.elts if isinstance(target, ast.Tuple) else [target]
        return {i.id if isinstance(i, ast.Name) else i.attr for i in items if isinstance(i, (ast.Name, ast.Attribute))}
    return set()


def direct_answers(mapper: Mapper, tree: ast.Module) -> None:
    """Error answers built in place: _error_response(...), ErrorDetail(code=...), {"code": ...}."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = call_name(node)
        if name == "_error_response":
            first = literal_str(node.args[0]) if node.args else None
            # two helpers of that name: (status, code=...) and (code, message, status_code, ...)
            code = first if first is not None else literal_str(arg(node, 99, "code"))
            status_node = arg(node, 2, "status_code") if first is not None else arg(node, 0, "status_code")
            if code is not None and status_node is not None:
                mapper.add({code}, status_values(status_node, {}))
        elif name in {"JSONResponse", "Response"}:
            status_node = arg(node, 99, "status_code")
            if status_node is None:
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and call_name(inner) == "ErrorDetail":
                    if (code := literal_str(arg(inner, 0, "code"))) is not None:
                        mapper.add({code}, status_values(status_node, {}))
                if isinstance(inner, ast.Dict):
                    for key, value in zip(inner.keys, inner.values):
                        if literal_str(key) == "code" and (code := literal_str(value)) is not None:
                            mapper.add({code}, status_values(status_node, {}))


def main(root: Path) -> None:
    package = Package(root)
    mapper = Mapper(package)
    for path, tree in package.trees.items():
        if "server" not in path.relative_to(root).parts:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("_map_"):
                mapper.function(node)
        direct_answers(mapper, tree)
    print(json.dumps({code: sorted(statuses) for code, statuses in sorted(mapper.codes.items())}, indent=1))


if __name__ == "__main__":
    import powercontext  # the installed release, located without importing its server

    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(powercontext.__file__).parent)

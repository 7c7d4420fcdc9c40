"""Write the pydantic models of an OpenAPI document with datamodel-code-generator.

Reads ``{"document": <OpenAPI document>, "methods": {<class>: <source>},
"parameters_document": <OpenAPI document> | null, "class_names": [<schema name>, ...]}`` as JSON on
standard input and prints
``{"models": <models.py>, "parameters": <parameters.py> | null}`` on standard output. The options are the ones
the PowerContext Python Client SDK 1.4.1 was generated with (see docs/python.md); only
the paths are dropped, so that the models come from ``components`` alone, and the
component schemas listed in ``class_names`` keep their names as class names (the
generated layer imports them by those names; others get the tool's names). Then two
passes, both re-formatted with the same ruff settings:

- ``methods``: source the TypeScript generator wrote for a class (the validators of its
  model rules) is appended to that class's body;
- a list default whose items are objects of a model class is written as
  ``Model.model_validate({...})`` calls, as the release writes them.

Run by the TypeScript generator (codegen/src/emit/python/models-py.ts) in the
environment that scripts/ci/python-codegen-env.sh creates; it opens no connection.

    python generate_models.py --filename openapi.yaml < input.json > output.json
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Callable
from pathlib import Path

from datamodel_code_generator import GenerateConfig, InputFileType, generate
from datamodel_code_generator.enums import StrictTypes
from datamodel_code_generator.format import CodeFormatter, Formatter, PythonVersion
from datamodel_code_generator.reference import ModelResolver

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--filename", required=True, help="the spec's file name, written into the header")
    args = parser.parse_args()
    given = json.load(sys.stdin)
    methods: dict[str, str] = given.get("methods", {})
    class_name = class_names(set(given.get("class_names", [])))
    try:
        models = with_passes(generate_module(given["document"], args.filename, class_name), methods)
        parameters = (
            None
            if given.get("parameters_document") is None
            else generate_module(given["parameters_document"], args.filename, class_name)
        )
    except (LookupError, TypeError) as error:
        print(f"error: {error.args[0]}", file=sys.stderr)
        return 1
    json.dump({"models": models, "parameters": parameters}, sys.stdout)
    return 0


def class_names(kept: set[str]) -> Callable[[str], str]:
    """The class name of a model: its schema name when listed in ``kept``, else the tool's own (``keyof`` -> ``Keyof``)."""

    default = ModelResolver().default_class_name_generator
    return lambda name: name if name in kept else default(name)


def generate_module(document: dict[str, object], filename: str, class_name: Callable[[str], str]) -> str:
    """One module of models for the components of ``document`` (its paths are dropped)."""

    document["paths"] = {}
    config = GenerateConfig(
        input_filename=filename,
        input_file_type=InputFileType.OpenAPI,
        target_python_version=PythonVersion.PY_311,
        disable_timestamp=True,
        capitalise_enum_members=True,
        field_constraints=True,
        set_default_enum_member=True,
        strict_nullable=True,
        strict_types=list(StrictTypes),
        use_standard_collections=True,
        use_union_operator=True,
        use_annotated=True,
        custom_class_name_generator=class_name,
        formatters=[Formatter.RUFF_FORMAT, Formatter.RUFF_CHECK],
        # ruff runs in this folder and reads its ruff.toml
        settings_path=HERE,
    )
    result = generate(document, config=config)
    if not isinstance(result, str):
        raise TypeError(f"datamodel-code-generator returned {type(result).__name__}, not one module")
    return f"{result.rstrip()}\n"


def with_passes(result: str, methods: dict[str, str]) -> str:
    """The release's shape: the rule validators appended, list defaults of models as ``model_validate`` calls."""

    text = with_model_defaults(with_methods(result, methods))
    if text != result:
        if methods:
            text = with_validator_imports(text)
        formatter = CodeFormatter(PythonVersion.PY_311, settings_path=HERE, formatters=[Formatter.RUFF_FORMAT, Formatter.RUFF_CHECK])
        text = formatter.apply_ruff_check_and_format(text)
    return f"{text.rstrip()}\n"


def replace_spans(text: str, edits: list[tuple[ast.AST, str]]) -> str:
    """``text`` with the source of each node replaced (nodes from one parse of ``text``)."""

    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, column: int) -> int:
        # ast columns count UTF-8 bytes
        return starts[line - 1] + len(lines[line - 1].encode()[:column].decode())

    out = text
    spans = [(offset(n.lineno, n.col_offset), offset(n.end_lineno or n.lineno, n.end_col_offset or 0), new) for n, new in edits]
    for start, end, new in sorted(spans, reverse=True):
        out = out[:start] + new + out[end:]
    return out


def with_methods(text: str, methods: dict[str, str]) -> str:
    """Appends each class's extra methods to its body.

    Raises:
        LookupError: a class the methods name is not in the module.
    """

    if not methods:
        return text
    classes = {node.name: node for node in ast.parse(text).body if isinstance(node, ast.ClassDef)}
    lines = text.splitlines(keepends=True)
    missing = sorted(set(methods) - set(classes))
    if missing:
        raise LookupError(f"the model rules name schemas without a class of that name: {', '.join(missing)}")
    for name in sorted(methods, key=lambda n: classes[n].end_lineno or 0, reverse=True):
        end = classes[name].end_lineno or len(lines)
        lines.insert(end, f"\n{methods[name].rstrip()}\n")
    return "".join(lines)


def list_item_class(annotation: ast.expr, models: set[str]) -> str | None:
    """``X`` of ``list[X]`` (also inside ``Annotated[...]``) when ``X`` is a class of the module."""

    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name):
        if annotation.value.id == "Annotated" and isinstance(annotation.slice, ast.Tuple):
            return list_item_class(annotation.slice.elts[0], models)
        if annotation.value.id == "list" and isinstance(annotation.slice, ast.Name) and annotation.slice.id in models:
            return annotation.slice.id
    return None


def with_model_defaults(text: str) -> str:
    """Writes ``= [{...}, ...]`` defaults of ``list[Model]`` members as ``Model.model_validate`` calls."""

    tree = ast.parse(text)
    models = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    edits: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.AnnAssign) or not isinstance(node.value, ast.List) or not node.value.elts:
            continue
        item = list_item_class(node.annotation, models)
        if item is None or not all(isinstance(element, ast.Dict) for element in node.value.elts):
            continue
        for element in node.value.elts:
            edits.append((element, f"{item}.model_validate({ast.get_source_segment(text, element)})"))
    return replace_spans(text, edits) if edits else text


def with_validator_imports(text: str) -> str:
    """Imports what the appended validators use: ``model_validator`` from pydantic, ``Any`` from typing."""

    tree = ast.parse(text)
    edits: list[tuple[ast.AST, str]] = []
    wanted = {"pydantic": "model_validator", "typing": "Any"}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module in wanted and node.level == 0:
            names = {alias.name for alias in node.names}
            name = wanted.pop(node.module)
            if name not in names and not any(alias.asname for alias in node.names):
                edits.append((node, f"from {node.module} import {', '.join(sorted(names | {name}))}"))
    future = next((n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "__future__"), None)
    if wanted and future is not None:
        added = "".join(f"\nfrom {module} import {name}" for module, name in wanted.items())
        edits.append((future, f"{ast.get_source_segment(text, future)}{added}"))
    return replace_spans(text, edits) if edits else text


if __name__ == "__main__":
    sys.exit(main())

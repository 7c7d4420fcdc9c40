"""Write the pydantic models of an OpenAPI document with datamodel-code-generator.

Reads the document as JSON on standard input and prints ``models.py`` on standard
output. The options are the ones the PowerContext Python Client SDK 1.4.1 was
generated with (see docs/python.md); only the paths are dropped, so that the
models come from ``components`` alone. Run by the TypeScript generator
(codegen/src/emit/python/models-py.ts) in the environment that
scripts/ci/python-codegen-env.sh creates; it opens no connection.

    python generate_models.py --filename openapi.yaml < document.json > models.py
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from datamodel_code_generator import GenerateConfig, InputFileType, generate
from datamodel_code_generator.enums import StrictTypes
from datamodel_code_generator.format import Formatter, PythonVersion

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--filename", required=True, help="the spec's file name, written into the header")
    args = parser.parse_args()
    document = json.load(sys.stdin)
    document["paths"] = {}
    config = GenerateConfig(
        input_filename=args.filename,
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
        formatters=[Formatter.RUFF_FORMAT, Formatter.RUFF_CHECK],
        # ruff runs in this folder and reads its ruff.toml
        settings_path=HERE,
    )
    result = generate(document, config=config)
    if not isinstance(result, str):
        print(f"datamodel-code-generator returned {type(result).__name__}, not one module", file=sys.stderr)
        return 1
    sys.stdout.write(f"{result.rstrip()}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# Create the Python environment the generator runs datamodel-code-generator in
# (codegen/python/generate_models.py writes models.py of the Python layer).
# Every version that shapes the output is pinned, so that generated models are
# byte-for-byte reproducible: the generator at the Python Client SDK 1.4.1's
# version, and the formatter it calls.
#
#   PC_CODEGEN_VENV  venv location (default: <repo>/.venv-codegen)
#   PC_PYTHON        interpreter used to create it (default: python3, 3.11 or newer)
#   PIP_FIND_LINKS   honoured by pip as usual (wheel cache / offline mirror)
#
# Idempotent: when the venv already holds exactly these pins, nothing is installed.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="${PC_CODEGEN_VENV:-$repo/.venv-codegen}"
python="${PC_PYTHON:-python3}"

requirements=(
  "datamodel-code-generator==0.64.0"
  "ruff==0.17.6"
  "black==26.10.1"
  "isort==8.0.1"
  "pydantic==2.14.4"
)
stamp="$venv/.powercontext-codegen-requirements"
wanted="$(printf '%s\n' "${requirements[@]}")"

if [[ ! -x "$venv/bin/python" ]]; then
  echo "python-codegen-env: creating $venv with $("$python" --version 2>&1)"
  "$python" -m venv "$venv"
fi

if [[ -f "$stamp" ]] && [[ "$(cat "$stamp")" == "$wanted" ]]; then
  echo "python-codegen-env: $venv already has the pinned packages"
else
  echo "python-codegen-env: installing ${requirements[*]}"
  "$venv/bin/python" -m pip install --disable-pip-version-check --quiet "${requirements[@]}"
  "$venv/bin/python" -m pip check
  printf '%s\n' "$wanted" > "$stamp"
fi

echo "python-codegen-env: datamodel-code-generator $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("datamodel-code-generator"))'), ruff $("$venv/bin/ruff" --version | cut -d' ' -f2)"

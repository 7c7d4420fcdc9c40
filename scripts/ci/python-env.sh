#!/usr/bin/env bash
# Create the Python environment used by the cross-language checks:
# the released PowerContext server and Python client, schemathesis, and what the
# tests of python/ need (pytest; wheel, to build that package offline; mypy, which
# checks python/src under --strict; the OpenTelemetry SDK, whose in-memory exporter the
# tracing tests read).
#
#   PC_VENV          venv location (default: <repo>/.venv)
#   PC_PYTHON        interpreter used to create it (default: python3)
#   PIP_FIND_LINKS   honoured by pip as usual (wheel cache / offline mirror)
#
# Idempotent: when the venv already holds exactly these pins, nothing is installed.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="${PC_VENV:-$repo/.venv}"
python="${PC_PYTHON:-python3}"

requirements=(
  "powercontext[server,cli]==1.4.1"
  "schemathesis==4.32.5"
  "pytest==9.2.0"
  "wheel==0.45.1"
  "mypy==2.4.1"
  "opentelemetry-sdk==1.45.2"
)
stamp="$venv/.powercontext-ts-requirements"
wanted="$(printf '%s\n' "${requirements[@]}")"

if [[ ! -x "$venv/bin/python" ]]; then
  echo "python-env: creating $venv with $("$python" --version 2>&1)"
  "$python" -m venv "$venv"
fi

if [[ -f "$stamp" ]] && [[ "$(cat "$stamp")" == "$wanted" ]] && "$venv/bin/python" -m pip check >/dev/null 2>&1; then
  echo "python-env: $venv already has the pinned packages"
else
  echo "python-env: installing ${requirements[*]}"
  "$venv/bin/python" -m pip install --disable-pip-version-check --quiet "${requirements[@]}"
  "$venv/bin/python" -m pip check
  printf '%s\n' "$wanted" > "$stamp"
fi

echo "python-env: $("$venv/bin/python" --version)"
echo "python-env: powercontext $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("powercontext"))')"
echo "python-env: $("$venv/bin/schemathesis" --version)"
echo "python-env: $("$venv/bin/python" -m mypy --version)"
test -x "$venv/bin/powercontext"

"""Every recipe step of test/parity/recipes under every built-in role, on one server.

Plays the recipes as the static bearer, then, for each role configuration in turn,
binds the role to a principal of its own through the Access API (as the static
bearer) and replays every step the recipes send as the static bearer with that
principal's token; prints one JSON object: the status and error code of every step
of the first run (`static`) and of every configuration's replay.

The server is the installed release, in process (its application built by its own
factory with the settings of test/real/server.ts and test/parity/recipes/server.yaml;
the principals beyond the static bearer are mapped from their tokens by wrapping the
release's static bearer provider), or, with --url, a running mock whose principals
file knows the tokens `pc-role-<configuration>` as the service principals
`p-<configuration>`. The same requests go to either.

    python test/access/role_matrix.py [--url http://127.0.0.1:PORT] [--admin-token T]
    python test/access/role_matrix.py --tokens   # the tokens and principal ids a mock needs, as JSON
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import urllib.parse
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RECIPES = HERE.parent / "parity" / "recipes"
sys.path.insert(0, str(RECIPES))
from recipe_format import MissingValue, load_recipes, substitute  # noqa: E402

# One configuration per built-in role a binding may grant: each Scope role on the
# recipes' default Scope and, alone, on their other Scope; each server role on the
# server; each Artifact role on an Artifact of the default Scope; and none at all.
SCOPE_ROLES = ("scope.viewer", "scope.contributor", "scope.reviewer", "scope.delegator", "scope.admin")
CONFIGS: dict[str, list[tuple[str, str]]] = {"none": []}
for role in SCOPE_ROLES:
    CONFIGS[f"{role}@scope"] = [("scope", role)]
    CONFIGS[f"{role}@other"] = [("other_scope", role)]
for role in ("server.observer", "server.admin"):
    CONFIGS[f"{role}@server"] = [("server", role)]
CONFIGS["artifact.viewer@memory"] = [("memory", "artifact.viewer")]
CONFIGS["handoff.viewer@handoff"] = [("handoff", "handoff.viewer")]
CONFIGS["handoff.receiver@handoff"] = [("handoff", "handoff.receiver")]


def slug(config: str) -> str:
    return config.replace("@", "-at-").replace(".", "-")


def resource(where: str, values: dict[str, Any]) -> dict[str, Any]:
    if where == "server":
        return {"type": "server", "deployment_id": values.get("deployment_id", "powercontext")}
    if where in ("scope", "other_scope"):
        return {"type": "scope", "scope_id": values[where]}
    family, artifact_id = ("atomic-memory", values["memory_c_id"]) if where == "memory" else ("handoff", "handoff")
    return {"type": "artifact", "scope_id": values["scope"], "identity": {"family": family, "artifact_id": artifact_id}}


def start_release(admin: str, extra: dict[str, str]):
    data = Path(tempfile.mkdtemp(prefix="pc-role-matrix-"))
    (data / "home").mkdir()
    (data / "workspace").mkdir()
    for key in list(os.environ):
        if key.startswith(("POWERCONTEXT_", "OTEL_")):
            del os.environ[key]
    os.environ.update(
        POWERCONTEXT_HOME=str(data / "home"),
        POWERCONTEXT_SERVER_DATABASE=json.dumps(
            {"kind": "sqlite", "url": f"sqlite+aiosqlite:///{data / 'powercontext.db'}"}
        ),
        POWERCONTEXT_SERVER_METRICS_ENABLED="false",
        POWERCONTEXT_SERVER_LOGGING_FORMAT="json",
        POWERCONTEXT_SERVER_LOGGING_ACCESS="false",
        POWERCONTEXT_SERVER_AUTH_ENABLED="true",
        POWERCONTEXT_SERVER_AUTH_TOKEN=admin,
    )
    import yaml

    os.environ.update((yaml.safe_load((RECIPES / "server.yaml").read_text()) or {}).get("env", {}))
    os.chdir(data / "workspace")
    import logging

    logging.disable(logging.CRITICAL)
    from fastapi.testclient import TestClient
    from powercontext.server import authentication
    from powercontext.server.authz import PrincipalRef
    from powercontext.server.factory import create_server_app
    from powercontext.server.settings import ServerSettings

    static = authentication.StaticBearerAuthenticationProvider.authenticate

    async def authenticate(self, request, /):
        scheme, _, credential = (request.headers.get("authorization") or "").partition(" ")
        if scheme.lower() == "bearer" and credential in extra:
            return authentication.AuthenticationResult(
                subject=PrincipalRef(type="service", id=extra[credential]), credential_id="role-matrix"
            )
        return await static(self, request)

    authentication.StaticBearerAuthenticationProvider.authenticate = authenticate
    client = TestClient(create_server_app(settings=ServerSettings()), base_url="http://127.0.0.1")
    client.__enter__()
    return client


class Sender:
    """Splits a flat recipe request into path, query, headers and body, as the release's contract places them."""

    def __init__(self, client) -> None:
        from powercontext.http._generated import operations
        from powercontext.http._generated.schema import OPENAPI_SCHEMA

        self.client = client
        self.ops = {op.operation_id: op for op in vars(operations).values() if isinstance(op, operations.Operation)}
        self.schema = OPENAPI_SCHEMA

    def _parameters(self, op, where: str) -> list[str]:
        item = self.schema["paths"][op.path][op.method.lower()]
        names = []
        for parameter in item.get("parameters", []):
            if "$ref" in parameter:
                parameter = self.schema["components"]["parameters"][parameter["$ref"].split("/")[-1]]
            if parameter.get("in") == where:
                names.append(parameter["name"])
        return names

    def send(self, operation: str, flat: dict[str, Any], token: str | None, headers: dict[str, Any]):
        op = self.ops[operation]
        flat = dict(flat or {})
        path = op.path
        for name in op.path_parameters:
            if name in flat:
                path = path.replace("{" + name + "}", urllib.parse.quote(str(flat.pop(name)), safe=""))
        sent = {k: str(v) for k, v in (headers or {}).items()}
        for name in self._parameters(op, "header"):
            if name in flat:
                sent[name] = str(flat.pop(name))
        if token:
            sent["Authorization"] = f"Bearer {token}"
        query = body = None
        if op.method == "GET" or op.request_location == "query":
            query = {k: json.dumps(v) if isinstance(v, dict) else v for k, v in flat.items()}
        elif op.request_type is not None:
            body = json.dumps(flat)
            sent["Content-Type"] = "application/json"
        return self.client.request(op.method, path, params=query, headers=sent, content=body, follow_redirects=False)


def outcome(response) -> list[Any]:
    try:
        body = response.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    return [response.status_code, error.get("code") if isinstance(error, dict) else None]


def pointer(document: Any, at: str) -> Any:
    node = document
    for part in [p.replace("~1", "/").replace("~0", "~") for p in at.split("/")[1:]]:
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    return node


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", help="a running mock instead of the release in process")
    parser.add_argument("--admin-token", default="pc-admin")
    parser.add_argument("--tokens", action="store_true", help="print the role tokens and their principal ids")
    args = parser.parse_args()
    tokens = {f"pc-role-{slug(config)}": f"p-{slug(config)}" for config in CONFIGS}
    if args.tokens:
        print(json.dumps(tokens))
        return
    if args.url:
        import httpx

        client = httpx.Client(base_url=args.url, timeout=30)
    else:
        client = start_release(args.admin_token, tokens)
    sender = Sender(client)
    values: dict[str, Any] = {}
    steps = []
    static: dict[str, list[Any]] = {}
    for step in load_recipes(RECIPES):
        try:
            request = substitute(step.get("request", {}), values)
            headers = substitute(step.get("headers", {}), values)
            auth = substitute(step.get("auth", "admin"), values)
        except MissingValue:
            continue
        token = args.admin_token if auth == "admin" else None if auth == "none" else str(auth)
        response = sender.send(step["operation"], request, token, headers)
        static[step["id"]] = outcome(response)
        if 200 <= response.status_code < 300:
            try:
                body = response.json()
            except ValueError:
                body = None
            for name, at in (step.get("capture") or {}).items():
                value = pointer(body, at)
                if value is not None:
                    values[name] = value
            for name, header in (step.get("capture_headers") or {}).items():
                if header in response.headers:
                    values[name] = response.headers[header]
        if auth == "admin":
            steps.append((step["id"], step["operation"], request, headers))
    columns: dict[str, dict[str, list[Any]]] = {}
    bindings: dict[str, list[Any]] = {}
    for config, grants in CONFIGS.items():
        principal = f"p-{slug(config)}"
        bindings[config] = []
        for index, (where, role) in enumerate(grants):
            answer = sender.send(
                "create_access_binding",
                {
                    "subject": {"type": "service", "id": principal},
                    "resource": resource(where, values),
                    "role": role,
                    "idempotency_key": f"role-matrix-{slug(config)}-{index}",
                },
                args.admin_token,
                {},
            )
            bindings[config].append(outcome(answer))
        token = f"pc-role-{slug(config)}"
        columns[config] = {sid: outcome(sender.send(op, request, token, headers)) for sid, op, request, headers in steps}
    operations = {sid: op for sid, op, _, _ in steps}
    print(json.dumps({"operations": operations, "static": static, "bindings": bindings, "columns": columns}))


if __name__ == "__main__":
    main()

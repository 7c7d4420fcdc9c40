"""Building one request from an operation, its extensions and the caller's values.

The body (or the release-format query model) is validated with the operation's request
type and written as JSON by wire name, members as given (``exclude_unset``), as the
Python Client SDK writes it. Path, query and header parameters are validated with the
generated parameters model when the layer has one, then serialised by their OpenAPI
style: a path parameter as one percent-encoded segment (a dot segment refused), query
parameters by ``style``/``explode``, header parameters as text. Caller headers must be
ones an HTTP/1.1 message can carry and never ``Authorization`` or a framing header.
Anything wrong is ``InvalidRequestError`` before anything is sent.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from powercontext_runtime.answers import Redactor, validation_issues
from powercontext_runtime.descriptor import OperationExtensions, OperationLike, ParameterSpec
from powercontext_runtime.errors import InvalidRequestError
from powercontext_runtime.url import encode_path_segment

TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
FIELD_VALUE = re.compile(r"^[\t\x20-\x7e\x80-\xff]*$")
#: Headers the HTTP client frames the message with, and the one that carries the token.
RESERVED_HEADERS = frozenset({"authorization", "connection", "content-length", "expect", "keep-alive", "transfer-encoding", "upgrade", "host"})


def check_headers(headers: Mapping[str, str], where: str) -> dict[str, str]:
    """The caller's headers, each checked; the message names the header, never its value.

    Raises:
        InvalidRequestError: a name that is not an RFC 9110 token, a value with a control
            character or outside Latin-1, ``Authorization`` or a framing header.
    """

    out: dict[str, str] = {}
    for name, value in headers.items():
        shown = name if isinstance(name, str) and TOKEN.match(name) else "a header"
        if not isinstance(name, str) or not TOKEN.match(name):
            raise InvalidRequestError(f"{where}: {shown} has a name HTTP cannot carry")
        if name.lower() in RESERVED_HEADERS:
            raise InvalidRequestError(f"{where}: {name} is set by the client itself")
        if not isinstance(value, str) or not FIELD_VALUE.match(value):
            raise InvalidRequestError(f"{where}: the value of {name} is not one HTTP can carry")
        out[name] = value
    return out


def _validated(model: type[Any], value: Any, what: str, redactor: Redactor) -> Any:
    try:
        if isinstance(value, BaseModel) and isinstance(value, model):
            return value
        return TypeAdapter(model).validate_python(dict(value) if isinstance(value, Mapping) else value)
    except ValidationError as error:
        issues = validation_issues(error, redactor)
        raise InvalidRequestError(f"{what} does not match the contract: {issues[0] if issues else 'invalid'}", issues) from None


def _dump(model: type[Any], value: Any) -> dict[str, Any]:
    dumped = TypeAdapter(model).dump_python(value, mode="json", by_alias=True, exclude_unset=True)
    if not isinstance(dumped, dict):
        raise InvalidRequestError("the request must be an object")
    return dumped


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value)


QueryPairs = list[tuple[str, str | int | float | bool | None]]


def _query_pairs(spec: ParameterSpec, value: Any) -> QueryPairs:
    if isinstance(value, list | tuple):
        items = [_text(item) for item in value]
        if spec.style == "form" and spec.explode:
            return [(spec.name, item) for item in items]
        separator = {"spaceDelimited": " ", "pipeDelimited": "|"}.get(spec.style, ",")
        return [(spec.name, separator.join(items))]
    if isinstance(value, dict):
        if spec.style == "deepObject":
            return [(f"{spec.name}[{key}]", _text(item)) for key, item in value.items()]
        if spec.explode:
            return [(str(key), _text(item)) for key, item in value.items()]
        return [(spec.name, ",".join(f"{key},{_text(item)}" for key, item in value.items()))]
    return [(spec.name, _text(value))]


def build_request(
    operation: OperationLike[Any, Any],
    extensions: OperationExtensions | None,
    *,
    base_url: str,
    request: Any = None,
    params: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    extra_query: str | None = None,
    redactor: Redactor,
) -> tuple[httpx.Request, str]:
    """The request to send (built once; every attempt sends the same bytes) and its path.

    ``request`` is the body, or the query model of a release-format query operation;
    ``params`` holds path, query and header parameters by wire name.
    """

    values: dict[str, Any] = {}
    if request is not None:
        if operation.request_type is None:
            raise InvalidRequestError(f"{operation.operation_id} takes no request body")
        values = _dump(operation.request_type, _validated(operation.request_type, request, f"{operation.operation_id} request", redactor))
    given = dict(params or {})
    parameters_type = extensions.parameters_type if extensions is not None else None
    if parameters_type is not None and given:
        given = _dump(parameters_type, _validated(parameters_type, given, f"{operation.operation_id} parameters", redactor))
    specs = {spec.name: spec for spec in (extensions.parameters if extensions is not None else ())}
    path = operation.path
    for name in operation.path_parameters:
        if name not in given or given[name] is None:
            raise InvalidRequestError(f"{operation.operation_id}: path parameter {name} is required", [f"/{name} is required"])
        path = path.replace(f"{{{name}}}", encode_path_segment(operation.operation_id, name, _text(given.pop(name))))
    query: QueryPairs = []
    header_values: dict[str, str] = {}
    if operation.request_location == "query":
        for name, value in values.items():
            if value is not None:
                query += _query_pairs(specs.get(name, ParameterSpec(name, "query")), value)
        values = {}
    for name, value in given.items():
        spec = specs.get(name, ParameterSpec(name, "query"))
        if value is None:
            continue
        if spec.location == "header":
            header_values[name] = _text(value)
        else:
            query += _query_pairs(spec, value)
    url = f"{base_url}{path}"
    encoded = str(httpx.QueryParams(query)) if query else ""
    if extra_query:
        encoded = f"{encoded}&{extra_query}" if encoded else extra_query
    if encoded:
        url = f"{url}?{encoded}"
    sent = {**check_headers(header_values, f"{operation.operation_id} header parameters"), **check_headers(headers or {}, operation.operation_id)}
    content = None
    if operation.request_location == "body" and request is not None:
        content = json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode()
        sent["Content-Type"] = "application/json"
    if not any(name.lower() == "accept" for name in sent):
        sent["Accept"] = "application/json"
    return httpx.Request(operation.method, url, headers=sent, content=content), path

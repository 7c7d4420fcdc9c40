"""Reading an answer: strict JSON, the error envelope, and the token kept out of everything.

A server may reflect the bearer token anywhere, so every string and member name the
runtime keeps from an answer (request id, ``Location``, bodies, validation issues)
passes through ``Redactor``, which replaces each spelling of the token and of
``Bearer <token>`` (as sent, percent-encoded in either case, JSON-escaped, as a JSON
Pointer segment) with ``[REDACTED]``, as the TypeScript runtime does.
"""

from __future__ import annotations

import codecs

import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, TypeAdapter, ValidationError

from powercontext_runtime.errors import (
    ContractErrors,
    InvalidResponseError,
    OperationNotServedError,
    ServerResponseError,
    status_class,
)

REDACTED = "[REDACTED]"
#: How much of an error body that is not the envelope is kept: 8 KiB.
ERROR_BODY_LIMIT = 8 * 1024
#: Depth to which ``details`` is kept; deeper values become ``"[TRUNCATED]"``.
MAX_DEPTH = 32


#: The shortest token searched for on its own; a shorter one (``e``, ``test``) also spells
#: ordinary words, so only its header spelling ``Bearer <token>`` is searched for.
MIN_SECRET_LENGTH = 8


def secrets_of(token: str | None) -> list[str]:
    """What to remove for ``token``: ``Bearer <token>``, and the bare token when long enough."""

    if not token:
        return []
    return [token, f"Bearer {token}"] if len(token) >= MIN_SECRET_LENGTH else [f"Bearer {token}"]


class Redactor:
    """Replaces the token, in each of its spellings, with ``[REDACTED]``.

    It is applied to what reaches errors (headers, error bodies, issues), never to a
    success body, which is the caller's data and is returned as the server sent it.
    """

    def __init__(self, token: str | None) -> None:
        spellings: set[str] = set()
        for secret in secrets_of(token):
            encoded = quote(secret, safe="-_.!~*'()")
            escaped = json.dumps(secret, ensure_ascii=False)[1:-1]
            lower_hex = re.sub(r"%[0-9A-F]{2}", lambda match: match.group(0).lower(), encoded)
            spellings |= {secret, encoded, lower_hex, escaped, escaped.replace("/", "\\/"), secret.replace("~", "~0").replace("/", "~1")}
        # longest first, so that a spelling containing another is replaced whole
        self.spellings = tuple(sorted(spellings, key=len, reverse=True))

    def text(self, value: str) -> str:
        for spelling in self.spellings:
            if spelling in value:
                value = value.replace(spelling, REDACTED)
        return value

    def holds_secret(self, value: Any) -> bool:
        """True when a string or member name of ``value`` (or its JSON dump, for a model) holds a secret."""

        if not self.spellings:
            return False
        if isinstance(value, BaseModel):
            value = value.model_dump(mode="json")
        text = json.dumps(value, ensure_ascii=False, default=str)
        return any(spelling in text for spelling in self.spellings) or self.value(value) != value

    def for_error(self, value: Any) -> Any:
        """``value`` as an error may carry it: unchanged without a secret, else a redacted plain copy."""

        if not self.holds_secret(value):
            return value
        return self.value(value.model_dump(mode="json") if isinstance(value, BaseModel) else value)

    def value(self, value: Any, depth: int = 0) -> Any:
        """``value`` with every string and member name redacted; kept to ``MAX_DEPTH`` levels."""

        if depth > MAX_DEPTH:
            return "[TRUNCATED]"
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(item, depth + 1) for item in value]
        if isinstance(value, dict):
            return {self.text(str(key)): self.value(item, depth + 1) for key, item in value.items()}
        return value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _well_formed(value: Any) -> bool:
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if any("\ud800" <= char <= "\udfff" for char in item):
                return False
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
    return True


def parse_json(body: bytes) -> Any:
    """Strict JSON: UTF-8 without a byte order mark, no NaN or Infinity, no lone surrogate.

    Raises:
        ValueError: the body is not such JSON.
    """

    text = body.decode("utf-8")
    if text.startswith("\ufeff"):
        raise ValueError("a byte order mark")
    value = json.loads(text, parse_constant=_reject_constant)
    if "\\u" in text and not _well_formed(value):
        raise ValueError("a lone surrogate")
    return value


def validation_issues(error: ValidationError, redactor: Redactor) -> list[str]:
    """Where and how a value broke its model, never the value itself."""

    return [redactor.text(f"/{'/'.join(str(part) for part in issue['loc'])}: {issue['type']}") for issue in error.errors(include_input=False, include_url=False)]


def read_success(
    body: bytes,
    *,
    kind: str,
    model: type[Any] | None,
    path: str,
    status: int,
    request_id: str | None,
    redactor: Redactor,
    empty_allowed: bool,
    charset: str = "utf-8",
) -> Any:
    """The outcome of a success status, read by its declared media kind.

    JSON is parsed strictly and validated into ``model`` (a pydantic model or any
    type pydantic can validate); text is a ``str`` decoded by ``charset`` (the answer's
    ``Content-Type`` parameter, UTF-8 by default, a UTF-8 byte order mark dropped);
    binary ``bytes``; none ``None``.

    Raises:
        InvalidResponseError: the body is not what the contract says for that status.
    """

    def invalid(*issues: str) -> InvalidResponseError:
        return InvalidResponseError(path, request_id=request_id, status_code=status, issues=list(issues))

    if kind == "none":
        return None
    if kind == "binary":
        return body
    if kind == "text":
        try:
            codec = codecs.lookup(charset)
        except LookupError:
            raise invalid(f"the body's charset {charset!r} is unknown") from None
        try:
            # A UTF-8 byte order mark is no character of the text.
            return body.decode("utf-8-sig" if codec.name == "utf-8" else codec.name)
        except UnicodeDecodeError:
            raise invalid(f"the body is not {codec.name}") from None
    if not body.strip() and empty_allowed:
        return None
    try:
        value = parse_json(body)
    except (UnicodeDecodeError, ValueError) as error:
        raise invalid(f"the body is not JSON ({'not UTF-8' if isinstance(error, UnicodeDecodeError) else error})") from None
    except RecursionError:
        # Python's JSON parser recurses per level: a body nested thousands deep is not read.
        raise invalid("the body nests deeper than the JSON parser reads") from None
    if model is None:
        return value
    try:
        if isinstance(model, type) and issubclass(model, BaseModel):
            return model.model_validate(value)
        return TypeAdapter(model).validate_python(value)
    except ValidationError as error:
        raise invalid(*validation_issues(error, redactor)) from None


def decode_envelope(body: Any) -> tuple[str, str, dict[str, Any] | None] | None:
    """``(code, message, details)`` of a body that is exactly ``{"error": {"code", "message", "details"}}``."""

    if not isinstance(body, dict) or set(body) != {"error"}:
        return None
    error = body["error"]
    if not isinstance(error, dict) or set(error) != {"code", "message", "details"}:
        return None
    code, message, details = error["code"], error["message"], error["details"]
    if not isinstance(code, str) or not isinstance(message, str) or not (details is None or isinstance(details, dict)):
        return None
    return code, message, details


def error_of(
    body: bytes,
    *,
    status: int,
    request_id: str | None,
    retry_after: float | None,
    redactor: Redactor,
    contract_errors: ContractErrors | None = None,
    not_served: tuple[int, str] | None = None,
) -> ServerResponseError:
    """The error an error status raises: the contract class of the envelope's code at that
    status, else the status class; ``OperationNotServedError`` for the spec's not-served
    status answered without any error code."""

    envelope = None
    names_code = False
    text: str | None = None
    try:
        parsed = redactor.value(parse_json(body))
        names_code = isinstance(parsed, dict) and isinstance(parsed.get("error"), dict) and isinstance(parsed["error"].get("code"), str)
        envelope = decode_envelope(parsed)
    except (UnicodeDecodeError, ValueError, RecursionError):
        envelope = None
    if envelope is None and body:
        text = redactor.text(body[:ERROR_BODY_LIMIT].decode("utf-8", errors="replace"))
    code, message, details = envelope if envelope is not None else (None, None, None)
    init: dict[str, Any] = {"status_code": status, "request_id": request_id, "code": code, "message": message, "details": details, "retry_after": retry_after, "body": text}
    if not_served is not None and not_served[0] == status and not names_code:
        return OperationNotServedError(not_served[1], **init)
    row = (contract_errors or {}).get(code) if code is not None else None
    cls = row[1] if row is not None and row[0] == status else status_class(status)
    return cls(**init)


def header(headers: Mapping[str, str], name: str | None, redactor: Redactor) -> str | None:
    """A response header, redacted; None when absent or not asked for."""

    if name is None:
        return None
    value = headers.get(name)
    return None if value is None else redactor.text(value)


def content_charset(content_type: str | None) -> str:
    """The ``charset`` parameter of a ``Content-Type`` value, ``utf-8`` when it names none."""

    for parameter in (content_type or "").split(";")[1:]:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset" and value.strip():
            return value.strip().strip('"').lower()
    return "utf-8"

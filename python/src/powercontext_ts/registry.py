"""The generated layer, looked up by operationId.

Everything the client knows about an operation comes from here: the ``Operation``
object of ``_generated.operations`` (1.4.1 format) and the ``OperationExtensions`` of
``_generated.extensions``. Nothing names an operation's path, fields or statuses.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote, urlsplit

from powercontext_ts._generated import extensions, operations
from powercontext_ts._generated.extensions import AsyncExtension, OperationExtensions


def operation(operation_id: str) -> operations.Operation[Any, Any]:
    """The generated ``Operation`` of ``operation_id``.

    Raises:
        KeyError: the contract has no such operation.
    """

    found = getattr(operations, operation_id.upper(), None)
    if not isinstance(found, operations.Operation) or found.operation_id != operation_id:
        raise KeyError(f"the contract has no operation {operation_id!r}")
    return found


def extension(operation_id: str) -> OperationExtensions:
    """The ``x-powercontext-*`` facts of ``operation_id``; KeyError when it does not exist."""

    return extensions.EXTENSIONS[operation_id]


def async_of(operation_id: str) -> AsyncExtension:
    """The accepted-status facts of an asynchronous operation.

    Raises:
        ValueError: the operation never answers with an accepted status.
    """

    found = extension(operation_id).async_
    if found is None:
        raise ValueError(f"{operation_id} is not an asynchronous operation")
    return found


def poll_operation_id() -> str:
    """The operation that reads an Operation resource (the one every async operation polls)."""

    polls = {ext.async_.poll_operation for ext in extensions.EXTENSIONS.values() if ext.async_ is not None}
    if len(polls) != 1:
        raise ValueError(f"the contract names {len(polls)} poll operations, expected one")
    return polls.pop()


def id_from_location(location: str, poll: operations.Operation[Any, Any]) -> str | None:
    """The resource id in a ``Location`` that points at ``poll``'s path, or None when it does not."""

    if len(poll.path_parameters) != 1:
        return None
    template = re.escape(poll.path).replace(re.escape(f"{{{poll.path_parameters[0]}}}"), "(?P<id>[^/]+)")
    match = re.fullmatch(f"(?:.*?){template}", urlsplit(location).path)
    return unquote(match.group("id")) if match else None

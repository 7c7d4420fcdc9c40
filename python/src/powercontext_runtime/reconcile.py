"""Guarded reconciliation: after a lost attempt, does the requested transition hold?

An operation with ``x-powercontext-reconcile`` whose re-send meets the reconcile
conflict (``conflict_code``, 409 ``version_conflict`` in PowerContext's spec) after an
attempt with an unknown outcome reads the resource. Only when the resource shows exactly
the requested transition and nothing after it (its status in ``holds_when_status`` and
its version ``expected_version + 1``) does the call succeed with that resource, marked
reconciled; otherwise the conflict is raised with ``outcome_unknown`` and the resource.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pydantic import BaseModel

from powercontext_runtime.descriptor import ReconcileSpec
from powercontext_runtime.errors import ConflictError, GuardedConflictError


def member(resource: Any, name: str) -> Any:
    """A member of a resource read as a model or as a mapping, by wire name."""

    if isinstance(resource, BaseModel):
        for attribute, info in type(resource).model_fields.items():
            if (info.alias or attribute) == name:
                return getattr(resource, attribute)
        return None
    return resource.get(name) if isinstance(resource, Mapping) else None


def shows_requested_transition(resource: Any, spec: ReconcileSpec, expected_version: Any) -> bool:
    """The resource's status is one of the requested states and its version is exactly one more than expected."""

    status = member(resource, spec.status_field)
    version = member(resource, spec.version_field)
    status = getattr(status, "value", status)
    return (
        isinstance(status, str)
        and status in spec.holds_when_status
        and isinstance(version, int)
        and not isinstance(version, bool)
        and isinstance(expected_version, int)
        and not isinstance(expected_version, bool)
        and version == expected_version + 1
    )


def is_reconcile_conflict(error: BaseException, spec: ReconcileSpec) -> bool:
    """The conflict reconciliation follows: the spec's conflict code on a 409."""

    return isinstance(error, ConflictError) and error.code == spec.conflict_code


async def reconcile(
    error: ConflictError,
    spec: ReconcileSpec,
    request: Mapping[str, Any],
    read: Callable[[str, Mapping[str, Any]], Awaitable[Any]],
) -> Any:
    """The resource when the transition holds; raises the conflict (marked unknown) otherwise.

    ``request`` holds the call's members by wire name (its body and parameters); ``read``
    runs ``spec.read_operation`` with the id parameter and returns the resource.
    """

    conflict = error if isinstance(error, GuardedConflictError) else _guarded(error)
    try:
        resource = await read(spec.read_operation, {spec.id_parameter: request.get(spec.id_parameter)})
    except Exception:  # noqa: BLE001 - any failure to read leaves the outcome unknown
        raise conflict.with_unknown_outcome(None, spec.status_field, spec.version_field) from error
    if not shows_requested_transition(resource, spec, request.get(spec.expected_version_field)):
        current = resource.model_dump(mode="json", by_alias=True) if isinstance(resource, BaseModel) else resource
        raise conflict.with_unknown_outcome(current, spec.status_field, spec.version_field) from error
    conflict.current = resource
    return resource


def _guarded(error: ConflictError) -> GuardedConflictError:
    """A guarded conflict with the members of a plain one (a layer without contract classes)."""

    return GuardedConflictError(
        status_code=error.status_code,
        request_id=error.request_id,
        code=error.code,
        message=error.server_message,
        details=error.details,
        retry_after=error.retry_after,
        body=error.body,
    )

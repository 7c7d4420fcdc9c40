"""A generated layer as the runtime reads it: operations, their extensions, error codes.

``Layer.of(operations, extensions, errors)`` takes the generated modules: every
``Operation`` constant of ``operations`` (found by type, keyed by its ``operation_id``),
``EXTENSIONS``, ``ERROR_CODES`` and ``REQUEST_ID_HEADER`` of ``extensions``, and
``CONTRACT_ERRORS`` of ``errors`` when the spec has a registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, cast

from pydantic import BaseModel

from powercontext_runtime.descriptor import ErrorCode, OperationExtensions, OperationLike
from powercontext_runtime.errors import ContractErrors


class UnknownOperationError(KeyError):
    """The layer has no operation of that id."""


@dataclass(frozen=True)
class Layer:
    """The generated facts a client calls with."""

    operations: Mapping[str, OperationLike[Any, Any]]
    extensions: Mapping[str, OperationExtensions]
    error_codes: Mapping[str, ErrorCode] = field(default_factory=dict)
    contract_errors: ContractErrors = field(default_factory=dict)
    request_id_header: str | None = None

    @classmethod
    def of(cls, operations: ModuleType, extensions: ModuleType, errors: ModuleType | None = None) -> Layer:
        """The layer of generated modules (see the module's docstring)."""

        found: dict[str, OperationLike[Any, Any]] = {}
        for value in vars(operations).values():
            operation_id = getattr(value, "operation_id", None)
            if isinstance(value, BaseModel) and isinstance(operation_id, str) and hasattr(value, "path_parameters"):
                found[operation_id] = cast(OperationLike[Any, Any], value)  # a generated Operation has every member of OperationLike
        return cls(
            operations=found,
            extensions=dict(getattr(extensions, "EXTENSIONS", {})),
            error_codes=dict(getattr(extensions, "ERROR_CODES", {})),
            contract_errors=dict(getattr(errors, "CONTRACT_ERRORS", {})) if errors is not None else {},
            request_id_header=getattr(extensions, "REQUEST_ID_HEADER", None),
        )

    def operation(self, operation_id: str) -> OperationLike[Any, Any]:
        """The ``Operation`` of ``operation_id``.

        Raises:
            UnknownOperationError: the layer has none.
        """

        try:
            return self.operations[operation_id]
        except KeyError:
            raise UnknownOperationError(f"the contract has no operation {operation_id!r}") from None

    def extension(self, operation_id: str) -> OperationExtensions | None:
        return self.extensions.get(operation_id)

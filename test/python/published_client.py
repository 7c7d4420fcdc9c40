"""The layer generated from the published 0.0.2 contract, called through powercontext_runtime.

    python published_client.py URL    (the generated package ``published`` on sys.path)

Prints one JSON object with what each call gave; test/python/published-contract.test.ts
serves the answers over loopback.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from powercontext_runtime import Client, ClientError, InvalidRequestError, Layer, RetryOptions, ServerResponseError
from published import extensions, models, operations


async def main(url: str) -> dict[str, Any]:
    layer = Layer.of(operations, extensions)
    results: dict[str, Any] = {"operations": len(layer.operations)}
    async with Client(url, layer=layer, token="published-token", retry=RetryOptions(base_delay=0.01, jitter="none")) as client:
        health = await client.call("get_liveness")
        results["health"] = [type(health).__name__, health.status]
        try:
            await client.call("remember_memory", {"scope_id": "team", "kind": "note"})
        except InvalidRequestError as error:
            results["missing_text"] = error.issues
        mutation = await client.send(operations.REMEMBER_MEMORY, {"scope_id": "team", "kind": "note", "text": "hello"})
        results["remembered"] = isinstance(mutation, models.MemoryMutationResponse)
        try:
            await client.call("remember_memory", {"scope_id": "team", "kind": "note", "text": "conflict"})
        except ServerResponseError as error:
            results["conflict"] = [type(error).__name__, error.status_code, error.code, "published-token" in repr(vars(error))]
        except ClientError as error:
            results["conflict"] = [type(error).__name__]
    return results


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1]))))

"""A generated pet store client at work: powercontext_runtime plus the layer the generator
wrote from test/python/petstore/petstore.yaml, against the loopback server of
test/python/petstore.test.ts.

    python petstore_client.py URL    (the generated package ``petstore_client`` on sys.path)

Prints one JSON object: what each call gave, and whether the released ``powercontext``
package could be imported (it must not be installed).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from typing import Any

from petstore_client._generated import extensions, models, operations
from powercontext_runtime import Client, ClientError, InvalidRequestError, Layer, NotFoundError, ServerResponseError


def outcome(error: ClientError) -> dict[str, Any]:
    out: dict[str, Any] = {"error": type(error).__name__}
    if isinstance(error, ServerResponseError):
        out.update(status=error.status_code, code=error.code, message=error.server_message)
    return out


async def main(url: str) -> dict[str, Any]:
    results: dict[str, Any] = {"powercontext_installed": importlib.util.find_spec("powercontext") is not None}
    results["constants"] = sorted(name for name, value in vars(operations).items() if isinstance(value, operations.Operation))
    async with Client(url, layer=Layer.of(operations, extensions)) as client:
        created = await client.call("createPet", {"animal": {"kind": "cat", "name": "Tom", "indoor": True}, "owner": None}, params={"X-Request-Tag": "t1"})
        results["created"] = {"type": type(created).__name__, "animal": type(created.animal).__name__, "dump": created.model_dump(mode="json", exclude_unset=True)}
        await client.call("createPet", {"animal": {"kind": "dog", "name": "Rex", "good_boy": None}, "tags": ["loud"]})
        page = await client.send(operations.LIST_PETS, params={"limit": 5, "kind": "dog", "tags": ["loud", "big"]})
        results["page"] = {"type": type(page).__name__, "animals": [type(p.animal).__name__ for p in page.pets], "next_cursor": page.next_cursor}
        results["paginate"] = [pet.animal.name async for pet in client.paginate("listPets", params={"limit": 1})]
        shown = await client.call("showPetById", params={"petId": created.id})
        results["shown"] = isinstance(shown, models.Pet) and shown.id == created.id
        for name, call in {
            "limit_too_high": lambda: client.call("listPets", params={"limit": 500}),
            "limit_not_an_int": lambda: client.call("listPets", params={"limit": "5"}),
            "unknown_kind": lambda: client.call("listPets", params={"kind": "bird"}),
            "bad_pet": lambda: client.call("createPet", {"animal": {"kind": "fish", "name": "Nemo"}}),
            "tag_too_long": lambda: client.call("createPet", {"animal": {"kind": "cat", "name": "A"}}, params={"X-Request-Tag": "x" * 33}),
            "missing_pet": lambda: client.call("showPetById", params={"petId": 99}),
            "server_refusal": lambda: client.call("createPet", {"animal": {"kind": "cat", "name": "refuse me"}}),
        }.items():
            try:
                await call()
                results[name] = {"error": None}
            except (InvalidRequestError, NotFoundError, ServerResponseError) as error:
                results[name] = outcome(error)
    return results


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1]))))

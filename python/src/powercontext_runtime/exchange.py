"""One HTTP exchange on httpx: send a built request, read at most ``max_bytes`` of answer.

httpx does the HTTP; this module bounds it. The whole attempt (connect, send, headers,
body) ends at ``timeout`` seconds; redirects are never followed (a 3xx is an answer,
and following it could carry the token elsewhere); more than five content codings are
refused before any decoder is built; a body is read up to the cap and no further.
A failure says whether the request provably never left (``phase="connect"``).
"""

from __future__ import annotations

import asyncio
import builtins
from dataclasses import dataclass

import httpx

from powercontext_runtime.errors import TimeoutError, TransportError

#: Default cap on a decoded answer body: 1 MiB.
MAX_RESPONSE_BYTES = 1024 * 1024
#: More content codings than this are refused (each would be a decoder).
MAX_CODINGS = 5


@dataclass(frozen=True)
class Answer:
    """What came back: status, headers, the body (whole, or cut at the cap) and the request's URL."""

    status: int
    headers: httpx.Headers
    body: bytes
    truncated: bool
    url: str


async def exchange(http: httpx.AsyncClient, request: httpx.Request, *, path: str, timeout: float, max_bytes: int = MAX_RESPONSE_BYTES) -> Answer:
    """Sends ``request`` once.

    Raises:
        TimeoutError: the attempt ran past ``timeout`` seconds (``limit="attempt"``).
        TransportError: no valid answer (``phase="connect"`` when it never left).
    """

    try:
        async with asyncio.timeout(timeout):
            return await _send(http, request, path, max_bytes)
    except TimeoutError:
        raise
    except builtins.TimeoutError:
        raise TimeoutError(path, limit="attempt", seconds=timeout) from None


async def _send(http: httpx.AsyncClient, request: httpx.Request, path: str, max_bytes: int) -> Answer:
    try:
        response = await http.send(request, stream=True, follow_redirects=False)
    except (httpx.ConnectError, httpx.ConnectTimeout) as error:
        raise TransportError(path, phase="connect", reason=type(error).__name__) from None
    except httpx.TransportError as error:
        raise TransportError(path, phase="exchange", reason=type(error).__name__) from None
    try:
        codings = [c for c in response.headers.get("content-encoding", "").split(",") if c.strip()]
        if len(codings) > MAX_CODINGS:
            raise TransportError(path, phase="exchange", reason=f"{len(codings)} content codings (at most {MAX_CODINGS})")
        chunks: list[bytes] = []
        size = 0
        truncated = False
        async for chunk in response.aiter_bytes():
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:
                truncated = True
                break
        body = b"".join(chunks)[:max_bytes]
    except httpx.TransportError as error:
        raise TransportError(path, phase="exchange", reason=type(error).__name__) from None
    except httpx.DecodingError:
        raise TransportError(path, phase="exchange", reason="a content coding that cannot be undone") from None
    finally:
        await response.aclose()
    return Answer(response.status_code, response.headers, body, truncated, str(request.url))

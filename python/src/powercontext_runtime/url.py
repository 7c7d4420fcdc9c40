"""URL rules: the base URL and the loopback rule, path segments, and the id in a ``Location``.

- A base URL is normalised as the Python Client SDK does (pydantic's URL parser, the
  WHATWG rules); ``http://`` is accepted only to ``localhost``, ``::1`` or
  ``127.0.0.0/8`` unless the caller opts in; no userinfo, query or fragment.
- A path parameter becomes exactly one path segment: percent-encoded like JavaScript's
  ``encodeURIComponent``, and refused when it is a dot segment (``.``, ``..``, also with
  ``%2e``), which URL parsing would remove together with the segment before it.
- A ``Location`` names a resource only on the client's origin, under its base path, in
  the poll operation's path template.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import quote, unquote, urljoin, urlsplit

from pydantic import HttpUrl, TypeAdapter, ValidationError

from powercontext_runtime.errors import ConfigurationError, InvalidRequestError

_HTTP_URL: TypeAdapter[HttpUrl] = TypeAdapter(HttpUrl)
DOT_SEGMENT = re.compile(r"^(?:\.|%2e){1,2}$", re.IGNORECASE)
#: What ``encodeURIComponent`` leaves as it is.
SEGMENT_SAFE = "-_.!~*'()"


def is_loopback_host(host: str | None) -> bool:
    """``localhost``, the IPv6 loopback or an IPv4 address in 127.0.0.0/8, as a parsed URL spells the host."""

    if not host:
        return False
    name = host.lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return address.is_loopback and not (isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None)


def normalize_base_url(raw: str, *, allow_insecure_http: bool = False) -> str:
    """The base URL without a trailing slash.

    Raises:
        ConfigurationError: not an absolute http(s) URL, userinfo, a query or fragment, or
            plaintext to a host that is not loopback without ``allow_insecure_http``. The
            message never repeats the URL (userinfo may hold a secret).
    """

    if not isinstance(raw, str) or not raw.strip():
        raise ConfigurationError("base_url is required")
    try:
        parsed = _HTTP_URL.validate_python(raw.strip())
    except ValidationError:
        raise ConfigurationError("base_url is not an absolute http or https URL") from None
    if parsed.username or parsed.password or re.match(r"^[a-z][a-z0-9+.-]*://[^/?#]*@", raw.strip(), re.IGNORECASE):
        raise ConfigurationError("base_url must not contain userinfo; pass the token as token")
    if "?" in raw or "#" in raw:
        raise ConfigurationError("base_url must not contain a query string or fragment")
    if parsed.scheme == "http" and not is_loopback_host(parsed.host) and not allow_insecure_http:
        raise ConfigurationError("plaintext http:// is for loopback hosts only; use https://, or allow_insecure_http=True")
    text = str(parsed)
    return text.rstrip("/")


def encode_path_segment(operation_id: str, name: str, value: str) -> str:
    """``value`` percent-encoded as one path segment.

    Raises:
        InvalidRequestError: ``value`` is ``.`` or ``..`` (also with a dot written ``%2e``):
            the URL would lose a segment and the request reach another resource.
    """

    if DOT_SEGMENT.match(value):
        raise InvalidRequestError(
            f'{operation_id}: path parameter {name} must not be "." or ".." (a dot segment would change the path)',
            [f"/{name} must not be a dot segment"],
        )
    return quote(value, safe=SEGMENT_SAFE)


def id_from_location(location: str, *, base_url: str, request_url: str, template: str, parameter: str) -> str | None:
    """The id a ``Location`` names in ``template`` (``/v1/operations/{operation_id}``).

    None when it is not a URL reference, points at another origin, lies outside the base
    path, or does not match the template with one segment for ``parameter``.
    """

    try:
        resolved = urlsplit(urljoin(request_url, location.strip()))
    except ValueError:
        return None
    base = urlsplit(base_url)
    if (resolved.scheme, resolved.netloc.lower()) != (base.scheme, base.netloc.lower()):
        return None
    base_path = base.path.rstrip("/")
    if not resolved.path.startswith(f"{base_path}/"):
        return None
    path = _remove_dot_segments(resolved.path[len(base_path) :])
    pattern = "^" + re.escape(template).replace(re.escape(f"{{{parameter}}}"), "(?P<id>[^/]+)") + "$"
    match = re.match(pattern, path)
    return unquote(match.group("id"), errors="strict") if match else None


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 5.2.4, also for dots written ``%2e`` (as the WHATWG parser reads them)."""

    out: list[str] = []
    for segment in path.split("/")[1:]:
        if DOT_SEGMENT.match(segment):
            if segment.replace("%2e", ".").replace("%2E", ".") == ".." and out:
                out.pop()
            continue
        out.append(segment)
    return "/" + "/".join(out)

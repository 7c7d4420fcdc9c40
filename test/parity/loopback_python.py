"""Print, for each base URL read as a JSON list on stdin, whether the released
Python client lets plaintext HTTP go to it without `allow_insecure_http`.

Output: a JSON object mapping each URL to true (accepted) or false (refused).
"""

from __future__ import annotations

import json
import sys

from powercontext.client.settings import normalize_server_url


def accepts(url: str) -> bool:
    try:
        normalize_server_url(url)
    except ValueError:
        return False
    return True


if __name__ == "__main__":
    urls = json.load(sys.stdin)
    json.dump({url: accepts(url) for url in urls}, sys.stdout)

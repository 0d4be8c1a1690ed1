"""Whether a request came from the GRIP proxy: its ``Grip-Sig``, verified.

The rule: a ``Grip-*`` header counts only on a request whose ``Grip-Sig`` is a JWT the proxy
signed with the deployment's GRIP key (``ROADS_GRIP_KEY``, Pushpin's ``sig_key``): HS256 and
nothing else (``alg: none`` and every other algorithm are refused), with an ``exp`` that has
not passed and Pushpin's issuer (``iss``: ``pushpin``, its ``sig_iss``). Pushpin removes every
``Grip-*`` header a client sends and signs each request it passes on (``iss``, and ``exp`` an
hour ahead), its own link requests (``Grip-Last``) included; so a verified request's
``Grip-Last`` is the proxy's word, and a request without a verified signature is an ordinary
viewer under every bound, whatever ``Grip-*`` headers it carries. No key: nothing verifies.
While the key is rotated the setting holds two, comma-separated (the new one first): a
signature of either verifies.
"""

from __future__ import annotations

import jwt

ALGORITHMS = ["HS256"]
ISSUER = "pushpin"  # Pushpin's sig_iss (deploy/pushpin/pushpin.conf.in sets it)
LEEWAY = 5  # seconds of clock difference between the proxy's host and this one
# A Pushpin signature is about 150 bytes; anything much longer is not one, and is not decoded.
MOST_BYTES = 2048


def verified(token: str | None, keys: str | None) -> bool:
    """Whether ``token`` (a ``Grip-Sig`` value) is a signature of the proxy holding one of
    ``keys`` (``ROADS_GRIP_KEY``: one key, or two while it is rotated)."""
    if not keys or not token or len(token) > MOST_BYTES:
        return False
    return any(_signed_with(token, key) for key in keys.split(",") if key)


def _signed_with(token: str, key: str) -> bool:
    try:
        jwt.decode(
            token,
            key,
            algorithms=ALGORITHMS,
            issuer=ISSUER,
            leeway=LEEWAY,
            options={"require": ["exp", "iss"]},
        )
    except (jwt.PyJWTError, ValueError, TypeError):  # bad, forged, expired, or not a JWT at all
        return False
    return True

"""``Grip-Sig`` values for the tests: as Pushpin signs them (HS256, ``iss`` and ``exp``), and the
forgeries a client might try."""

from __future__ import annotations

import base64
import json
import secrets
import time
import warnings

import jwt

GRIP_KEY = "tests-grip-key-" + secrets.token_hex(16)


def signed(key: str = GRIP_KEY, *, iss: str = "pushpin", expires_in: float = 3600) -> str:
    """A ``Grip-Sig`` as Pushpin makes it with ``sig_key`` ``key`` (a forgery's may be short)."""
    claims = {"iss": iss, "exp": int(time.time() + expires_in)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", jwt.warnings.InsecureKeyLengthWarning)
        return jwt.encode(claims, key, algorithm="HS256")


def unsigned(iss: str = "pushpin") -> str:
    """A JWT with ``alg: none`` and no signature."""

    def part(value: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    claims = {"iss": iss, "exp": int(time.time() + 3600)}
    return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims)}."


def forgeries() -> dict[str, str]:
    """One of each kind of ``Grip-Sig`` that must not verify with :data:`GRIP_KEY`."""
    return {
        "junk": "signed-by-the-proxy",
        "wrong-key": signed("not-the-" + GRIP_KEY),
        "expired": signed(expires_in=-120),
        "alg-none": unsigned(),
        "wrong-issuer": signed(iss="someone"),
        "default-key": signed("changeme"),
    }

"""Each environment value's parser and its check: a value the service cannot use is a
:class:`ConfigError` that names the variable and what it takes, never echoing a secret."""

from __future__ import annotations

import re
from collections.abc import Mapping

from api.redaction import redact_url

NAMESPACE = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")


class ConfigError(ValueError):
    """An environment variable holds a value the service cannot use."""


# Pushpin's own default ``sig_key``: known to everyone, so it signs nothing.
PUSHPIN_DEFAULT_KEY = "changeme"
GRIP_KEY_BYTES = 32


def grip_key(env: Mapping[str, str]) -> str | None:
    """``ROADS_GRIP_KEY``, the key a GRIP proxy signs ``Grip-Sig`` with. Fails closed: a proxy
    configured (``ROADS_GRIP_URL``) without a key, or with Pushpin's default, refuses to start
    (an unsigned ``Grip-*`` header would be taken from anyone)."""
    key = ",".join(part.strip() for part in env.get("ROADS_GRIP_KEY", "").split(",")) or None
    parts = key.split(",") if key else []  # two while the key is rotated: new,old
    if PUSHPIN_DEFAULT_KEY in parts:
        raise ConfigError(
            "ROADS_GRIP_KEY is Pushpin's default sig_key: set a secret of your own in both "
            "(pushpin.conf [proxy] sig_key and ROADS_GRIP_KEY)"
        )
    if any(len(part.encode()) < GRIP_KEY_BYTES for part in parts):
        raise ConfigError(
            f"ROADS_GRIP_KEY must be at least {GRIP_KEY_BYTES} bytes (HS256; RFC 7518 3.2): "
            "set a longer secret in both it and Pushpin's sig_key"
        )
    if key is None and urls(env, "ROADS_GRIP_URL"):
        raise ConfigError(
            "ROADS_GRIP_URL is set but ROADS_GRIP_KEY is not: set ROADS_GRIP_KEY to the proxy's "
            "sig_key (pushpin.conf [proxy] sig_key), so that its Grip-Sig can be verified"
        )
    return key


def hands(env: Mapping[str, str]) -> int:
    """The hands of the shoe a run's or a Good Road's chance is stated for (1 to 104: the most
    a shoe of 8 decks deals)."""
    hands = number(env, "ROADS_RARITY_HANDS", 80, int)
    if not 1 <= hands <= 104:
        raise ConfigError(f"ROADS_RARITY_HANDS is 1 to 104 hands (8 decks), not {hands}")
    return hands


def close_after(env: Mapping[str, str]) -> str:
    text = env.get("ROADS_SIDE_BETS_CLOSE_AFTER", "").replace(" ", "")
    if text and not re.fullmatch(r"\d+|[a-z_0-9]+=\d+(,[a-z_0-9]+=\d+)*", text):
        raise ConfigError(
            "ROADS_SIDE_BETS_CLOSE_AFTER must be ROUNDS or bet=ROUNDS,..., "
            f"not {env['ROADS_SIDE_BETS_CLOSE_AFTER']!r}"
        )
    return text


def demo(env: Mapping[str, str], redis_url: str | None) -> bool:
    """``ROADS_DEMO``; without a Redis URL it must be on (the embedded demo), else the start is
    refused: a deployment that lost its ``REDIS_URL`` must not run on an in-process Redis."""
    demo = flag(env, "ROADS_DEMO", default=False)
    if redis_url is None and not demo:
        raise ConfigError(
            "no REDIS_URL: set REDIS_URL (or ROADS_REDIS_URL) to the service's Redis, such as "
            "redis://127.0.0.1:6379/0; or ROADS_DEMO=1 for the embedded demo, which keeps "
            "nothing (scripts/serve sets it)"
        )
    return demo


def keys(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    # Each ``name:secret`` or a bare secret; api.http.keyring checks and names them at start.
    return tuple(key.strip() for key in env.get(name, "").split(",") if key.strip())


def access_log(env: Mapping[str, str]) -> bool:
    # ``-`` (standard error, in gunicorn's spelling) is where the log goes anyway: on.
    return env.get("ROADS_ACCESS_LOG", "").strip() == "-" or flag(
        env, "ROADS_ACCESS_LOG", default=True
    )


def database(env: Mapping[str, str]) -> str | None:
    url = env.get("ROADS_DATABASE_URL", "").strip()
    if url and not re.match(r"^postgres(ql)?://", url):
        # The value is not echoed: it may hold the database's password. Its scheme may be.
        scheme = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*)://", url)
        given = f"a {scheme.group(1)}:// URL" if scheme else "not a URL"
        raise ConfigError(
            "ROADS_DATABASE_URL must be a postgresql:// URL "
            f"(postgresql://user:password@host:port/db); the value set is {given}"
        )
    return url or None


def namespace(env: Mapping[str, str]) -> str | None:
    text = env.get("ROADS_NAMESPACE", "").strip()
    if not text:
        return None
    if not NAMESPACE.match(text):
        raise ConfigError(f"ROADS_NAMESPACE must be 1-32 letters, digits, _ . or -, not {text!r}")
    return text


def urls(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    urls = tuple(url.strip() for url in env.get(name, "").split(",") if url.strip())
    for url in urls:
        if not re.match(r"^https?://[^\s/]+(/\S*)?$", url):
            raise ConfigError(
                f"{name} must be http(s) URLs, comma-separated, not {redact_url(url)!r}"
            )
    return urls


FRAME_ANCESTOR = re.compile(r"^https?://(\*\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?$")


def frame_ancestors(env: Mapping[str, str]) -> str:
    """``ROADS_FRAME_ANCESTORS``: the pages that may embed the lobby, as CSP ``frame-ancestors``
    says them: ``'none'`` (the default), or ``'self'`` and origins, space-separated (the quotes
    may be left off)."""
    keywords = {"self": "'self'", "'self'": "'self'", "none": "'none'", "'none'": "'none'"}
    sources = [keywords.get(w, w) for w in env.get("ROADS_FRAME_ANCESTORS", "").split()]
    if not sources or sources == ["'none'"]:
        return "'none'"
    if any(s != "'self'" and not FRAME_ANCESTOR.match(s) for s in sources):
        raise ConfigError(
            "ROADS_FRAME_ANCESTORS must be 'none', or 'self' and origins such as "
            f"https://casino.example.com, space-separated, not {' '.join(sources)!r}"
        )
    return " ".join(sources)


def origins(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    origins = tuple(o.strip().rstrip("/") for o in env.get(name, "").split(",") if o.strip())
    for origin in origins:
        if not re.match(r"^https?://[^\s/]+$", origin):
            raise ConfigError(
                f"{name} must be origins such as https://lobby.example.com, "
                f"not {redact_url(origin)!r}"
            )
    return origins


def choice(env: Mapping[str, str], name: str, choices: tuple[str, ...]) -> str:
    text = env.get(name, "").strip() or choices[0]
    if text not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}, not {text!r}")
    return text


def number(env: Mapping[str, str], name: str, default, kind):
    text = env.get(name)
    if text is None or text == "":
        return default
    try:
        value = kind(text)
    except ValueError:
        raise ConfigError(f"{name} must be a number, not {text!r}") from None
    if value <= 0:
        raise ConfigError(f"{name} must be positive, not {text!r}")
    return value


def count(env: Mapping[str, str], name: str, default: int = 0) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit():
        raise ConfigError(f"{name} must be a whole number, 0 or more, not {text!r}")
    return int(text)


def flag(env: Mapping[str, str], name: str, *, default: bool) -> bool:
    text = env.get(name, "").strip().lower()
    if not text:
        return default
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name} must be 1/0, true/false, yes/no or on/off, not {text!r}")

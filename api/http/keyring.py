"""The API keys: each named, with a role and (for ingest) the tables it may write, kept in memory
as SHA-256 digests only, found by one hash and one dictionary lookup.

- **Where keys come from.** ``ROADS_INGEST_KEYS``, ``ROADS_READ_KEYS`` and
  ``ROADS_OPERATOR_KEYS`` (comma-separated ``name:secret``; a bare ``secret`` is still taken,
  named by its role and place: ``ingest-1``, ``read-2``), which may write every table; and the
  key file ``ROADS_KEY_FILE`` (:func:`parse_key_file`), one key a line with its scope.
- **Secrets.** A key file's secret has at least :data:`FILE_SECRET` characters (or is given as
  ``sha256:`` and its digest); a list's at least :data:`LIST_SECRET`, which catches a secret cut
  short (an old bare secret ``abc:def`` read as the name ``abc`` and the secret ``def``). After
  the keys are read no secret is kept: :class:`Keys` gives the app a copy of its settings with
  the keys' names (:class:`KeyName`) where the lists' secrets were.
- **Roles.** ``ingest``: writes the tables its patterns match (``fnmatch``, ``*`` by default)
  and reads the odds; ``read``: the odds and the edge flags, and the record; ``operator``: the
  integrity watch and the record.
- **Rotation.** :func:`reload_keys`, which gunicorn's master runs on SIGHUP (``on_reload`` in
  gunicorn.conf.py) before it forks the new workers: they, and any worker forked later (one
  that died and is replaced), start with the keys of the last key file that read. A file that
  does not read keeps the keys in force and logs why: no process ever goes back to keys older
  than the last good file.
- **The demo's key.** ``demo-key`` is refused unless the service runs the embedded demo.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from api.config import ConfigError, Settings

log = logging.getLogger("roads.keys")

ROLES = ("ingest", "read", "operator")
NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
PATTERN = re.compile(r"^[A-Za-z0-9_.*?\[\]!-]{1,128}$")
HASHED = re.compile(r"^sha256:([0-9a-f]{64})$")
DEMO_SECRET = "demo-key"  # scripts/serve's key, public in the README: the demo's alone
FILE_SECRET = 16  # the fewest characters of a key file's secret
LIST_SECRET = 6  # of an environment list's: older deployments' keys (see the module doc)
ENV_LISTS = (
    ("ingest", "ROADS_INGEST_KEYS"),
    ("read", "ROADS_READ_KEYS"),
    ("operator", "ROADS_OPERATOR_KEYS"),
)


@dataclass(frozen=True, slots=True)
class Key:
    """A configured key: its ``name`` (logged, recorded with each write), its ``role`` and, for
    an ingest key, the ``tables`` it may write (``fnmatch`` patterns)."""

    name: str
    role: str
    tables: tuple[str, ...] = ("*",)
    digest: bytes = field(default=b"", repr=False, compare=False)

    def may_write(self, table: str) -> bool:
        """Whether this key may write ``table`` (an ingest key whose patterns match it)."""
        return self.role == "ingest" and any(fnmatchcase(table, p) for p in self.tables)


class KeyName(str):
    """A key's name where the app's settings held its secret (:class:`Keys`). It carries its
    :class:`Key` (the digest, never the secret), so a copy of the app's settings
    (``dataclasses.replace``) names the same keys."""

    key: Key

    def __new__(cls, key: Key) -> KeyName:
        named = super().__new__(cls, key.name)
        named.key = key
        return named


def digest_of(secret: str) -> bytes:
    """The SHA-256 of a secret: all a process keeps of it."""
    return hashlib.sha256(secret.encode()).digest()


class Keyring:
    """The keys in force, by digest: :meth:`find` hashes the offered secret once and looks it
    up once (never walking the keys). Two keys with one secret, or one name, are refused."""

    def __init__(self, keys: Iterable[Key]) -> None:
        self._by_digest: dict[bytes, Key] = {}
        names: set[str] = set()
        for key in keys:
            if key.name in names:
                raise ConfigError(f"two keys are named {key.name!r}")
            if key.digest in self._by_digest:
                other = self._by_digest[key.digest].name
                raise ConfigError(f"keys {other!r} and {key.name!r} have the same secret")
            names.add(key.name)
            self._by_digest[key.digest] = key
        self.roles = frozenset(key.role for key in self._by_digest.values())

    def find(self, secret: str) -> Key | None:
        """The key whose secret this is, or ``None``."""
        # Found by its digest: the secret's bytes are never compared, so the time taken says
        # nothing of how close an offered secret came to one.
        return self._by_digest.get(digest_of(secret)) if secret else None

    def __len__(self) -> int:
        return len(self._by_digest)


def env_keys(settings: Settings) -> list[Key]:
    """The keys of the three environment lists (every table for ingest keys); an entry that is
    a :class:`KeyName` is its key."""
    keys = []
    for role, source in ENV_LISTS:
        for place, entry in enumerate(getattr(settings, f"{role}_keys"), start=1):
            if isinstance(entry, KeyName):
                keys.append(entry.key)
                continue
            name, secret = split_entry(entry, f"{source} entry {place}")
            keys.append(Key(name or f"{role}-{place}", role, ("*",), digest_of(secret)))
    return keys


def split_entry(entry: str, where: str) -> tuple[str | None, str]:
    """``name:secret`` as (name, secret), the name ending at the first colon; a bare secret (no
    colon) as (None, secret). A name must match :data:`NAME` and a secret have
    :data:`LIST_SECRET` characters, else the entry is refused: a bare secret holding a colon is
    written ``name:secret``. The error names ``where``, never the secret."""
    name, colon, secret = entry.strip().partition(":")
    if not colon:
        name, secret = "", name
    if colon and not NAME.match(name):
        raise ConfigError(f"{where}: a key's name is 1-64 letters, digits, _ . or -")
    if len(secret) < LIST_SECRET:
        raise ConfigError(
            f"{where}: a secret is at least {LIST_SECRET} characters (name:secret; a secret "
            "holding a colon needs its name before it)"
        )
    return name or None, secret


def parse_key_file(text: str, source: str = "ROADS_KEY_FILE") -> list[Key]:
    """The keys of a key file: one a line, ``NAME ROLE SECRET [TABLES]``; blank lines skipped,
    and comments: lines whose first character other than a space is ``#`` (a word of a key's
    line may not begin with ``#``; inside a secret it is the secret's). ``ROLE`` is ``ingest``,
    ``read`` or ``operator``; ``SECRET`` is the secret itself (at least :data:`FILE_SECRET`
    characters) or ``sha256:`` and its digest in hex (the file then holds no secret);
    ``TABLES``, for an ingest key only, comma-separated patterns (``studio-a-*,lobby-?``; ``*``
    when left out). Errors name the line, never a secret."""
    keys = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        where = f"{source} line {number}"
        if any(word.startswith("#") for word in words):
            raise ConfigError(f"{where}: a comment is a line of its own, starting with #")
        if len(words) not in (3, 4):
            raise ConfigError(f"{where}: a key is NAME ROLE SECRET [TABLES]")
        name, role, secret = words[:3]
        if not NAME.match(name):
            raise ConfigError(f"{where}: a key's name is 1-64 letters, digits, _ . or -")
        if role not in ROLES:
            raise ConfigError(f"{where}: the role is ingest, read or operator, not {role!r}")
        tables = tuple(words[3].split(",")) if len(words) == 4 else ("*",)
        if len(words) == 4 and role != "ingest":
            raise ConfigError(f"{where}: only an ingest key has tables")
        if not all(PATTERN.match(pattern) for pattern in tables):
            raise ConfigError(f"{where}: tables are patterns such as studio-a-*, comma-separated")
        keys.append(Key(name, role, tables, file_digest(secret, where)))
    return keys


def file_digest(secret: str, where: str) -> bytes:
    """The digest a key file's ``SECRET`` word gives (see :func:`parse_key_file`)."""
    if secret.startswith("sha256:"):
        hashed = HASHED.match(secret)
        if hashed is None:
            raise ConfigError(f"{where}: sha256: is followed by 64 lowercase hex digits")
        return bytes.fromhex(hashed.group(1))
    if len(secret) < FILE_SECRET:
        raise ConfigError(f"{where}: a secret is at least {FILE_SECRET} characters (or sha256:)")
    return digest_of(secret)


def keyring_of(settings: Settings) -> Keyring:
    """The keys of ``settings``: the environment's lists and the key file. Raises
    :class:`ConfigError` for a key that cannot be used (and ``demo-key`` outside the demo)."""
    keys = env_keys(settings)
    if settings.key_file:
        try:
            with open(settings.key_file, encoding="utf-8") as file:
                text = file.read()
        except (OSError, UnicodeError) as error:
            reason = getattr(error, "strerror", None) or type(error).__name__
            raise ConfigError(f"ROADS_KEY_FILE cannot be read: {reason}") from None
        keys += parse_key_file(text)
    ring = Keyring(keys)
    if not settings.embedded and ring.find(DEMO_SECRET) is not None:
        raise ConfigError(
            f"the key {DEMO_SECRET} is the embedded demo's (scripts/serve without REDIS_URL) "
            "and is refused here: configure keys of your own"
        )
    return ring


class Keys:
    """The keyring in force for one app, read from ``settings`` (a key that cannot be used
    raises :class:`ConfigError`) and again on :meth:`reload`. :attr:`settings` is the app's
    copy of them, holding the lists' keys by name (:class:`KeyName`), never their secrets."""

    def __init__(self, settings: Settings) -> None:
        named: dict[str, list[KeyName]] = {role: [] for role in ROLES}
        for key in env_keys(settings):
            named[key.role].append(KeyName(key))
        self.settings = dataclasses.replace(
            settings, **{f"{role}_keys": tuple(names) for role, names in named.items()}
        )
        self.ring = keyring_of(self.settings)
        _holders.add(self)

    def reload(self) -> bool:
        """Read the keys again; on an error keep those in force and log why (never a secret)."""
        try:
            self.ring = keyring_of(self.settings)
        except ConfigError as error:
            log.error("the keys were not reloaded, those in force stay: %s", error)
            return False
        log.info("keys reloaded: %d in force", len(self.ring))
        return True


_holders: weakref.WeakSet[Keys] = weakref.WeakSet()


def reload_keys() -> None:
    """Read the key file again for every app of this process that has one: gunicorn's master
    on SIGHUP, before it forks the new workers (see the module doc)."""
    for holder in list(_holders):
        if holder.settings.key_file:
            holder.reload()

"""The keys (api.http.keyring): named, kept as digests, found by one lookup, scoped; the key
file's format and its errors, which never show a secret."""

import hashlib
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.config import ConfigError, Settings
from api.http.keyring import (
    Key,
    KeyName,
    Keyring,
    Keys,
    digest_of,
    keyring_of,
    parse_key_file,
    reload_keys,
)

FILE = """
# name        role      secret                     tables
studio-a      ingest    a-secret-of-studio-a       studio-a-*
studio-b      ingest    sha256:{hashed}            studio-b-*,lobby-?
everywhere    ingest    the-ingest-secret
   # an indented comment
lobby         read      the-read-secret-1
ops           operator  the-operator-secret
"""


def ring() -> Keyring:
    hashed = hashlib.sha256(b"studio-b-secret").hexdigest()
    return Keyring(parse_key_file(FILE.format(hashed=hashed)))


def test_the_key_file_names_and_scopes_each_key():
    keys = ring()
    a = keys.find("a-secret-of-studio-a")
    assert (a.name, a.role, a.tables) == ("studio-a", "ingest", ("studio-a-*",))
    assert a.may_write("studio-a-1") and not a.may_write("studio-b-1")
    b = keys.find("studio-b-secret")  # the file held only its digest
    assert b.name == "studio-b" and b.may_write("lobby-7") and not b.may_write("lobby-77")
    assert keys.find("the-ingest-secret").may_write("anything")
    assert keys.find("the-read-secret-1").role == "read"
    assert not keys.find("the-read-secret-1").may_write("studio-a-1")  # a read key writes nothing
    assert keys.find("the-operator-secret").role == "operator"
    assert keys.find("wrong") is None and keys.find("") is None
    assert keys.roles == {"ingest", "read", "operator"}


def test_environment_keys_are_named_or_get_a_name():
    settings = Settings(
        redis_url="redis://h/0",
        ingest_keys=("game-1:secret-1", "bare-secret"),
        read_keys=("reader",),
        operator_keys=("ops:o:with:colons",),
    )
    keys = keyring_of(settings)
    assert keys.find("secret-1") == Key("game-1", "ingest")
    assert keys.find("bare-secret").name == "ingest-2"
    assert keys.find("reader").name == "read-1"
    assert keys.find("o:with:colons").name == "ops"  # the name ends at the first colon
    assert "secret-1" not in repr(settings) and "bare-secret" not in repr(settings)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("a ingest", "NAME ROLE SECRET"),
        ("a writer SECRETVALUE", "role is ingest, read or operator"),
        ("a read SECRETVALUE t-*", "only an ingest key has tables"),
        ("bad/name ingest SECRETVALUE", "name is 1-64"),
        ("a ingest SECRETVALUE t-*,x y", "NAME ROLE SECRET"),
        ("a ingest SECRETVALUE t/*", "patterns"),
        ("a ingest SECRETVALUE-16-chars\nb read SECRETVALUE-16-chars", "same secret"),
        ("a ingest SECRETVALUE-16-chars\na read OTHERVALUE-16-chars", "two keys are named 'a'"),
        ("a read SECRETVALUE-16-chars # the lobby's", "a comment is a line of its own"),
        ("a read SECRETVALUE-16-chars #lobby", "a comment is a line of its own"),
        ("a ingest #SECRETVALUE-16-chars", "a comment is a line of its own"),
        ("a read SECRETVALUE", "at least 16 characters"),
        ("a read sha256:SECRETVALUE", "64 lowercase hex digits"),
    ],
)
def test_a_bad_key_file_is_refused_naming_the_line_never_the_secret(text, named):
    with pytest.raises(ConfigError) as refused:
        Keyring(parse_key_file(text))
    assert named in str(refused.value) and "SECRETVALUE" not in str(refused.value)


def test_a_hash_inside_a_secret_is_the_secrets_and_keeps_the_scope():
    """The review's case: ``#`` in a secret once cut it to 3 characters writing every table."""
    ring = Keyring(parse_key_file("studio-a ingest Zq9#xY7kLmP2-long studio-a-*"))
    assert ring.find("Zq9") is None
    key = ring.find("Zq9#xY7kLmP2-long")
    assert key.tables == ("studio-a-*",) and not key.may_write("studio-b-1")


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ("bad name:SECRETVALUE", "name is 1-64"),
        ("name:", "at least 6 characters"),
        (":", "name is 1-64"),
        ("abc:SECRE", "at least 6 characters"),  # an old bare secret with a colon, read short
        ("SECRE", "at least 6 characters"),
    ],
)
def test_a_bad_environment_key_is_refused_without_its_secret(entry, said):
    with pytest.raises(ConfigError) as refused:
        keyring_of(Settings(redis_url="redis://h/0", ingest_keys=("good-key", entry)))
    assert "ROADS_INGEST_KEYS entry 2" in str(refused.value) and said in str(refused.value)
    assert "SECRE" not in str(refused.value)


def test_the_apps_settings_name_the_keys_and_hold_no_secret(tmp_path):
    """What the app keeps (Keys.settings) names each key; a copy of it (as a test makes with
    dataclasses.replace) still finds the same keys, the names never taken as secrets."""
    path = tmp_path / "keys"
    path.write_text("lobby read the-read-secret-123\n")
    given = Settings(
        redis_url="redis://h/0",
        ingest_keys=("game:ingest-secret", "bare-secret"),
        operator_keys=("ops-secret",),
        key_file=str(path),
    )
    keys = Keys(given)
    kept = keys.settings
    assert (kept.ingest_keys, kept.read_keys, kept.operator_keys) == (
        ("game", "ingest-2"),
        (),
        ("operator-1",),
    )
    assert all(isinstance(name, KeyName) for name in kept.ingest_keys + kept.operator_keys)
    for text in (str(vars(kept)), repr(kept), str(kept.ingest_keys)):
        for secret in ("ingest-secret", "bare-secret", "ops-secret", "the-read-secret-123"):
            assert secret not in text
    copied = keyring_of(replace(kept, public_record=True))
    assert copied.find("ingest-secret").name == "game" and copied.find("game") is None
    assert copied.find("ops-secret").role == "operator" and copied.find("operator-1") is None
    assert copied.find("the-read-secret-123").name == "lobby"
    assert len(copied) == len(keys.ring) == 4


def test_an_unreadable_key_file_stops_the_start(tmp_path):
    missing = tmp_path / "keys"
    with pytest.raises(ConfigError, match="ROADS_KEY_FILE cannot be read"):
        keyring_of(Settings(redis_url="redis://h/0", key_file=str(missing)))


@pytest.mark.parametrize(
    "settings",
    [
        {"ingest_keys": ("demo-key",)},
        {"read_keys": ("shown:demo-key",)},
        {"key_file": "FILE"},
    ],
)
def test_the_demo_key_is_refused_outside_the_embedded_demo(tmp_path, settings):
    if "key_file" in settings:
        path = tmp_path / "keys"
        hashed = hashlib.sha256(b"demo-key").hexdigest()  # too short to be written out
        path.write_text(f"demo ingest sha256:{hashed}\n")
        settings = {"key_file": str(path)}
    with pytest.raises(ConfigError, match=r"demo-key .*refused"):
        keyring_of(Settings(redis_url="redis://h/0", **settings))
    assert keyring_of(Settings(redis_url=None, demo=True, **settings)).find("demo-key")


@given(st.text(min_size=1), st.text(min_size=1))
def test_a_secret_finds_its_key_and_no_other_does(secret, other):
    keys = Keyring([Key("k", "read", digest=digest_of(secret))])
    assert keys.find(secret).name == "k"
    assert (keys.find(other) is None) == (other != secret)


def test_a_reload_keeps_the_keys_of_the_last_file_that_read(tmp_path, caplog):
    a, b = "secret-of-key-a-0001", "secret-of-key-b-0002"
    path = tmp_path / "keys"
    path.write_text(f"a read {a}\nb read {b}\n")
    keys = Keys(Settings(redis_url="redis://h/0", key_file=str(path)))
    path.write_text(f"a read {a}\n")  # b revoked
    reload_keys()
    assert keys.ring.find(b) is None and keys.ring.find(a).name == "a"
    path.write_text(f"a read {a}\nb read {b[:8]}\n")  # a typo: b's secret cut short
    reload_keys()
    assert keys.ring.find(b) is None and keys.ring.find(a).name == "a"
    assert "were not reloaded" in caplog.text and "line 2" in caplog.text
    assert b[:8] not in caplog.text and a not in caplog.text

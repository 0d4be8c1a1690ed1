"""The keys (api.http.keyring): named, kept as digests, found by one lookup, scoped; the key
file's format and its errors, which never show a secret."""

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.config import ConfigError, Settings
from api.http.keyring import Key, Keyring, digest_of, keyring_of, parse_key_file

FILE = """
# name        role      secret                     tables
studio-a      ingest    a-secret-of-studio-a       studio-a-*
studio-b      ingest    sha256:{hashed}            studio-b-*,lobby-?
everywhere    ingest    the-ingest-secret
lobby         read      the-read-secret            # a comment after a key
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
    assert keys.find("the-read-secret").role == "read"
    assert not keys.find("the-read-secret").may_write("studio-a-1")  # a read key writes nothing
    assert keys.find("the-operator-secret").role == "operator"
    assert keys.find("wrong") is None and keys.find("") is None
    assert keys.roles == {"ingest", "read", "operator"}


def test_environment_keys_are_named_or_get_a_name():
    settings = Settings(
        redis_url="redis://h/0",
        ingest_keys=("game-1:s1", "bare-secret"),
        read_keys=("r",),
        operator_keys=("ops:o:with:colons",),
    )
    keys = keyring_of(settings)
    assert keys.find("s1") == Key("game-1", "ingest")
    assert keys.find("bare-secret").name == "ingest-2"
    assert keys.find("r").name == "read-1"
    assert keys.find("o:with:colons").name == "ops"  # the name ends at the first colon
    assert "s1" not in repr(settings) and "bare-secret" not in repr(settings)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("a ingest", "NAME ROLE SECRET"),
        ("a writer SECRETVALUE", "role is ingest, read or operator"),
        ("a read SECRETVALUE t-*", "only an ingest key has tables"),
        ("bad/name ingest SECRETVALUE", "name is 1-64"),
        ("a ingest SECRETVALUE t-*,x y", "NAME ROLE SECRET"),
        ("a ingest SECRETVALUE t/*", "patterns"),
        ("a ingest SECRETVALUE\nb read SECRETVALUE", "same secret"),
        ("a ingest SECRETVALUE\na read OTHERVALUE", "two keys are named 'a'"),
    ],
)
def test_a_bad_key_file_is_refused_naming_the_line_never_the_secret(text, named):
    with pytest.raises(ConfigError) as refused:
        Keyring(parse_key_file(text))
    assert named in str(refused.value) and "SECRETVALUE" not in str(refused.value)


@pytest.mark.parametrize("entry", ["bad name:SECRETVALUE", "name:", ":"])
def test_a_bad_environment_key_is_refused_without_its_secret(entry):
    with pytest.raises(ConfigError) as refused:
        keyring_of(Settings(redis_url="redis://h/0", ingest_keys=(entry,)))
    assert "ROADS_INGEST_KEYS entry 1" in str(refused.value)
    assert "SECRETVALUE" not in str(refused.value)


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
        path.write_text("demo ingest demo-key\n")
        settings = {"key_file": str(path)}
    with pytest.raises(ConfigError, match=r"demo-key .*refused"):
        keyring_of(Settings(redis_url="redis://h/0", **settings))
    assert keyring_of(Settings(redis_url=None, demo=True, **settings)).find("demo-key")


@given(st.text(min_size=1), st.text(min_size=1))
def test_a_secret_finds_its_key_and_no_other_does(secret, other):
    keys = Keyring([Key("k", "read", digest=digest_of(secret))])
    assert keys.find(secret).name == "k"
    assert (keys.find(other) is None) == (other != secret)

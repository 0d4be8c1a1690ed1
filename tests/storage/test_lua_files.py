"""Every Lua script is a ``.lua`` file whose header names its keys and arguments: no line below a
header indexes KEYS or ARGV, no Python module holds Lua or edits it, and a Redis error names the
file and the line of that file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import redis

import api.storage.coldshoes  # every module that makes a script, so SCRIPTS is whole
import api.storage.integrity.watchstore
import api.storage.lobbyscript
import api.storage.writescripts  # noqa: F401
from api.storage.luascript import SCRIPTS, Script, located, read_header
from api.storage.scripts import READ_OR_CLAIM

ROOT = Path(__file__).resolve().parents[2]
LUA_FILES = sorted(ROOT.joinpath("api").rglob("*.lua"))
INDEXED = re.compile(r"\b(KEYS|ARGV)\b")


def test_the_lua_files_are_found():
    assert len(LUA_FILES) >= 20


@pytest.mark.parametrize("path", LUA_FILES, ids=lambda path: path.name)
def test_no_line_below_a_header_indexes_keys_or_argv(path):
    text = path.read_text()
    _, end = read_header(text, path.name)
    below = [
        f"{path.name}:{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), start=1)
        if number > end and INDEXED.search(line.split("--", 1)[0])
    ]
    assert below == []


def test_every_script_is_made_from_a_file():
    assert SCRIPTS and all(isinstance(script, Script) for script in SCRIPTS)
    made = {part.name for script in SCRIPTS for part in script.parts}
    assert made == {str(path.relative_to(ROOT)) for path in LUA_FILES}


@pytest.mark.parametrize("path", sorted(ROOT.joinpath("api").rglob("*.py")), ids=str)
def test_no_python_module_holds_lua_or_edits_it(path):
    text = path.read_text()
    assert "redis.call(" not in text
    assert not re.search(r"(source|read_text\(\)|LUA|\"\"\")\s*\.replace\(", text)


def test_a_header_binds_in_order_and_once():
    with pytest.raises(ValueError, match=r"x.lua:2: KEYS\[3\] out of order"):
        read_header("local a = KEYS[1]\nlocal b = KEYS[3]\n", "x.lua")
    with pytest.raises(ValueError, match="bound twice"):
        read_header("local a = KEYS[1]\nlocal a = ARGV[1]\n", "x.lua")
    with pytest.raises(ValueError, match=r"x.lua:2: KEYS bound after its rest"):
        read_header("local a = rest(KEYS, 1)\nlocal b = KEYS[1]\n", "x.lua")
    header, end = read_header(
        "-- what it does\nlocal a = KEYS[1]  -- why\n\nlocal n = ARGV[1]\n"
        "local more = rest(KEYS, 2)\nreturn a\n",
        "x.lua",
    )
    assert (header.keys, header.args, header.rest_keys, end) == (("a",), ("n",), "more", 5)


def test_a_call_names_what_is_missing_or_unknown():
    script = next(script for script in SCRIPTS if script.header.args)
    named = dict.fromkeys(script.header.names, "x")
    named.pop(script.header.args[0])
    named["nonsense"] = 1
    with pytest.raises(TypeError, match=rf"missing \['{script.header.args[0]}'\].*'nonsense'"):
        script.call(named)


def test_a_redis_error_names_the_file_and_its_line(redis_server):
    """A claim with no lifetime: Redis refuses the ``SET`` on the script's line, which it numbers
    over the fragments joined ahead of it; the error names ``read_or_claim.lua`` and the line of
    that file."""
    path = ROOT / "api" / "storage" / "read_or_claim.lua"
    line = next(
        number
        for number, text in enumerate(path.read_text().splitlines(), start=1)
        if "redis.call('SET'" in text
    )
    client = redis.Redis.from_url(redis_server.url)
    try:
        client.hset("t:info", "version", 1)
        with pytest.raises(redis.ResponseError) as raised:
            READ_OR_CLAIM.run(
                client,
                info_key="t:info",
                cache_key="t:cache",
                claim_key="t:claim",
                state_key="t:state",
                meta_key="t:meta",
                claim_ms="not a number",
            )
    finally:
        client.delete("t:info", "t:claim")
        client.close()
    assert (
        READ_OR_CLAIM.parts[0].lines > 0
    )  # a fragment ahead: the source's lines are not the file's
    assert f"api/storage/read_or_claim.lua:{line}" in str(raised.value)
    assert "user_script" not in str(raised.value)


def test_an_error_of_a_script_this_process_does_not_know_is_left_as_it_is():
    error = redis.ResponseError("ERR oops script: " + "0" * 40 + ", on @user_script:3.")
    assert str(located(error)) == str(error)


def test_a_bound_call_sends_what_queue_sends():
    """:meth:`Script.bind` lays out the fixed names once; the command it then makes for the
    others is the one :meth:`Script.queue` makes for all of them (the lobby step of a write),
    with the integrity watch on and off."""
    from api.storage.integrity.watchapply import IntegrityApply
    from api.storage.keys import Keyspace
    from api.storage.lobbyscript import LOBBY_PUBLISH, LobbyPublish
    from api.storage.nodelink import Commands

    keys = Keyspace()
    for publish in (
        LobbyPublish(keys.lobby, hands=80),
        LobbyPublish(keys.lobby, IntegrityApply(keys.integrity)),
    ):
        bound, plain = Commands(), Commands()
        publish.queue_stored(bound, "t1", "{t:t1}:lobby", "2026-11-26")
        LOBBY_PUBLISH.queue(plain, **publish.named("t1", "", "{t:t1}:lobby", "2026-11-26"))
        publish.queue(bound, "t2", b"update", "")
        LOBBY_PUBLISH.queue(plain, **publish.named("t2", b"update", keys.lobby.applied, ""))
        assert bound.queued == plain.queued
        with pytest.raises(TypeError, match="wants"):
            publish._bound.command(table_id="t1")
    with pytest.raises(ValueError, match="rest"):
        LOBBY_PUBLISH.bind({})

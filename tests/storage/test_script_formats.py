"""Every text format that crosses between Python and Lua, written on one side and read on the
other, round-trips (Hypothesis), against a real redis-server running the real scripts:

- the version message the write scripts publish, read by the version watch;
- the stored lobby update ``SEQ:CURRENT:SIZE:WATCH JSON``, written by the write scripts (or by
  Python on a cluster) and read by the lobby script (its JSON and the integrity watch's part);
- the ``name=value,...`` memberships Python encodes and the lobby script parses, and the Good
  Road and edge transitions the script fires, against roads.lobby.transitions.

And every rule the scripts state again in Lua is held to Python's over generated inputs: the
transitions (above); a Good Road's lobby chance (roads.rarity's figure of lobby_chance); a day's
tally added up in batches (roads.integrity.drift.fold of the whole day, and its runs); the side
bets newly exposed (the starts of roads.lobby.transitions, afresh in a new shoe).
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from api.codecs.jsontext import dumps_text
from api.codecs.lobbyupdate import LobbyUpdate, Stored, pairs, parse_pairs
from api.codecs.versionmessage import VersionMessage
from api.storage.keys import Keyspace
from api.storage.lobbyscript import LOBBY_PUBLISH, LobbyPublish
from roads import Round
from roads.lobby import transitions
from tests.conftest import make_app
from tests.storage.script_parts import SLOW, ids, memberships, pattern_ids, update


@SLOW
@given(table=ids, shoe=ids)
def test_the_version_message_of_a_write_reads_back(plain, redis_server, table, shoe):
    services = make_app(redis_server.url).extensions["roads"]
    listener = plain.pubsub()
    listener.subscribe(services.keys.versions_channel)
    assert listener.get_message(timeout=2)["type"] == "subscribe"
    written = services.writer.append(table, shoe, 1, Round("B"))
    message = listener.get_message(timeout=2)
    listener.close()
    services.versions.stop()
    parsed = VersionMessage.decode(message["data"])
    assert (parsed.table, parsed.shoe, parsed.version, parsed.current) == (
        table,
        shoe,
        written.version,
        True,
    )
    assert (
        message["data"] == VersionMessage(table, shoe, written.version, True, parsed.seq).encode()
    )
    plain.flushdb()


@given(st.integers(0, 2**53), st.booleans(), st.text())
def test_a_stored_update_reads_back_in_python(seq, current, update):
    assert Stored.decode(Stored(seq, current, update).encode()) == (seq, current, update)


edges = st.dictionaries(
    st.sampled_from(["tie", "player_pair", "banker_pair", "super_six"]),
    st.floats(1.0, 2.0).map(lambda rtp: f"{rtp:.6f}"),
)


@given(memberships)
def test_memberships_read_back_in_python(found):
    assert parse_pairs(pairs(found.items())) == found


def apply(client, publish: LobbyPublish, table: str, seq: int, update: dict) -> list[tuple]:
    """Hand ``update`` to the lobby script as stored under ``seq``; the events it fired."""
    stored = Stored(seq, True, dumps_text(update)).encode()
    pipe = client.pipeline(transaction=False)
    publish.queue(pipe, table, stored)
    reply = pipe.execute()[0]
    fired = []
    for entry_id in reply[3:]:  # after the applied mark, the sequence and the alerts
        _, fields = client.xrange(publish.keys.events, min=entry_id, max=entry_id)[0]
        fired.append((fields[b"type"].decode(), json.loads(fields[b"data"])))
    return fired


@SLOW
@given(old=memberships, new=memberships, old_edge=edges, new_edge=edges, table=ids)
def test_the_lobby_script_fires_the_transitions_python_defines(
    plain, old, new, old_edge, new_edge, table
):
    plain.script_load(LOBBY_PUBLISH.source)
    publish = LobbyPublish(Keyspace().lobby)
    apply(plain, publish, table, 1, update(old, old_edge))
    fired = apply(plain, publish, table, 2, update(new, new_edge))
    good = {
        (data["pattern"], data["state"], str(data["since_round"]))
        for kind, data in fired
        if kind == "good_road"
    }
    assert good == transitions(old, new)
    edge = {
        (data["bet"], data["state"], f"{data['rtp']:.6f}") for kind, data in fired if kind == "edge"
    }
    assert edge == transitions(old_edge, new_edge)
    for pattern in pattern_ids:  # the membership index follows the new membership
        member = plain.hget(publish.keys.good(pattern), table)
        assert (member.decode() if member else None) == new.get(pattern)
    assert plain.hget(publish.keys.applied, table) == b"2"
    assert apply(plain, publish, table, 2, update(old, old_edge)) == []  # applied once only
    plain.flushdb()


# The kept update's watch part and lobby JSON, as the Lua of api.codecs.lobbyupdate reads them.
PARSE = """
local seq, current, body, watch = parse_stored(ARGV[1])
return {seq, current and 1 or 0, body, watch}
"""


@SLOW
@given(
    seq=st.integers(0, 2**50),
    current=st.booleans(),
    watch=st.one_of(st.just(""), st.text().map(lambda text: dumps_text({"x": text}))),
    shoe=st.text(),
)
def test_the_lobby_script_reads_the_watch_part_and_the_json_python_wrote(
    plain, seq, current, watch, shoe
):
    from api.codecs.lobbyupdate import LUA

    update = LobbyUpdate(shoe, "{}", "{}", "", "", "", (), watch)
    stored = Stored(seq, current, update.encode()).encode().encode()
    got = plain.eval(LUA.read_text() + PARSE, 0, stored)
    assert got[:2] == [seq, int(current)] and got[3] == watch.encode()
    assert LobbyUpdate.decode(got[2]) == LobbyUpdate(shoe, "{}", "{}", "", "", "", ())

"""Rules stated again in Lua, for atomicity, held to Python's over generated inputs against a real
redis-server running the real scripts: the lobby chance of a Good Road, a day's tally added in
batches, the side bets newly exposed."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import groupby

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from api.codecs.alerts import Alert
from api.codecs.jsontext import dumps_text
from api.codecs.lobbyupdate import LobbyUpdate, Stored
from api.codecs.watchupdate import encode_append
from api.config import Settings
from api.storage.clients import RedisClients
from api.storage.integrity.watchapply import IntegrityApply
from api.storage.integrity.watchstore import IntegrityStore
from api.storage.keys import Keyspace
from api.storage.lobbyscript import LOBBY_PUBLISH, LobbyPublish
from api.storage.transport import Transport
from roads.integrity.drift import ADDED, RoundEntry, fold
from roads.integrity.shoewatch import AppendWatch, Finding
from roads.lobby import transitions
from roads.rarity import figure, lobby_chance
from tests.storage.script_parts import pattern_ids, update

# -- rules stated again in Lua, held to Python's ----------------------------------------------

RULES = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
# A chance as Python passes it to the lobby script: a figure (3 significant digits).
shown_chances = st.floats(1e-9, 1, exclude_max=True).map(figure)


def on_a_tie(chance: float, tables: int, one: float, other: float) -> bool:
    """Whether two figures straddle the exact lobby chance where it lies on their rounding tie.
    Python computes it as -expm1(n log1p(-c)), which Lua 5.1 lacks (it takes 1 - (1 - c)^n):
    the two differ in the last bits, and there float noise alone picks the figure."""
    exact = 1 - (1 - Fraction(chance)) ** tables
    tie = (Fraction(str(one)) + Fraction(str(other))) / 2
    return abs(exact - tie) <= exact / 10**12


@RULES
@example(chance=0.35, tables=2)  # 0.5775 exactly: 0.577 in Lua, 0.578 in Python
@given(chance=shown_chances, tables=st.integers(1, 2000))
def test_the_lobby_script_states_the_lobby_chance_python_does(plain, chance, tables):
    """A Good Road's start states its chance in a shoe and that at least one of the lobby's
    tables (counted as the event is added) shows it."""
    plain.flushdb()
    publish = LobbyPublish(Keyspace().lobby)
    others = {f"other{i}": "{}" for i in range(tables - 1)}
    if others:
        plain.hset(publish.keys.tables, mapping=others)
    stored = Stored(1, True, dumps_text(update({pattern_ids[0]: "3"}, {}))).encode()
    named = publish.named("t1", stored, publish.keys.applied, "")
    named["chances"] = ",".join([str(chance)] * len(pattern_ids))
    event_id = LOBBY_PUBLISH.run(plain, **named)[3]
    ((_, fields),) = plain.xrange(publish.keys.events, min=event_id, max=event_id)
    data = json.loads(fields[b"data"])
    python = figure(lobby_chance(chance, tables))
    assert data["chance"] == chance
    assert data["lobby_chance"] == python or on_a_tie(chance, tables, data["lobby_chance"], python)


@pytest.fixture(scope="module")
def integrity(redis_server):
    config = Settings(redis_url=redis_server.url)
    return IntegrityStore(
        Transport(config, RedisClients.of(config, patience=1.0)), Keyspace().integrity
    )


OUTCOME_COUNT = 6
tallied = st.builds(
    RoundEntry,
    table=st.just("t1"),
    day=st.just("2026-01-01"),
    observed=st.tuples(*[st.sampled_from((-1, 0, 1))] * OUTCOME_COUNT),
    side=st.sampled_from((0, 1, 2)),
    expect=st.tuples(*[st.floats(0, 1)] * OUTCOME_COUNT),
)


@RULES
@given(batches=st.lists(st.lists(tallied, max_size=8), min_size=1, max_size=5))
def test_a_days_tally_added_up_in_batches_is_the_whole_days(plain, integrity, batches):
    """The Lua adds each batch the evaluator folds (roads.integrity.drift.fold) to the day's
    tally, counting the runs on from the day's last result: the tally is the fold of the whole
    day, and its runs those of the day's Banker/Player results (a result unlike the one before
    starts a run)."""
    plain.flushdb()
    for batch in batches:
        for (day, table), (values, sides) in fold(batch).items():
            integrity.add_tally(day, table, values, sides)
    whole = fold([entry for batch in batches for entry in batch])
    if not whole:
        assert integrity.day("2026-01-01") == {}
        return
    ((values, sides),) = whole.values()
    tally = integrity.day("2026-01-01")["t1"]
    assert tally.values[: len(ADDED)] == pytest.approx(values)  # kept to 14 significant digits
    assert tally["runs"] == len(list(groupby(sides)))
    assert tally["last"] == (int(sides[-1]) if sides else 0)


side_bets = st.sets(st.sampled_from(["tie", "player_pair", "banker_pair", "super_six"]))


@RULES
@given(appends=st.lists(st.tuples(st.sampled_from(["s1", "s2"]), side_bets), max_size=6))
def test_the_watch_raises_the_side_bets_newly_exposed(plain, appends):
    """Each append raises the side bets it exposes that the table's append before, in the same
    shoe, did not: the starts of roads.lobby.transitions (a new shoe starts from none)."""
    plain.flushdb()
    keys = Keyspace()
    publish = LobbyPublish(keys.lobby, IntegrityApply(keys.integrity))
    found_key = keys.integrity.found("t1")
    before: dict[str, str] = {}
    shoe_before = None
    chances = (0.5,) * OUTCOME_COUNT
    for seq, (shoe, bets) in enumerate(appends, start=1):
        exposed = tuple((bet, Finding("side_bet_exposed", {"bet": bet})) for bet in sorted(bets))
        watch = AppendWatch((), (), (0,) * OUTCOME_COUNT, 1, chances, chances, exposed)
        part = encode_append("t1", shoe, seq, watch)
        stored = Stored(seq, True, LobbyUpdate(shoe, "{}", "{}", "", "", "", (), part).encode())
        kept = plain.llen(found_key)
        LOBBY_PUBLISH.run(plain, **publish.named("t1", stored.encode(), keys.lobby.applied, "d"))
        added = plain.llen(found_key) - kept  # newest first
        new = plain.lrange(found_key, 0, added - 1) if added else []
        raised = {json.loads(Alert.decode(entry).data)["bet"] for entry in new}
        now = dict.fromkeys(bets, "")
        old = before if shoe == shoe_before else {}
        assert raised == {name for name, state, _ in transitions(old, now) if state == "start"}
        assert len(new) == len(raised)
        before, shoe_before = now, shoe

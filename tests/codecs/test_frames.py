"""A frame's deltas rebuild the tiles: applied to the tiles of the frame before (which a client
holds from the feed's first, full frame on), they give the frame's tiles, whatever happened
between the two (rounds, voids, corrections, new shoes, renames, retiring and coming back)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from api.codecs.frames import apply, step, tile_delta
from api.codecs.tiles import Tile, encode_summary, registry_entry
from roads import Round, Scorecard
from roads.lobby import summary
from roads.rarity import LobbyFigures
from roads.simulator import deal_shoe

ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("round"), st.sampled_from("BPT")),
        st.tuples(st.just("round"), st.sampled_from("BPT")),
        st.tuples(st.just("round"), st.sampled_from("BPT")),
        st.tuples(st.just("void"), st.integers(0, 40)),
        st.tuples(st.just("correct"), st.integers(0, 40), st.sampled_from("BPT")),
        st.tuples(
            st.just("new_shoe"),
        ),
        st.tuples(st.just("rename"), st.sampled_from(["Roma", "Milano"])),
        st.tuples(
            st.just("retire"),
        ),
        st.tuples(
            st.just("frame"),
        ),
    ),
    max_size=60,
)


def tiles_of(states: dict[str, tuple[str, str, list[Round]] | None]) -> dict[str, dict]:
    """Each listed table's tile as ``GET /v1/tables`` shows it: with the chance of each current
    run across the tables listed (so that one joining or leaving changes them), or, every other
    table, without (a tile stored before runs had their chance)."""
    found = {}
    listed = sum(state is not None for state in states.values())
    for index, (table, state) in enumerate(states.items()):
        if state is None:
            continue
        name, shoe, rounds = state
        scorecard = Scorecard.from_rounds(rounds)
        figures = LobbyFigures(80, listed) if index % 2 == 0 else None
        tile = summary(scorecard, figures=figures)
        stored = encode_summary(shoe, len(rounds), tile) if rounds else None
        tile = Tile.of(table, registry_entry(name, "standard").encode(), stored)
        found[table] = json.loads(tile.json)
    return found


def frame_of(before: dict[str, dict], after: dict[str, dict]) -> dict:
    changes = {}
    for table in sorted(set(before) | set(after)):
        delta = tile_delta(before.get(table), after.get(table))
        if delta is not None:
            changes[table] = delta
    return {"tables": json.loads(json.dumps(changes))}  # as a client parses it


def played(tables_actions: list[list[tuple]], data: st.DataObject) -> tuple[dict, list[tuple]]:
    """The lobby's first tiles, and each frame made as the tables play ``tables_actions`` (in an
    order drawn from ``data``) with the tiles it gives."""
    states = {f"t{i}": ("T", "s1", []) for i in range(len(tables_actions))}
    shoes = dict.fromkeys(states, 1)
    base = first = tiles_of(states)
    frames = []
    steps = [
        (table, action)
        for table, actions in zip(states, tables_actions, strict=True)
        for action in actions
    ]
    steps = data.draw(st.permutations(steps)) if steps else steps
    for table, action in [*steps, (None, ("frame",))]:
        kind = action[0]
        if kind == "frame":
            now = tiles_of(states)
            frames.append((frame_of(base, now), now))
            base = now
            continue
        state = states[table]
        if state is None:  # retired: a round brings it back, as the service does
            shoes[table] += 1
            state = states[table] = ("T", f"s{shoes[table]}", [])
        name, shoe, rounds = state
        if kind == "round":
            rounds = [*rounds, Round.from_result(action[1])]
        elif kind == "void" and rounds:
            rounds = list(rounds)
            rounds[action[1] % len(rounds)] = rounds[action[1] % len(rounds)].voided()
        elif kind == "correct" and rounds:
            rounds = list(rounds)
            at = action[1] % len(rounds)
            if not rounds[at].void:
                rounds[at] = Round.from_result(action[2])
        elif kind == "new_shoe":
            shoes[table] += 1
            shoe, rounds = f"s{shoes[table]}", []
        elif kind == "rename":
            name = action[1]
        states[table] = (name, shoe, rounds)
        if kind == "retire":
            states[table] = None
    return first, frames


TABLES_ACTIONS = st.lists(ACTIONS, min_size=1, max_size=3)


@given(TABLES_ACTIONS, st.data())
def test_a_frame_applied_to_the_tiles_of_the_frame_before_gives_its_tiles(tables_actions, data):
    first, frames = played(tables_actions, data)
    held = json.loads(json.dumps(first))  # a client's, from the feed's first frame
    for frame, tiles in frames:
        apply(held, frame)
        assert held == tiles


def dealt_lobby(seed: int) -> tuple[dict, list[tuple]]:
    """Three tables dealt whole simulated shoes (pairs, ties, long dragons, more columns than a
    tile shows), a frame every one to three rounds of some table."""
    shoes = {f"t{n}": deal_shoe(seed * 10 + n) for n in range(3)}
    dealt = dict.fromkeys(shoes, 0)
    states = {table: ("T", "s1", []) for table in shoes}
    base = first = tiles_of(states)
    frames = []
    for tick in range(max(len(rounds) for rounds in shoes.values())):
        for table, rounds in shoes.items():
            if dealt[table] < len(rounds) and (tick + int(table[1:])) % 4:
                dealt[table] += 1
                states[table] = ("T", "s1", rounds[: dealt[table]])
        if tick % 2 == 0 or tick % 3 == 0:
            now = tiles_of(states)
            frames.append((frame_of(base, now), now))
            base = now
    return first, frames


def test_frames_keep_tiles_through_whole_shoes():
    for seed in range(3):
        first, frames = dealt_lobby(seed)
        held = json.loads(json.dumps(first))
        for frame, tiles in frames:
            apply(held, frame)
            assert held == tiles
        assert any(tile["roads"]["big_road"]["from"] > 0 for tile in held.values())


def test_a_round_is_well_under_200_bytes_on_average():
    rounds = deal_shoe(11)
    sizes = []
    for count in range(1, len(rounds)):
        before = tiles_of({"t1": ("Table one", "s1", rounds[:count])})["t1"]
        after = tiles_of({"t1": ("Table one", "s1", rounds[: count + 1])})["t1"]
        delta = tile_delta(before, after)
        assert "recent" not in delta and delta["results"] == after["recent"][-1:]
        assert "roads" not in delta and delta["cells"]  # a round's cells, not the tile's roads
        sizes.append(len(json.dumps({"t1": delta}, separators=(",", ":"))))
    # 200 is the bound; the counts and the longest runs a client works out itself keep a typical
    # round near 110 (159 when each delta named them), the cells the tile draws add 50, and the
    # chance beside each changed run (3 significant digits, twice) about 20 more.
    assert sum(sizes) / len(sizes) <= 190, (sum(sizes) / len(sizes), max(sizes))


def test_a_new_table_is_whole_and_a_retired_one_goes():
    tile = tiles_of({"t1": ("T", "s1", [])})["t1"]
    assert tile_delta(None, tile) == {"tile": tile}
    assert tile_delta(tile, None) == {"retired": True}
    assert tile_delta(tile, tile) is None
    held = {"t1": tile}
    apply(held, {"tables": {"t1": {"retired": True}, "t2": {"tile": {**tile, "table": "t2"}}}})
    assert list(held) == ["t2"]


def test_a_client_applies_the_next_frame_skips_old_ones_and_restarts_after_a_gap():
    frame = {"cursor": 7, "after": 5, "tables": {}}
    assert step(5, frame) == "apply"
    assert step(7, frame) == step(9, frame) == "skip"  # its changes are held already
    assert step(4, frame) == "restart"  # the frame after 4 was missed
    assert step(None, frame) == "restart"  # nothing held: start from a full frame
    assert step(None, {"cursor": 7, "full": True, "tables": {}}) == "apply"

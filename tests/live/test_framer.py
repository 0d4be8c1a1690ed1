"""The frame builder on its own (api/live/framer.py), on the tests' Redis without the app: a client
that holds the first frame (full) and applies every next one holds, at each frame, every tile as
the lobby stores it (what ``GET /v1/tables`` answers), with the odds and without; one builder at
a time (the lease); a builder stands by until its process wants frames."""

from __future__ import annotations

import contextlib
import itertools
import json
import time
from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.codecs.frames import apply
from api.live.framer import FrameBuilder
from api.storage.failures import NotFound
from api.storage.framestream import FrameStream
from api.writes.refusals import Conflict
from roads import Round
from tests.layer_parts import Parts

TABLES = ("f1", "f2", "f3")
RUNS = itertools.count()

ROUND = st.tuples(st.just("round"), st.sampled_from(TABLES), st.sampled_from("BPT"))
STEPS = st.lists(
    st.one_of(
        ROUND,
        ROUND,
        ROUND,
        ROUND,
        st.tuples(st.just("void"), st.sampled_from(TABLES), st.integers(1, 5)),
        st.tuples(st.just("correct"), st.sampled_from(TABLES), st.integers(1, 5)),
        st.tuples(st.just("new_shoe"), st.sampled_from(TABLES)),
        st.tuples(st.just("rename"), st.sampled_from(TABLES)),
        st.tuples(st.just("retire"), st.sampled_from(TABLES)),
    ),
    min_size=5,
    max_size=60,
)


def frames_of(parts: Parts) -> FrameStream:
    return FrameStream(parts.transport, parts.keys.lobby)


def stored_tiles(parts: Parts) -> dict[str, dict]:
    """Every tile as the lobby stores it, with the odds: what ``GET /v1/tables`` answers."""
    _, tiles, _ = parts.lobby.tables()
    return {tile.table: json.loads(tile.json) for tile in tiles}


class Dealer:
    """Rounds, voids, corrections, new shoes, renames and retirements, as the write endpoints
    make them (one refused, as they would refuse it, changes nothing)."""

    def __init__(self, parts: Parts, run: int) -> None:
        self.parts = parts
        self.shoes = {table: [f"r{run}s0", 0] for table in TABLES}

    def act(self, kind: str, table: str, *args) -> None:
        writer, shoe = self.parts.writer, self.shoes[table]
        with contextlib.suppress(Conflict, NotFound):  # NotFound: a retired table too
            if kind == "round":
                assert writer.append(table, shoe[0], shoe[1] + 1, Round(args[0])).changed
                shoe[1] += 1
            elif kind == "void" and shoe[1] >= args[0]:
                writer.void(table, shoe[0], args[0])
            elif kind == "correct" and shoe[1] >= args[0]:
                writer.replace(table, shoe[0], args[0], Round("T"))
            elif kind == "new_shoe":
                shoe[0], shoe[1] = f"{shoe[0]}n", 0
            elif kind == "rename":
                self.parts.tables.put(table, f"N{shoe[1]}", "speed")
            elif kind == "retire":
                self.parts.tables.retire(table)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS, frames_after=st.lists(st.booleans(), min_size=60, max_size=60))
def test_frames_rebuild_the_lobby_at_every_frame(parts, redis_client, steps, frames_after):
    for key in redis_client.keys("*"):  # each example starts from an empty lobby
        redis_client.delete(key)
    frames = frames_of(parts)
    builder = FrameBuilder(parts.lobby, frames)
    dealer = Dealer(parts, next(RUNS))
    held: dict[str, dict[str, dict]] = {"full": {}, "public": {}}
    at: dict[str, int] = {}  # the cursor of the last frame each client applied
    last = "0-0"

    def frame() -> None:
        nonlocal last
        builder.step()
        for stored in frames.after(last):
            for which, data in (("full", stored.full), ("public", stored.public)):
                taken = json.loads(data)
                if not taken["tables"] and not taken.get("full"):
                    continue  # nothing for this client: sent as its id alone
                # Each frame names the one it applies after: a client can tell a gap.
                assert taken.get("full") or taken["after"] == at[which]
                apply(held[which], taken)
                at[which] = taken["cursor"]
            last = stored.id
        if last != "0-0":
            assert held["full"] == stored_tiles(parts)
            public = {t: {**tile, "edge": {}} for t, tile in held["full"].items()}
            assert held["public"] == public

    frame()
    for step, then_frame in zip(steps, frames_after, strict=False):
        dealer.act(*step)
        if then_frame:
            frame()
    frame()


def test_no_frame_when_nothing_changed_and_a_new_holder_starts_full(parts):
    frames = frames_of(parts)
    # Leases of 2 s: between the first holder's last step and the other's first, a loaded box
    # may stall for more than a fraction of a second (a 1 s stall was seen here in a full run).
    builder = FrameBuilder(parts.lobby, frames, lease_ms=2000)
    parts.writer.append("g1", "s1", 1, Round("B"))
    first = builder.step()
    assert first is not None and json.loads(frames.after("0-0")[0].full)["full"] is True
    assert builder.step() is None  # nothing changed
    parts.writer.append("g1", "s1", 2, Round("P"))
    second_id = builder.step()
    assert second_id is not None
    second = json.loads(frames.after(first)[0].full)
    after = json.loads(frames.after("0-0")[0].full)["cursor"]
    assert second == {
        "cursor": second["cursor"],
        "after": after,
        "server_time": second["server_time"],
        "tables": {"g1": second["tables"]["g1"]},
    }
    built = datetime.fromisoformat(second["server_time"])
    assert abs((datetime.now(UTC) - built).total_seconds()) < 5
    assert second["tables"]["g1"]["results"] == ["P"]
    other = FrameBuilder(parts.lobby, frames, lease_ms=2000)
    assert other.step() is None  # the lease is held
    time.sleep(2.1)  # the first holder's lease runs out: the next starts with the whole lobby
    assert other.step() is not None
    (whole,) = frames.after(second_id)
    assert json.loads(whole.full) == {**json.loads(whole.full), "full": True}
    assert set(json.loads(whole.full)["tables"]) == {"g1"}


def until(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_started_builder_stands_by_until_its_process_wants_frames(parts):
    frames = frames_of(parts)
    parts.writer.append("w1", "s1", 1, Round("B"))
    builder = FrameBuilder(parts.lobby, frames, frame_ms=50, lease_ms=500)
    builder.start()
    try:
        assert builder.running()
        assert not until(lambda: frames.after("0-0"), seconds=0.5)  # nobody wants frames
        assert parts.transport.command("GET", parts.keys.lobby.framer) is None  # nor the lease
        builder.want()
        assert until(lambda: frames.after("0-0"))
    finally:
        builder.stop()
    assert until(lambda: not builder.running())

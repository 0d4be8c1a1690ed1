"""The frame builder: a client that holds the first frame (full) and applies every next one
holds, at each frame, the tiles ``GET /v1/tables`` answers then, with the odds and without."""

from __future__ import annotations

import itertools
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.codecs.frames import apply
from api.live.framer import FrameBuilder
from api.storage.framestream import FrameStream
from tests.api_helpers import post_round
from tests.conftest import AUTH

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


def lobby_tiles(client, headers=None) -> dict[str, dict]:
    answer = client.get("/v1/tables", headers=headers or {})
    assert answer.status_code == 200
    return {tile["table"]: tile for tile in answer.json["tables"]}


class Dealer:
    def __init__(self, client, run: int) -> None:
        self.client = client
        self.shoes = {table: [f"r{run}s0", 0] for table in TABLES}

    def act(self, kind: str, table: str, *args) -> None:
        shoe = self.shoes[table]
        base = f"/v1/tables/{table}/shoes/{shoe[0]}/rounds"
        if kind == "round":
            assert (
                post_round(self.client, shoe[1] + 1, table, shoe[0], result=args[0]).status_code
                == 201
            )
            shoe[1] += 1
        elif kind == "void" and shoe[1] >= args[0]:
            self.client.post(f"{base}/{args[0]}/void", headers=AUTH)
        elif kind == "correct" and shoe[1] >= args[0]:
            self.client.put(f"{base}/{args[0]}", json={"result": "T"}, headers=AUTH)
        elif kind == "new_shoe":
            shoe[0], shoe[1] = f"{shoe[0]}n", 0
        elif kind == "rename":
            self.client.put(
                f"/v1/tables/{table}",
                json={"name": f"N{shoe[1]}", "variant": "speed"},
                headers=AUTH,
            )
        elif kind == "retire":
            self.client.delete(f"/v1/tables/{table}", headers=AUTH)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS, frames_after=st.lists(st.booleans(), min_size=60, max_size=60))
def test_frames_rebuild_the_lobby_at_every_frame(app, redis_client, steps, frames_after):
    for key in redis_client.keys("*"):  # each example starts from an empty lobby
        redis_client.delete(key)
    client, services = app.test_client(), app.extensions["roads"]
    frames = FrameStream(services.transport, services.keys.lobby)
    builder = FrameBuilder(services.lobby, frames)
    dealer = Dealer(client, next(RUNS))
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
            assert held["full"] == lobby_tiles(client, AUTH)
            public = {t: {**tile, "edge": {}} for t, tile in held["full"].items()}
            assert held["public"] == public

    frame()
    for step, then_frame in zip(steps, frames_after, strict=False):
        dealer.act(*step)
        if then_frame:
            frame()
    frame()


def test_no_frame_when_nothing_changed_and_a_new_holder_starts_full(app):
    client, services = app.test_client(), app.extensions["roads"]
    frames = FrameStream(services.transport, services.keys.lobby)
    builder = FrameBuilder(services.lobby, frames, lease_ms=200)
    post_round(client, 1, "g1", "s1", result="B")
    first = builder.step()
    assert first is not None and json.loads(frames.after("0-0")[0].full)["full"] is True
    assert builder.step() is None  # nothing changed
    post_round(client, 2, "g1", "s1", result="P")
    assert builder.step() is not None
    second = json.loads(frames.after(first)[0].full)
    after = json.loads(frames.after("0-0")[0].full)["cursor"]
    assert second == {
        "cursor": second["cursor"],
        "after": after,
        "tables": {"g1": second["tables"]["g1"]},
    }
    assert second["tables"]["g1"]["results"] == ["P"]
    other = FrameBuilder(services.lobby, frames, lease_ms=200)
    assert other.step() is None  # the lease is held

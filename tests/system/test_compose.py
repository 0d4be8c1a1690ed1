"""The compose stack (deploy/compose.yaml) brought up by podman-compose: the two doors, the
recorder, the one-shot migration, Redis with its append-only file, PostgreSQL with the record's
two roles and nginx with nchan in front. A round posted through nginx reaches the ingest door,
a lobby viewer of nchan and the record; after ``down`` (the volumes kept) and ``up`` the round is
still there and the next one goes on from it; ``down -v`` and the test's own clean-up remove
every container, volume, network and file it made.

No image registry is reachable here: the third parties' images are stand-ins built from the
suite's local Debian base (tests/images/), nchan's from deploy/nchan's own Containerfile on the
same base, and the service's from the project's Containerfile (tests/images/ says how).
"""

from __future__ import annotations

import json
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import KEY
from tests.gunicorn_server import send
from tests.images.stack import Stack, available
from tests.lobbyviewer import kept_from, lobby_of
from tests.sse_client import SSEClient

pytestmark = pytest.mark.skipif(
    not available(), reason="podman, runc, debootstrap or podman-compose is not installed"
)


@pytest.fixture
def stack():
    # A folder removed afterwards (pytest keeps its tmp_path): it holds the env files' secrets.
    with (
        tempfile.TemporaryDirectory(prefix="roads-compose-") as folder,
        Stack(Path(folder)) as made,
    ):
        yield made


def deal(base: str, table: str, rounds: range) -> None:
    for number in rounds:
        send(base, "POST", f"/v1/tables/{table}/shoes/s1/rounds", {"round": number, **RESULT}, KEY)


RESULT = {"result": "B", "player_total": 3, "banker_total": 7}


def history(base: str, table: str) -> list[int]:
    with urllib.request.urlopen(f"{base}/v1/tables/{table}/shoes/s1/rounds", timeout=10) as got:
        return [item["round"] for item in json.load(got)["rounds"]]


def writes(log: str) -> int:
    """The writes a door's access log (one JSON object a line) shows it answered."""
    lines = (json.loads(line) for line in log.splitlines() if line.startswith("{"))
    return sum(
        1 for line in lines if line.get("logger") == "roads.access" and line["method"] == "POST"
    )


def recorded(stack: Stack, table: str, want: int, seconds: float = 30.0) -> list[tuple]:
    """The record's writes of ``table`` (round, prev_hash, hash) in order, once it holds
    ``want`` rounds (it must within ``seconds``: the recorder passes every second or so)."""
    deadline = time.monotonic() + seconds
    while True:
        rows = stack.sql(
            "SELECT round, prev_hash, hash FROM record_writes"
            f" WHERE table_id = '{table}' AND kind = 'round' ORDER BY number"
        )
        if len(rows) >= want or time.monotonic() > deadline:
            assert len(rows) == want, f"the record holds {len(rows)} rounds of {want}"
            return rows
        time.sleep(0.5)


def test_a_round_through_the_stack_reaches_the_lobby_and_the_record_and_outlives_a_restart(
    stack,
):
    stack.up()
    base = stack.url
    viewer = SSEClient(base + "/v1/events/nchan")
    time.sleep(0.3)  # subscribed before the snapshot: no frame falls between the two
    with urllib.request.urlopen(base + "/v1/lobby/frame", timeout=10) as answer:
        snapshot = json.load(answer)
    deal(base, "c1", range(1, 4))  # through nginx to the ingest door
    # The public door's workers run at nice 10: on a loaded box its frames may take a while.
    deadline = time.monotonic() + 30
    # A frame may hold c1 after its first or second round: wait for the frame of the third.
    lobby = lobby_of(base)["c1"]
    while kept_from(snapshot, viewer.events).get("c1") != lobby and time.monotonic() < deadline:
        time.sleep(0.2)
    viewer.close()
    held = kept_from(snapshot, viewer.events)
    assert "c1" in held, f"no frame of c1 through nchan: {viewer.events}\n{stack.logs('public')}"
    assert held["c1"] == lobby  # the frames nchan sent hold the third round
    assert history(base, "c1") == [1, 2, 3]
    # nginx sent the writes to the ingest door, and none to the public one (which refuses them).
    assert writes(stack.logs("ingest", lines=0)) == 3 and writes(stack.logs("public", lines=0)) == 0
    before = recorded(stack, "c1", 3)
    # Recorded as the service's own role, which may not change what it recorded (the
    # superuser's sessions are the test's own psql, the last of which may still be ending).
    assert stack.sql(
        "SELECT DISTINCT usename FROM pg_stat_activity"
        " WHERE datname = 'roads' AND usename <> current_user"
    ) == [("roads",)]
    assert stack.sql("SELECT tableowner FROM pg_tables WHERE tablename = 'record_writes'") == [
        ("roads_owner",)
    ]
    assert stack.sql(
        "SELECT has_table_privilege('roads', 'record_writes', 'INSERT'),"
        " has_table_privilege('roads', 'record_writes', 'UPDATE'),"
        " has_table_privilege('roads', 'record_writes', 'DELETE')"
    ) == [("t", "f", "f")]

    stack.down()  # the volumes kept
    assert stack.containers() == []
    stack.up()
    assert history(base, "c1") == [1, 2, 3]  # Redis's append-only file
    assert recorded(stack, "c1", 3) == before  # PostgreSQL's volume
    with pytest.raises(urllib.error.HTTPError) as refused:  # not a new shoe: it goes on
        send(base, "POST", "/v1/tables/c1/shoes/s1/rounds", {"round": 1, "result": "P"}, KEY)
    assert refused.value.code == 409
    deal(base, "c1", range(4, 5))
    assert history(base, "c1") == [1, 2, 3, 4]
    after = recorded(stack, "c1", 4)
    assert after[:3] == before and after[3][1] == before[2][2]  # one unbroken chain

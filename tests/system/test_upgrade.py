"""A rolling upgrade from the previous release, and a rollback to it (issue 43, item 8), as
docs/operations.md ("Upgrades and rollbacks") tells an operator to make them.

The previous release is the newest one CHANGELOG.md names (:mod:`tests.changelog`); its tree is
taken from git (``git archive``: the suite needs a full clone) and run under gunicorn with its own
``gunicorn.conf.py`` and ``wsgi.py`` and this venv's packages, beside this checkout's code, both on
one real Redis and one real PostgreSQL the test starts (its recorder records to PostgreSQL too).

- The previous release fills several tables: several shoes, cards and results alone, and a table
  on a break (no round after the upgrade).
- Rolling upgrade: the new code starts beside the old, then the old stops. Every table's roads
  read from the new equal what the old served and the roads the ``roads`` library makes of the
  rounds posted; every lobby tile is whole at once, the table on a break's too; a round written
  through either instance while both run is read exact by both; the record stays one chain.
- Rollback: after the new code wrote rounds (and opened a shoe), the previous release starts
  again beside it, then the new stops: it serves every table exact, every tile whole, and takes
  the next round.

``ROADS_UPGRADE_FROM=VERSION`` tries the upgrade from an earlier release by hand: the earlier
release's own answers are then held field by field (its documents had fewer), and a release
before the record fails at the record's checks.
"""

from __future__ import annotations

import importlib.metadata
import io
import json
import os
import subprocess
import tarfile
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest
from packaging.requirements import Requirement

from api.codecs.tiles import TILE_FORMAT
from api.http.responses import RoadsSchema
from roads import Round, Scorecard
from roads.lobby import LOBBY_ROADS, summary
from roads.simulator import deal_shoe
from roads.verify import verify, writes_of
from tests.changelog import releases
from tests.gunicorn_server import ROOT, Served, gunicorn, send

KEY = "upgrade-ingest-key"
# The newest release (what a deployment runs before this one), or ROADS_UPGRADE_FROM's.
UPGRADE_FROM = os.environ.get("ROADS_UPGRADE_FROM")
PREVIOUS = next((r for r in releases() if r.version == UPGRADE_FROM), releases()[0])
ON_A_BREAK = "t-break"  # dealt by the previous release only
SETTLE_SECONDS = 3.0  # how long a write through one instance may take to reach the other's reads
FRAME_SECONDS = 10.0  # the frame builder stands by until asked (1 s), then takes its lease

Rounds = dict[tuple[str, str], list[Round]]  # (table, shoe) -> the rounds posted, in order


@pytest.fixture(scope="module")
def previous_tree(tmp_path_factory) -> Path:
    """The previous release's tree, from git."""
    tree = tmp_path_factory.mktemp("previous-release")
    archive = subprocess.run(
        ["git", "archive", "--format=tar", PREVIOUS.commit],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    return tree


def unmet(pyproject: Path) -> list[str]:
    """The requirements of ``pyproject``'s ``dependencies`` this venv does not satisfy."""
    wanted = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    missing = []
    for line in wanted:
        requirement = Requirement(line)
        try:
            have = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(f"{line} (not installed)")
            continue
        if not requirement.specifier.contains(have, prereleases=True):
            missing.append(f"{line} (installed {have})")
    return missing


def test_the_previous_release_runs_on_this_releases_packages(previous_tree):
    """The upgrade test runs the previous release with this venv: its dependencies must hold."""
    assert unmet(previous_tree / "pyproject.toml") == []


def test_a_rolling_upgrade_and_a_rollback_keep_every_table_exact(
    previous_tree, redis_server, database_url, tmp_path
):
    env = {
        "REDIS_URL": redis_server.url,
        "ROADS_INGEST_KEYS": KEY,
        "ROADS_WORKERS": "1",
        "ROADS_DATABASE_URL": database_url,
        "ROADS_PUBLIC_RECORD": "1",  # the exports read anonymously
        "ROADS_PUBLIC_ODDS": "1",  # tiles carry their edge: it is compared too
    }

    def start(stack: ExitStack, root: Path, name: str) -> Served:
        return stack.enter_context(
            gunicorn("wsgi:app", env, log=tmp_path / f"{name}.log", root=root)
        )

    posted: Rounds = {}
    with ExitStack() as old_life:
        old = start(old_life, previous_tree, "old")
        fill(old, posted)
        served_before = {table: get(old, f"/v1/tables/{table}/roads") for table, _ in posted}
        tiles_before = tiles_of(old)
        with ExitStack() as new_life:
            new = start(new_life, ROOT, "new")
            assert tile_problems(new, posted) == []  # at once: no round since the new code started
            settled(lambda: frame_whole(new, posted), seconds=FRAME_SECONDS)
            for table, roads in served_before.items():
                assert holds(get(new, f"/v1/tables/{table}/roads"), roads), table
                assert roads_exact(new, posted, table), table
            for table, tile in tiles_before.items():
                assert same_tile(tiles_of(new)[table], tile), table
            # Both running: a round through each is read exact by both.
            post(old, posted, "t1", 1)
            post(new, posted, "t2", 1)
            for base in (old, new):
                for table in ("t1", "t2"):
                    whole = base is new or UPGRADE_FROM is None
                    settled(lambda b=base, t=table, w=whole: roads_exact(b, posted, t, whole=w))
                # (the old release serves a tile as stored: its own format, or a newer one)
                at_least = TILE_FORMAT if base is new else None
                settled(lambda b=base, f=at_least: not tile_problems(b, posted, f))
            old_life.close()  # drain and stop the old instance
            writes = sum(map(len, posted.values()))
            wait_recorded(database_url, writes)
            assert_record_chained(new, database_url, posted)
            # The new release alone: it writes on, opens a shoe.
            post(new, posted, "t0", 2)
            post(new, posted, "t3", 1, shoe="s-new")
            assert tile_problems(new, posted) == []
            # Rollback: the previous release beside the new, then the new stops.
            with ExitStack() as back_life:
                back = start(back_life, previous_tree, "rollback")
                new_life.close()
                for table, _ in posted:
                    assert roads_exact(back, posted, table, whole=UPGRADE_FROM is None), table
                assert tile_problems(back, posted, format_at_least=None) == []
                post(back, posted, "t1", 1)
                post(back, posted, "t3", 1, shoe="s-new")
                for table in ("t1", "t3"):
                    settled(
                        lambda t=table: roads_exact(back, posted, t, whole=UPGRADE_FROM is None)
                    )
                settled(lambda: not tile_problems(back, posted, format_at_least=None))
                wait_recorded(database_url, sum(map(len, posted.values())))
                assert_record_chained(back, database_url, posted)


# -- filling and writing ---------------------------------------------------------------------


def body_of(round: Round, *, cards: bool) -> dict:
    """A round as a game server posts it: its cards, or its result alone."""
    if cards:
        return {
            "player": [str(card) for card in round.player_cards],
            "banker": [str(card) for card in round.banker_cards],
        }
    return {
        "result": round.result,
        "player_pair": round.player_pair,
        "banker_pair": round.banker_pair,
        "natural": round.natural,
    }


def as_posted(round: Round, *, cards: bool) -> Round:
    """The round the service keeps of what :func:`body_of` sent."""
    if cards:
        return round
    return Round.from_result(
        round.result,
        player_pair=round.player_pair,
        banker_pair=round.banker_pair,
        natural=round.natural,
    )


# table -> (shoe, seed, rounds, with cards) in order: a table's last shoe is its current one.
PLAN = {
    "t0": [("s1", 1, 90, True), ("s2", 2, 30, True)],
    "t1": [("s1", 3, 45, True)],
    "t2": [("s1", 4, 40, True), ("s2", 5, 12, True)],
    "t3": [("s1", 6, 35, False)],
    ON_A_BREAK: [("s1", 7, 25, True)],
}
RESULTS_ONLY = {"t3"}


def fill(base: str, posted: Rounds) -> None:
    """Deal :data:`PLAN` through ``base``'s batch endpoint, 200 rounds a request."""
    items = []
    for table, shoes in PLAN.items():
        for shoe, seed, count, cards in shoes:
            dealt = deal_shoe(seed=seed)[:count]
            posted[(table, shoe)] = [as_posted(r, cards=cards) for r in dealt]
            items += [
                {"table": table, "shoe": shoe, "round": n, **body_of(r, cards=cards)}
                for n, r in enumerate(dealt, start=1)
            ]
    for start in range(0, len(items), 200):
        send(base, "POST", "/v1/rounds", {"rounds": items[start : start + 200]}, KEY)


def post(base: str, posted: Rounds, table: str, count: int, *, shoe: str | None = None) -> None:
    """``count`` more rounds of ``table`` through ``base``: of its current shoe, or of ``shoe``
    (a new one, which becomes its current shoe)."""
    cards = table not in RESULTS_ONLY
    shoe = shoe or current_shoe(posted, table)
    rounds = posted.setdefault((table, shoe), [])  # a new shoe goes last: the current one
    dealt = deal_shoe(seed=seed_of(table, shoe))  # the shoe dealt on, card after card
    for round in dealt[len(rounds) : len(rounds) + count]:
        path = f"/v1/tables/{table}/shoes/{shoe}/rounds"
        send(base, "POST", path, {"round": len(rounds) + 1, **body_of(round, cards=cards)}, KEY)
        rounds.append(as_posted(round, cards=cards))


def seed_of(table: str, shoe: str) -> int:
    """The simulator's seed of a shoe: :data:`PLAN`'s, or one of its own for a shoe opened
    later."""
    planned = {(table, s): seed for s, seed, _, _ in PLAN.get(table, [])}
    return planned.get((table, shoe), 100 + sum(map(ord, table + shoe)))


def current_shoe(posted: Rounds, table: str) -> str:
    return [shoe for t, shoe in posted if t == table][-1]


# -- reading -----------------------------------------------------------------------------------


def get(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        return json.load(answer)


def expected_roads(posted: Rounds, table: str) -> dict:
    """The roads document the ``roads`` library makes of the table's current shoe's rounds."""
    scorecard = Scorecard.from_rounds(posted[(table, current_shoe(posted, table))])
    return json.loads(json.dumps(RoadsSchema().dump(scorecard.as_dict())))


def roads_exact(base: str, posted: Rounds, table: str, *, whole: bool = True) -> bool:
    """``base`` serves the table's current shoe's roads as the library makes them (and names
    the shoe, at a version no lower than its rounds: every write raises it). Not ``whole``: an
    earlier release's answer, each field it has as the library makes it (for a trial from a
    release older than the previous one, whose document had fewer fields)."""
    answer = get(base, f"/v1/tables/{table}/roads")
    shoe = current_shoe(posted, table)
    named = (answer.pop("table"), answer.pop("shoe"), answer.pop("version"))
    expected = expected_roads(posted, table)
    return (
        (answer == expected if whole else holds(expected, answer))
        and named[:2] == (table, shoe)
        and named[2] >= len(posted[(table, shoe)])
    )


def tiles_of(base: str) -> dict[str, dict]:
    return {tile["table"]: tile for tile in get(base, "/v1/tables")["tables"]}


def runs(streaks: dict) -> dict:
    """Each lobby road's current and longest run, without the chances stated beside them (those
    follow the lobby's number of tables when the tile was made)."""
    return {
        road: {which: (r[which]["side"], r[which]["length"]) for which in ("current", "longest")}
        for road, r in streaks.items()
    }


def holds(new: dict, old: dict) -> bool:
    """The new release's answer holds every field of the old one's (a field added aside)."""
    return {k: new.get(k) for k in old} == old


def same_tile(new: dict, old: dict) -> bool:
    """The new release's tile holds the old one's (a field added since aside), runs' chances
    aside."""
    return {k: new[k] for k in old if k != "streaks"} == {
        k: v for k, v in old.items() if k != "streaks"
    } and runs(new["streaks"]) == runs(old["streaks"])


def tile_problems(
    base: str | dict[str, dict], posted: Rounds, format_at_least: int | None = TILE_FORMAT
) -> list[str]:
    """What is not whole in each table's tile (the lobby ``base`` serves, or these tiles),
    against the summary the ``roads`` library makes of its current shoe's rounds (empty: every
    tile whole)."""
    found = tiles_of(base) if isinstance(base, str) else base
    problems = []
    for table in {table for table, _ in posted}:
        shoe = current_shoe(posted, table)
        rounds = posted[(table, shoe)]
        want = {**summary(Scorecard.from_rounds(rounds)), "shoe": shoe}
        tile = found.get(table)
        if tile is None:
            problems.append(f"{table}: no tile")
            continue
        for field, value in want.items():
            if field not in tile and format_at_least is None and UPGRADE_FROM is not None:
                continue  # an earlier release's tile, in a trial from before the field came
            same = runs(tile[field]) == runs(value) if field == "streaks" else tile[field] == value
            if not same:
                problems.append(f"{table}: {field}")
        if format_at_least is not None and tile.get("format", 1) < format_at_least:
            problems.append(f"{table}: format {tile.get('format', 1)}")
        if "roads" in tile and not tile["roads"][LOBBY_ROADS[0]]["cols"]:
            problems.append(f"{table}: no Big Road cells")
    return sorted(problems)


def frame_whole(base: str, posted: Rounds) -> bool:
    """The whole lobby ``GET /v1/lobby/frame`` serves (once the frame builder made one: 503
    before) holds every tile whole."""
    try:
        frame = get(base, "/v1/lobby/frame")
    except urllib.error.HTTPError as error:
        if error.code == 503:
            return False
        raise
    return not tile_problems(frame["tables"], posted)


def settled(check: Callable[[], bool], seconds: float = SETTLE_SECONDS) -> None:
    """``check`` holds within ``seconds`` (another instance's write reaches this one's reads
    through Redis's version channel)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"not within {seconds} s"
        time.sleep(0.05)


# -- the record ------------------------------------------------------------------------------


def recorded(database_url: str) -> int:
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT count(*) FROM record_writes").fetchone()[0]


def wait_recorded(database_url: str, writes: int, seconds: float = 30) -> None:
    """Every round written is in the record (a stopped instance's recorder hands over: its
    lease expires in 5 s)."""
    deadline = time.monotonic() + seconds
    while recorded(database_url) < writes:
        assert time.monotonic() < deadline, f"{recorded(database_url)} of {writes} recorded"
        time.sleep(0.2)
    assert recorded(database_url) == writes


def assert_record_chained(base: str, database_url: str, posted: Rounds) -> None:
    """Each table's log numbered 1..n without a gap, each shoe's export a chain that holds and
    goes on from the head of the table's shoe before it."""
    with psycopg.connect(database_url) as conn:
        numbers = dict(
            conn.execute(
                "SELECT table_id, array_agg(number ORDER BY number) FROM record_writes GROUP BY 1"
            ).fetchall()
        )
    tables = {table for table, _ in posted}
    assert set(numbers) == tables
    for table in tables:
        shoes = [shoe for t, shoe in posted if t == table]
        assert list(numbers[table]) == list(range(1, len(numbers[table]) + 1)), table
        head = None
        for shoe in shoes:
            with urllib.request.urlopen(f"{base}/v1/tables/{table}/shoes/{shoe}/export") as got:
                export = got.read().decode()
            lines = list(writes_of(export))
            verdict = verify(lines)
            assert verdict.holds, (table, shoe, verdict.reason)
            assert verdict.writes == len(posted[(table, shoe)])
            if head is not None:
                assert lines[0][1]["prev_hash"] == head, (table, shoe)
            head = verdict.head

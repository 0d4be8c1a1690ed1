"""What a card round costs the service's worker, against a ``GET /livez`` (issue 44).

A private redis-server and one gunicorn worker of the service (the ingest door, the project's
gunicorn.conf.py, production settings: access log, request metrics and the integrity watch on);
25 tables, and their card rounds sent one at a time over one keep-alive connection, each table's
next round after the other tables' (a new simulated shoe per table and run, so no memo of a
composition is ever hit twice). The rounds go in blocks of 25 (one a table), each followed by 25
``GET /livez`` on the same connection, so the machine's load falls on both alike; the worker's
CPU time, every thread's, is read around each block (``/proc/<pid>/task/*/schedstat``, in ns;
utime + stime from ``/proc/<pid>/stat`` in clock ticks is printed beside it as a check): CPU
per round, per livez, and their ratio, three runs.

Then where a round's CPU goes, without a sampling profiler: the same requests in process through
the Flask test client, first unprofiled with the CPU of ``plan_append`` and of the commit taken
around them, then under cProfile: each named part's cumulative share, and the top cumulative
entries.

Run: ``python benchmarks/write_cpu_bench.py [--rounds 1000] [--runs 3] [--profile-rounds 500]
[--compare DIR]``: with ``--compare`` (an export of another commit, ``git archive``), a worker of
that checkout runs beside this one's on the same Redis, the runs alternating between them.
Target (issue 44): a round <= 5x a livez (11-12x at 564660e).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import http.client
import json
import os
import pstats
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

from serving import ROOT, gunicorn, redis_server

from api import create_app
from api.config import Settings
from api.services import Services
from roads import Round
from roads.simulator import deal_shoe
from tests.redis_server import free_port

KEY = "bench-key"
TABLES = 25
# The parts of a round named in the breakdown: (label, file suffix, function name).
PARTS = (
    ("the view (post_round)", "api/http/rounds.py", "post_round"),
    ("plan_append", "api/plan/planner.py", "plan_append"),
    ("the commit (RoundStore.commit)", "api/storage/rounds.py", "commit"),
    ("the read (read_bases)", "api/storage/rounds.py", "read_bases"),
    ("the body's validation (webargs parse)", "webargs/core.py", "parse"),
    ("the answer's JSON (dumps)", "api/codecs/jsontext.py", "dumps"),
    ("Round.from_cards", "roads/round.py", "from_cards"),
)


def body(number: int, round: Round) -> bytes:
    """A card report as a dealer's game server sends it."""
    return json.dumps(
        {
            "round": number,
            "player": [str(card) for card in round.player_cards],
            "banker": [str(card) for card in round.banker_cards],
        }
    ).encode()


def reports(
    run: int, rounds: int, shoe: str, tables: str = "t"
) -> Iterator[tuple[str, str, bytes]]:
    """``rounds`` card reports of the 25 tables named ``tables`` + 0..24 in turn, in a new
    ``shoe`` of each, dealt by the simulator from seeds never used before in the process (each
    run's own)."""
    shoes = {t: deal_shoe(1_000 * run + t) for t in range(TABLES)}
    sent = 0
    for number in range(1, 200):
        for t in range(TABLES):
            if number <= len(shoes[t]):
                yield f"{tables}{t}", shoe, body(number, shoes[t][number - 1])
                sent += 1
                if sent == rounds:
                    return
    raise SystemExit(f"the shoes hold fewer than {rounds} rounds: ask for fewer")


def ticks(pid: int) -> int:
    """The process's CPU time so far, user + system, in clock ticks (``/proc/<pid>/stat``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def cpu_ns(pid: int) -> int:
    """The process's CPU time so far, every thread's, in nanoseconds (``schedstat``): fine
    enough to time a block of 25 requests, where a clock tick is 10 ms."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):
            total += int((task / "schedstat").read_text().split()[0])
    return total


def post_all(connection: http.client.HTTPConnection, sends) -> None:
    headers = {"Content-Type": "application/json", "X-API-Key": KEY}
    for table, shoe, payload in sends:
        connection.request("POST", f"/v1/tables/{table}/shoes/{shoe}/rounds", payload, headers)
        answer = connection.getresponse()
        text = answer.read()
        if answer.status != 201:
            raise SystemExit(f"POST {table}/{shoe}: {answer.status} {text!r}")


def get_all(connection: http.client.HTTPConnection, count: int) -> None:
    for _ in range(count):
        connection.request("GET", "/livez")
        answer = connection.getresponse()
        answer.read()
        if answer.status != 200:
            raise SystemExit(f"GET /livez: {answer.status}")


def ingest_door(redis_url: str, port: int) -> dict[str, str]:
    """The environment of an ingest door of one worker on ``port``, without the recorder."""
    return {
        "REDIS_URL": redis_url,
        "ROADS_DOOR": "ingest",
        "ROADS_INGEST_BIND": f"127.0.0.1:{port}",
        "ROADS_INGEST_WORKERS": "1",
        "ROADS_RECORDER": "0",
        "ROADS_INGEST_KEYS": KEY,
        "ROADS_DEMO": "0",
    }


def seed_tables(url: str, names: tuple[str, ...] = ("t",)) -> None:
    """25 tables named each of ``names`` + 0..24 (one set for each checkout run)."""
    tables = Services.build(Settings(redis_url=url, ingest_keys=(KEY,))).tables
    for name in names:
        for t in range(TABLES):
            tables.put(f"{name}{t}", f"Table {t}", "standard")


def served(rounds: int, runs: int, roots: list[Path]) -> None:
    print(f"== one gunicorn worker (ingest door): {rounds} card rounds of {TABLES} tables, then")
    print(f"   {rounds} GET /livez, one keep-alive connection, sequential; {runs} runs")
    ratios: dict[Path, list[float]] = {root: [] for root in roots}
    with redis_server() as server, contextlib.ExitStack() as stack:
        seed_tables(server.url, tuple(f"c{number}t" for number in range(len(roots))))
        workers = {}
        for root in roots:  # one worker per checkout, each run alternating between them
            port = free_port()
            env = ingest_door(server.url, port)
            base = stack.enter_context(gunicorn("wsgi:app", env, port=port, root=root))
            (worker,) = base.workers()
            workers[root] = (worker, port)
        for run in range(1, runs + 1):
            spent = {root: [0, 0, 0, 0] for root in roots}  # round ns, livez ns, their ticks
            batches = {}
            for number, root in enumerate(roots):
                worker, port = workers[root]
                # A connection of each run's own: one idle past ROADS_KEEPALIVE is closed.
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                get_all(connection, 50)  # the connection, and the worker's first requests
                sends = list(reports(run, rounds, f"s{run}", f"c{number}t"))
                batches[root] = (worker, connection, sends)
            # Blocks of a round of every table, then as many livez, each checkout's in turn: the
            # machine's load falls on both kinds of request alike.
            for start in range(0, rounds, TABLES):
                for root in roots:
                    worker, connection, sends = batches[root]
                    at, tick = cpu_ns(worker), ticks(worker)
                    post_all(connection, sends[start : start + TABLES])
                    middle, middle_tick = cpu_ns(worker), ticks(worker)
                    get_all(connection, len(sends[start : start + TABLES]))
                    end, end_tick = cpu_ns(worker), ticks(worker)
                    each = spent[root]
                    each[0] += middle - at
                    each[1] += end - middle
                    each[2] += middle_tick - tick
                    each[3] += end_tick - middle_tick
            for root in roots:
                batches[root][1].close()
                round_ns, livez_ns, round_ticks, livez_ticks = spent[root]
                ratio = round_ns / livez_ns
                ratios[root].append(ratio)
                print(
                    f"  run {run} {label(root):<24} CPU a round {round_ns / 1e3 / rounds:6.0f} us"
                    f"   a livez {livez_ns / 1e3 / rounds:4.0f} us   ratio {ratio:5.1f}x"
                    f"   (/proc stat ticks: {round_ticks / livez_ticks:4.1f}x)"
                )
    for root in roots:
        median = statistics.median(ratios[root])
        verdict = "met" if median <= 5 else "MISSED"
        print(f"  {label(root):<24} median ratio {median:.1f}x   target <= 5x  {verdict}")


def label(root: Path) -> str:
    return "this checkout" if root == ROOT else str(root)


def profiled(rounds: int, dump: str | None = None) -> None:
    """The same requests in process: first unprofiled, with the CPU (this thread's) of
    ``plan_append`` and of the commit taken around them; then under cProfile."""
    print(f"\n== in process (Flask test client): {rounds} card rounds, then as many livez")
    with redis_server() as server:
        seed_tables(server.url)
        app = create_app(Settings(redis_url=server.url, ingest_keys=(KEY,), door="ingest"))
        client = app.test_client()
        for _ in range(20):
            client.get("/livez")
        spent = {"plan_append": 0.0, "commit": 0.0}
        first, second = list(reports(8, rounds, "p1")), list(reports(9, rounds, "p2"))
        with timing(spent):
            start = time.thread_time()
            post_in_process(client, first)
            took = time.thread_time() - start
        start = time.thread_time()
        for _ in range(rounds):
            client.get("/livez")
        livez = time.thread_time() - start
        each = {name: 1e6 * value / rounds for name, value in spent.items()}
        rest = 1e6 * took / rounds - each["plan_append"] - each["commit"]
        print(
            f"  unprofiled, CPU a round {1e6 * took / rounds:.0f} us: plan_append "
            f"{each['plan_append']:.0f}, the commit {each['commit']:.0f}, the rest {rest:.0f} "
            f"(the HTTP layer, the test client); a livez {1e6 * livez / rounds:.0f} us"
        )
        profile = cProfile.Profile(time.thread_time)  # CPU: not the wait on Redis
        profile.enable()
        post_in_process(client, second)
        profile.disable()
    stats = pstats.Stats(profile)
    if dump:
        stats.dump_stats(dump)
    shares(stats, rounds)


def post_in_process(client, sends) -> None:
    for table, shoe, payload in sends:
        answer = client.post(
            f"/v1/tables/{table}/shoes/{shoe}/rounds",
            data=payload,
            headers={"X-API-Key": KEY},
            content_type="application/json",
        )
        assert answer.status_code == 201, answer.get_data()


@contextlib.contextmanager
def timing(spent: dict[str, float]):
    """This thread's CPU in ``plan_append`` and in the commit, added to ``spent``."""
    import api.writes.writer as writer
    from api.storage.rounds import RoundStore

    def timed(name, function):
        def call(*args, **kwargs):
            start = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] += time.thread_time() - start

        return call

    plan, commit = writer.plan_append, RoundStore.commit
    writer.plan_append, RoundStore.commit = timed("plan_append", plan), timed("commit", commit)
    try:
        yield
    finally:
        writer.plan_append, RoundStore.commit = plan, commit


def shares(stats: pstats.Stats, rounds: int) -> None:
    """Each named part's cumulative time, a round and as a share of the profiled total; then
    the top cumulative entries."""
    total = stats.total_tt
    print(f"  under cProfile: {1e6 * total / rounds:.0f} us a round (profiling overhead in)")
    cumulative: dict[str, float] = {}
    for (path, _, name), (_, _, _, ct, _) in stats.stats.items():
        for part, suffix, function in PARTS:
            if name == function and path.endswith(suffix):
                cumulative[part] = cumulative.get(part, 0.0) + ct
    for part, _, _ in PARTS:
        spent = cumulative.get(part, 0.0)
        print(f"  {part:<40} {1e6 * spent / rounds:7.0f} us a round  {100 * spent / total:5.1f}%")
    outside = total - cumulative.get("plan_append", 0.0)
    print(
        f"  {'everything but plan_append':<40} {1e6 * outside / rounds:7.0f} us a round"
        f"  {100 * outside / total:5.1f}%"
    )
    print("  top cumulative entries:")
    stats.sort_stats("cumulative").print_stats(40)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile-rounds", type=int, default=500)
    parser.add_argument("--no-served", action="store_true", help="the in-process profile alone")
    parser.add_argument(
        "--compare",
        action="append",
        default=[],
        help="another checkout (a directory) to run beside this one, alternating",
    )
    parser.add_argument("--dump", help="write the profile's stats to this file (pstats)")
    args = parser.parse_args()
    os.chdir(ROOT)
    if not args.no_served:
        served(args.rounds, args.runs, [ROOT, *(Path(c).resolve() for c in args.compare)])
    if args.profile_rounds:
        profiled(args.profile_rounds, args.dump)


if __name__ == "__main__":
    main()

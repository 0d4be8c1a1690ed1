"""A coverage-guided fuzz campaign (atheris, libFuzzer for Python) over the parsers a hostile
client reaches: the JSON body decoder, cards and rounds, the custom Good Road patterns, the event
id and the query schemas. Each input picks one parser; the only exceptions allowed are the
parser's own refusals (what the service answers 400 or 422 for): anything else is a crash.

Run: ``python benchmarks/fuzz.py --seconds 600`` (needs ``pip install atheris``). It prints the
executions a second, the coverage reached (libFuzzer's edges and features) and the crashes found
(each input kept in ``benchmarks/fuzz-crashes/``; make each a regression test). Not a test: it
runs for as long as it is told. ``--corpus DIR`` keeps what it learned between runs.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRASHES = ROOT / "benchmarks" / "fuzz-crashes"


def parsers() -> list:
    """Each parser as (what it allows to be raised, a function of the fuzzer's data)."""
    from marshmallow import ValidationError

    from api.codecs.feedevents import is_event_id
    from api.codecs.requestbody import BodyError, decode_body
    from api.http.requests import (
        BatchInSchema,
        CorrectionSchema,
        EventsQuerySchema,
        GoodRoadsQuerySchema,
        ImageQuerySchema,
        LobbyQuerySchema,
        RoundInSchema,
    )
    from api.http.tableschemas import StatusInSchema, TableInSchema
    from roads import PatternError, RoadsError, Round, parse_card, parse_expression

    queries = [ImageQuerySchema(), LobbyQuerySchema(), GoodRoadsQuerySchema(), EventsQuerySchema()]
    bodies = [
        RoundInSchema(),
        BatchInSchema(),
        CorrectionSchema(),
        TableInSchema(),
        StatusInSchema(),
    ]

    def body(fuzz) -> None:
        value = decode_body(fuzz.ConsumeBytes(fuzz.ConsumeIntInRange(0, 4096)))
        if isinstance(value, dict):
            bodies[fuzz.ConsumeIntInRange(0, len(bodies) - 1)].load(value)

    def cards(fuzz) -> None:
        dealt = [fuzz.ConsumeUnicodeNoSurrogates(4) for _ in range(fuzz.ConsumeIntInRange(0, 7))]
        Round.from_cards(dealt[: len(dealt) // 2], dealt[len(dealt) // 2 :])

    def result(fuzz) -> None:
        Round.from_result(
            fuzz.ConsumeUnicodeNoSurrogates(2),
            player_total=fuzz.ConsumeIntInRange(-2, 12) if fuzz.ConsumeBool() else None,
            banker_total=fuzz.ConsumeIntInRange(-2, 12) if fuzz.ConsumeBool() else None,
            natural=fuzz.ConsumeBool(),
        )

    def query(fuzz) -> None:
        schema = queries[fuzz.ConsumeIntInRange(0, len(queries) - 1)]
        values = {name: fuzz.ConsumeUnicode(40) for name in schema.fields if fuzz.ConsumeBool()}
        schema.load(values)

    return [
        ((BodyError, ValidationError, RoadsError), body),
        ((RoadsError,), lambda fuzz: parse_card(fuzz.ConsumeUnicodeNoSurrogates(8))),
        ((RoadsError,), cards),
        ((RoadsError,), result),
        ((PatternError,), lambda fuzz: parse_expression(fuzz.ConsumeUnicode(64))),
        ((), lambda fuzz: is_event_id(fuzz.ConsumeUnicode(48))),
        ((ValidationError,), query),
    ]


def run_fuzzer() -> None:  # pragma: no cover - the fuzzer's process
    import atheris

    with atheris.instrument_imports():
        import api.codecs.feedevents
        import api.codecs.requestbody
        import api.http.requests
        import api.http.tableschemas  # noqa: F401
        import roads.cards
        import roads.expressions
        import roads.round  # noqa: F401
    chosen = parsers()

    def target(data: bytes) -> None:
        fuzz = atheris.FuzzedDataProvider(data)
        allowed, parse = chosen[fuzz.ConsumeIntInRange(0, len(chosen) - 1)]
        with contextlib.suppress(*allowed):  # the parser's own refusals: a 4xx, not a crash
            parse(fuzz)

    atheris.Setup(sys.argv, target)
    atheris.Fuzz()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args()
    corpus = args.corpus or Path(tempfile.mkdtemp(prefix="roads-fuzz-"))
    corpus.mkdir(parents=True, exist_ok=True)
    CRASHES.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        __file__,
        "--as-fuzzer",
        str(corpus),
        f"-max_total_time={args.seconds}",
        "-print_final_stats=1",
        f"-artifact_prefix={CRASHES}/",
        "-rss_limit_mb=2048",
    ]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    log = run.stdout + run.stderr
    runs = _last(r"stat::number_of_executed_units:\s*(\d+)", log)
    if runs == "?":  # libFuzzer never ran (atheris missing, say): not "no crash found"
        raise SystemExit(f"the fuzzer did not run (exit {run.returncode}):\n{log[-3000:]}")
    seconds = _last(r"stat::average_exec_per_sec:\s*(\d+)", log)
    edges = _last(r"cov: (\d+)", log)
    features = _last(r"ft: (\d+)", log)
    crashes = sorted(CRASHES.glob("crash-*")) + sorted(CRASHES.glob("timeout-*"))
    print(f"fuzzed {args.seconds} s: {runs} executions, {seconds} a second")
    print(f"coverage: {edges} edges, {features} features; corpus {len(list(corpus.iterdir()))}")
    print(f"crashes found: {len(crashes)}" + "".join(f"\n  {path}" for path in crashes))
    if crashes:
        print(log[-3000:])
        sys.exit(1)


def _last(pattern: str, text: str) -> str:
    found = re.findall(pattern, text)
    return found[-1] if found else "?"


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--as-fuzzer":
        sys.argv = [sys.argv[0], *sys.argv[2:]]
        sys.path.insert(0, str(ROOT))
        run_fuzzer()
    else:
        main()

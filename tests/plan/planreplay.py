"""Replaying a shoe's writes through the planner, as the writer makes them, into JSON: what
tests/plan/test_same_as_before.py holds this tree's plans to against an older tree's.

This module imports only what every tree since 48eb24d has (``api.plan``, ``roads``), and no
module of ``tests``: the test copies it into an older tree (``git archive``) and runs it there
as a script, one long-lived process that reads a case a line on stdin and answers a line on
stdout (:func:`serve`). In this tree the test calls :func:`replay` directly.

A case (JSON): ``variant``; ``figures`` (``[hands, tables]`` or ``null``); ``watch`` (the
integrity watch on, with its default settings, or off); ``steps``, each ``{"do": "append",
"round": R, "reload": bool}`` (``reload``: the base's scorecard read back from the last state's
bytes, as a process that did not make the last write reads it) or ``{"do": "void"|"correction",
"number": N, "round": R}`` (``round``: a correction's new round). A round ``R`` is its fields,
cards as text. The answer: one entry a step, the write in JSON (or the error it raised, or
``skipped`` where the writer makes no plan: a void round corrected or voided again, a correction
to the same round) and the roads document after it.
"""

from __future__ import annotations

import json
import sys
from dataclasses import fields
from typing import Any

from api.plan.plan import Base
from api.plan.planner import plan_append, plan_rewrite
from api.plan.roadevents import document
from roads import RoadsError, Round, Scorecard
from roads.cards import parse_cards
from roads.integrity.shoewatch import WatchSettings
from roads.rarity import LobbyFigures
from roads.shoe import ShoeHead

TABLE, SHOE = "t1", "s1"


def round_json(round: Round) -> dict[str, Any]:
    """A round as a case holds it (every field; cards as text)."""
    raw = {field.name: getattr(round, field.name) for field in fields(Round)}
    raw["player_cards"] = [str(card) for card in round.player_cards]
    raw["banker_cards"] = [str(card) for card in round.banker_cards]
    return raw


def round_of(raw: dict[str, Any]) -> Round:
    values = dict(raw)
    values["player_cards"] = parse_cards(raw["player_cards"], "Player")
    values["banker_cards"] = parse_cards(raw["banker_cards"], "Banker")
    return Round(**values)


def write_json(write: Any) -> dict[str, Any]:
    """Everything a write's plan holds that storage commits or a reader gets."""
    head = write.head
    lobby = write.lobby
    return {
        "kind": write.kind,
        "table": write.table,
        "shoe": write.shoe,
        "number": write.number,
        "base_version": write.base_version,
        "version": write.version,
        "head": None if head is None else [head.shoe, head.count, head.current],
        "variant": write.variant,
        "record": write.record,
        "state": write.state.hex(),
        "events": [[kind, data, patch] for kind, data, patch in write.events],
        "lobby": {
            "shoe": lobby.shoe,
            "summary": lobby.summary,
            "shape": lobby.shape,
            "matched": lobby.matched,
            "runs": lobby.runs,
            "edges": lobby.edges,
            "events": [list(event) for event in lobby.events],
            "watch": lobby.watch,
        },
    }


def replay(case: dict[str, Any]) -> list[dict[str, Any]]:
    """Each step's write (or error, or ``skipped``) and the roads document after it."""
    variant = case["variant"]
    watch = WatchSettings() if case["watch"] else None
    figures = LobbyFigures(*case["figures"]) if case["figures"] else None
    rounds: list[Round] = []
    version, scorecard, state = 0, Scorecard(), b""
    answers = []
    for step in case["steps"]:
        new = round_of(step["round"]) if "round" in step else None
        try:
            if step["do"] == "append":
                if step["reload"] and state:
                    scorecard = Scorecard.from_bytes(state)
                count = len(rounds)
                head = ShoeHead(SHOE, count, SHOE if count else None)
                base = Base(head, version, variant, scorecard)
                write = plan_append(TABLE, SHOE, count + 1, new, base, watch=watch, figures=figures)
                rounds.append(new)
            else:
                number = step["number"]
                old = rounds[number - 1]
                if step["do"] == "void":
                    new = old.voided()
                if old.void or new == old:  # the writer answers these without a plan
                    answers.append({"skipped": True})
                    continue
                write = plan_rewrite(
                    step["do"],
                    TABLE,
                    SHOE,
                    number,
                    rounds,
                    new,
                    version=version,
                    variant=variant,
                    watch=watch,
                    figures=figures,
                )
                rounds[number - 1] = new
        except RoadsError as error:
            answers.append({"error": f"{type(error).__name__}: {error}"})
            continue
        version, scorecard, state = write.version, write.scorecard, write.state
        served = document(TABLE, SHOE, version, scorecard)
        answers.append({"write": write_json(write), "document": served})
    return json.loads(json.dumps(answers))  # as JSON holds it: lists, not tuples


def serve() -> None:
    """Answer cases, a JSON line each, until stdin closes. The first line names where ``roads``
    was imported from (the test checks it is the tree it meant)."""
    import roads

    print(json.dumps({"roads": roads.__file__}), flush=True)
    for line in sys.stdin:
        try:
            answer: Any = replay(json.loads(line))
        except Exception as error:  # the test shows it; this process goes on
            answer = {"failed": f"{type(error).__name__}: {error}"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    serve()

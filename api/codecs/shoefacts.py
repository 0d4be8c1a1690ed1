"""What the studio reported of a table's shoes that the integrity watch uses, as the lobby keeps it
(``{lobby}:shoe_facts``: table -> JSON ``{"shoes": [{"shoe": SHOE, "new_decks": COUNT,
"last_round": N, "cut_raised": true}, ...]}``, each fact there once reported, the three shoes
last reported on, the newest last: a late report of the shoe before, or an early one of the
next, leaves the current shoe's facts).

- ``new_decks``: the shoe was reported made of new decks (:data:`NEW_DECKS_UNCOUNTED` when the
  report did not count them). An ``unshuffled`` alert of the shoe says ``"new_decks": true`` or
  ``false`` (``with_new_decks`` in :data:`LUA`): in maker's order, new decks are what a lazy
  shuffle leaves; an unshuffled shoe not reported as new is worth asking the studio about too.
- ``last_round``: the cut card came out; this round is the shoe's last (the one after those
  reported when the report names none: such a report sent again keeps the first's, so a retry
  after the next round moves nothing). A round after it is impossible: an ``impossible_cards``
  alert, check ``past_reported_cut`` (``past_reported_cut`` in :data:`LUA`), raised once a shoe
  (``cut_raised``) by the script that applies the first such round's watch part.

A report that changes no fact (the same again) is no event either.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from api.codecs.jsontext import loads

# The Lua side: functions the watch's script includes (api.storage.luascript).
LUA = files(__package__).joinpath("shoefacts.lua")
#: ``new_decks`` of a report that did not count them.
NEW_DECKS_UNCOUNTED = 0
#: A fact of a shoe: (shoe, name, value, keep: a value the shoe has already stands).
Fact = tuple[str, str, int, bool]


def fact_of(report: dict[str, Any], rounds: int) -> Fact | None:
    """The fact a studio report (:mod:`api.codecs.studioevents`) states of its shoe, given the
    ``rounds`` the shoe has; ``None`` for a kind that states none."""
    if report["kind"] == "cut_card":
        named = "round" in report
        return report["shoe"], "last_round", report.get("round", rounds + 1), not named
    if report["kind"] == "new_decks":
        return report["shoe"], "new_decks", report.get("count", NEW_DECKS_UNCOUNTED), False
    return None


def cut_rule(report: dict[str, Any], rounds: int) -> str | None:
    """What a cut card's report contradicts (a 409), or ``None``: a last round before a round
    the shoe already has."""
    last = report.get("round")
    if report["kind"] == "cut_card" and last is not None and last < rounds:
        return (
            f"round: shoe {report['shoe']} already has {rounds} rounds; the cut card cannot "
            f"have made round {last} its last"
        )
    return None


def facts_of(stored: bytes | str | None, shoe: str) -> dict[str, int]:
    """The facts kept of ``shoe`` (``stored``: the table's entry), each by its name."""
    shoes = loads(stored).get("shoes") if stored else None
    for entry in shoes if isinstance(shoes, list) else ():
        if entry.get("shoe") == shoe:
            return {
                name: value for name, value in entry.items() if name in ("new_decks", "last_round")
            }
    return {}


def with_facts(checks: dict[str, Any], facts: dict[str, int]) -> dict[str, Any]:
    """A shoe's integrity checks (:func:`roads.integrity.shoewatch.shoe_report`) with what the
    studio reported of it: ``new_decks`` (``None``: not reported) and the cut card's
    ``last_round`` (``None``: not reported)."""
    cut_card = {**checks["cut_card"], "last_round": facts.get("last_round")}
    return {**checks, "cut_card": cut_card, "new_decks": facts.get("new_decks")}

"""A round's facts (api.codecs.roundfacts): priced under a pay table, every other fact kept."""

from __future__ import annotations

from dataclasses import fields, replace

from api.codecs.roundfacts import RoundFacts


def test_priced_under_keeps_every_other_fact_and_sets_the_pay_table():
    # Each field a value of its own, so a field added later and left out of priced_under (which
    # lists them for speed, not through dataclasses.replace) fails here.
    facts = RoundFacts(**{field.name: f"value of {field.name}" for field in fields(RoundFacts)})
    assert facts.priced_under("speed") == replace(facts, paytable="speed")

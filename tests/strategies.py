"""Hypothesis strategies for shoes: random results, streaky results with dragons, dealt shoes,
rounds as reported; and the edits a scorecard takes (a reload, a void, a correction)."""

from hypothesis import strategies as st

from roads import Round, Scorecard
from roads.simulator import deal_shoe

# Plain random results, and results built from runs so that dragons and long tie runs are common.
random_results = st.text(alphabet="BPT", max_size=120)
streaky_results = st.lists(
    st.tuples(st.sampled_from("BPT"), st.integers(min_value=1, max_value=14)), max_size=24
).map(lambda runs: "".join(side * length for side, length in runs))
results = st.one_of(random_results, streaky_results)
tails = st.sampled_from(["stay", "drop"])


@st.composite
def dealt_shoes(draw, max_voids: int = 3) -> list[Round]:
    """A shoe dealt by the simulator from a drawn seed, with a few rounds voided."""
    rounds = deal_shoe(draw(st.integers(min_value=0, max_value=2**32)))
    for index in draw(st.lists(st.integers(0, len(rounds) - 1), max_size=max_voids)):
        rounds[index] = rounds[index].voided()
    return rounds


# A round as a game server may report it: a bare result, one with pairs or a natural, a void.
reported_rounds = st.one_of(
    st.sampled_from([Round("B"), Round("P"), Round("T"), Round("B").voided()]),
    st.builds(
        Round.from_result,
        st.sampled_from("BPT"),
        player_pair=st.booleans(),
        banker_pair=st.booleans(),
        natural=st.booleans(),
    ),
)


def edited(card: Scorecard, step: tuple) -> Scorecard:
    """The scorecard after an edit step: ``("reload", _)`` (from its own bytes, as a write finds
    it), ``("void", n)`` or ``("replace", n, round)``; a round number beyond the shoe is no edit."""
    if step[0] == "reload":
        return Scorecard.from_bytes(card.to_bytes())
    if step[1] > card.reported:
        return card
    if step[0] == "void":
        card.void(step[1])
    else:
        card.replace(step[1], step[2])
    return card

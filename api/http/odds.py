"""Exact odds of a shoe's next round and the return of every bet (:mod:`roads.odds`)."""

from flask_smorest import Blueprint

from api.http.answers import services, shoe_answer
from api.http.auth import SECURITY, require_read_key
from api.http.responses import OddsSchema
from api.http.roads import CURRENT, SHOE, current_shoe
from roads.odds import shoe_odds

blp = Blueprint(
    "odds", __name__, description="Exact odds of the next round from the cards left in the shoe."
)

BURN_NOTE = (
    "Burned cards count as still in the shoe unless their faces were reported (POST "
    ".../studio, a burn). Without the cards of every "
    "round the composition is unknown and the figures are a fresh shoe's."
)


@blp.route(f"{SHOE}/odds")
@blp.route(f"{CURRENT}/odds", endpoint="table_odds")
@require_read_key
@blp.response(200, OddsSchema)
@blp.doc(security=SECURITY)
def odds(table, shoe=None):
    """Exact odds of the next round and the return of every bet.

    The probabilities of the next round (dealt by the rules, without replacement, from the
    cards left) and the return of every bet under the table's variant, with the bets that
    favour the player now (return above 100%). Fractions, not percentages. Needs a read key
    unless the odds are public (``ROADS_PUBLIC_ODDS``)."""
    shoe = shoe or current_shoe(table)
    paytable = services().tables.paytable(table)
    return shoe_answer(
        table,
        shoe,
        f"odds:{paytable.name}",  # a name is one pay table for ever
        lambda scorecard: {**shoe_odds(scorecard, paytable), "note": BURN_NOTE},
    )

"""The table variants and the bets each one offers (no arithmetic: the odds are
:mod:`roads.odds`, which loads numpy only when it is imported).

- ``standard``: Banker pays 0.95:1;
- ``no_commission``: Banker pays 1:1, or 0.5:1 when it wins with 6, and Super 6 is offered;
- ``speed``: the standard game dealt faster (seed 003); its Banker pays 0.95:1.
"""

from __future__ import annotations

VARIANTS = ("standard", "no_commission", "speed")
BETS = (
    "player",
    "banker",
    "tie",
    "super_6",
    "player_pair",
    "banker_pair",
    "either_pair",
    "perfect_pair",
    "player_bonus",
    "banker_bonus",
)
#: The bets each variant's tables offer: Super 6 is the no-commission game's side bet (seed 003
#: lists it for Zero-commissioni only; its Speed Baccarat pays Banker 0.95:1 and has none).
OFFERED: dict[str, tuple[str, ...]] = {
    "standard": tuple(bet for bet in BETS if bet != "super_6"),
    "no_commission": BETS,
    "speed": tuple(bet for bet in BETS if bet != "super_6"),
}

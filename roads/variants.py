"""The table variants and the bets each one offers (no arithmetic: the odds are
:mod:`roads.odds`, which loads numpy only when it is imported). A variant is a preset pay table
(:mod:`roads.presets`):

- ``standard``: Banker pays 0.95:1;
- ``no_commission``: Banker pays 1:1, or 0.5:1 when it wins with 6, and Super 6 is offered;
- ``speed``: the standard game dealt faster (seed 003); its Banker pays 0.95:1;
- ``ez_baccarat``, ``lucky_6``, ``super_6_12``, ``asian``: the games their presets name.
"""

from __future__ import annotations

from roads.presets import PRESETS

VARIANTS: tuple[str, ...] = tuple(PRESETS)
#: Every bet some variant offers: the three first variants' in the order answers always listed
#: them, then the others' as their presets list them.
BETS: tuple[str, ...] = tuple(
    dict.fromkeys(
        (
            "player",
            "banker",
            "tie",
            "super_6",
            *(bet for table in PRESETS.values() for bet in table.offered),
        )
    )
)
#: The bets each variant's tables offer, as its preset lists them (seed 003 lists Super 6 for
#: Zero-commissioni only: its Speed Baccarat pays Banker 0.95:1 and has none).
OFFERED: dict[str, tuple[str, ...]] = {name: table.offered for name, table in PRESETS.items()}

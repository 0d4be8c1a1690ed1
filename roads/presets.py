"""The preset pay tables (:mod:`roads.paytables`), each with where its pays are published, and
the figures published for them (:data:`PUBLISHED`, which the tests hold the engine to).

- ``standard``, ``no_commission``, ``speed``: the three variants the service always had, with
  their figures unchanged (seeds 000, 003 and 004's studio rules);
- ``ez_baccarat``: Banker's winning three-card 7 pushes; Dragon 7 40:1, Panda 8 25:1;
- ``lucky_6``: the standard game with Lucky 6 (a Banker win with 6: 12:1 on two cards, 20:1 on
  three, the Macau pays);
- ``super_6_12``: the no-commission game with Super 6 at 12:1 (the more common pay);
- ``asian``: the standard game with Big and Small (the round's cards), Tiger (Lucky 6 under
  its Asian name) and Big Tiger, and a tie by its total (the Egalite bets, one a total).
"""

from __future__ import annotations

from typing import Any

from roads.paytables import PayTable, pay_table

WOO = "https://wizardofodds.com/games/baccarat"
JACOBSON = "https://www.888casino.com/blog"
EZ = "https://wizardofodds.com/games/ez-baccarat/"

_PLAYER = [{"when": {"winner": "player"}, "pays": 1}, {"when": {"winner": "tie"}, "pays": "push"}]
_BANKER = [
    {"when": {"winner": "banker"}, "pays": 0.95},
    {"when": {"winner": "tie"}, "pays": "push"},
]
_NO_COMMISSION_BANKER = [
    {"when": {"winner": "banker", "banker_total": 6}, "pays": 0.5},
    {"when": {"winner": "banker"}, "pays": 1},
    {"when": {"winner": "tie"}, "pays": "push"},
]
_TIE = [{"when": {"winner": "tie"}, "pays": 8}]
_PAIRS = {
    "player_pair": [{"when": {"pair": "player"}, "pays": 11}],
    "banker_pair": [{"when": {"pair": "banker"}, "pays": 11}],
    "either_pair": [{"when": {"pair": "either"}, "pays": 5}],
    "perfect_pair": [
        {"when": {"perfect": "both"}, "pays": 200},
        {"when": {"perfect": "one"}, "pays": 25},
    ],
}
_BONUS_PAYS = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}


def _bonus(side: str) -> list[dict[str, Any]]:
    """Player or Banker Bonus (Dragon Bonus): a natural win 1:1, a natural tie pushes, a win
    without a natural by 4 to 9 points by :data:`_BONUS_PAYS`."""
    return [
        {"when": {"winner": side, "natural": True}, "pays": 1},
        {"when": {"winner": "tie", "natural": True}, "pays": "push"},
        *(
            {"when": {"winner": side, "natural": False, "margin": margin}, "pays": pays}
            for margin, pays in _BONUS_PAYS.items()
        ),
    ]


def _super_6(pays: int) -> list[dict[str, Any]]:
    return [{"when": {"winner": "banker", "banker_total": 6}, "pays": pays}]


_BONUSES = {"player_bonus": _bonus("player"), "banker_bonus": _bonus("banker")}
_STANDARD = {"player": _PLAYER, "banker": _BANKER, "tie": _TIE, **_PAIRS, **_BONUSES}
_NO_COMMISSION = {
    "player": _PLAYER,
    "banker": _NO_COMMISSION_BANKER,
    "tie": _TIE,
    "super_6": _super_6(15),
    **_PAIRS,
    **_BONUSES,
}
_LUCKY_6 = [
    {"when": {"winner": "banker", "banker_total": 6, "banker_cards": 2}, "pays": 12},
    {"when": {"winner": "banker", "banker_total": 6, "banker_cards": 3}, "pays": 20},
]
#: Egalite: a tie on each total, paid by the total (WoO's pay table).
_EGALITE = {0: 150, 1: 215, 2: 225, 3: 200, 4: 120, 5: 110, 6: 45, 7: 45, 8: 80, 9: 80}

DOCUMENTS: dict[str, dict[str, Any]] = {
    "standard": {
        "name": "standard",
        "source": "DOMAIN.md; seed 004 (Banker 98.94%); " + f"{WOO}/appendix/5/",
        "bets": _STANDARD,
    },
    "no_commission": {
        "name": "no_commission",
        "source": "seed 000 (its published returns); "
        + f"{JACOBSON}/card-counting-the-super-six-baccarat-side-bet/",
        "bets": _NO_COMMISSION,
    },
    "speed": {
        "name": "speed",
        "source": "seed 003 (Speed Baccarat: Banker 0.95:1)",
        "bets": _STANDARD,
    },
    "ez_baccarat": {
        "name": "ez_baccarat",
        "source": (
            f"{EZ}; {JACOBSON}/side-bets/"
            "co-card-counting-the-dragon-and-panda-side-bets-in-ez-baccarat"
        ),
        "bets": {
            "player": _PLAYER,
            "banker": [
                {
                    "when": {"winner": "banker", "banker_total": 7, "banker_cards": 3},
                    "pays": "push",
                },
                {"when": {"winner": "banker"}, "pays": 1},
                {"when": {"winner": "tie"}, "pays": "push"},
            ],
            "tie": _TIE,
            "dragon_7": [
                {"when": {"winner": "banker", "banker_total": 7, "banker_cards": 3}, "pays": 40}
            ],
            "panda_8": [
                {"when": {"winner": "player", "player_total": 8, "player_cards": 3}, "pays": 25}
            ],
        },
    },
    "lucky_6": {
        "name": "lucky_6",
        "source": f"{WOO}/side-bets/lucky-6/ (the Macau pays)",
        "bets": {**_STANDARD, "lucky_6": _LUCKY_6},
    },
    "super_6_12": {
        "name": "super_6_12",
        "source": (
            "https://www.leovegas.com/en-row/blog/live-casino/baccarat-academy/"
            "side-bets-guide/super-6-side-bet"
        ),
        "bets": {**_NO_COMMISSION, "super_6": _super_6(12)},
    },
    "asian": {
        "name": "asian",
        "source": (
            f"{WOO}/appendix/5/ (4 cards 3 to 2); https://www.playbaccarat.com/baccarat-strategy/"
            f"side-bets-in-baccarat-explained/ (Big 0.54, Small 1.5); {WOO}/side-bets/lucky-6/ "
            "(Tiger: Lucky 6 under another name); https://advancedadvantageplay.com/2024/07/"
            f"card-counting-the-big-tiger-baccarat-side-bet; {WOO}/side-bets/egalite/"
        ),
        "bets": {
            **_STANDARD,
            "big": [{"when": {"cards": [5, 6]}, "pays": 0.54}],
            "small": [{"when": {"cards": 4}, "pays": 1.5}],
            "tiger": _LUCKY_6,
            "big_tiger": [
                {"when": {"winner": "banker", "banker_total": 6, "banker_cards": 3}, "pays": 50}
            ],
            **{
                f"tie_{total}": [{"when": {"winner": "tie", "total": total}, "pays": pays}]
                for total, pays in _EGALITE.items()
            },
        },
    },
}

PRESETS: dict[str, PayTable] = {name: pay_table(document) for name, document in DOCUMENTS.items()}

#: What is published of the presets' bets with eight decks: each bet's return less the stake (a
#: house edge of ``h`` percent is ``-h / 100``), the decimals it is published to, and where.
PUBLISHED: dict[str, dict[str, tuple[float, int, str]]] = {
    "standard": {
        "banker": (-0.010579, 6, "kasoom; Jacobson 1.0579%"),
        "player": (-0.012351, 6, "kasoom; Jacobson 1.2351%"),
        "tie": (-0.143596, 6, "kasoom; Jacobson 14.3596%"),
        "player_pair": (-0.103614, 6, "kasoom"),
        "banker_pair": (-0.103614, 6, "kasoom"),
        "either_pair": (-0.1371, 4, "https://iplwin.uk/baccarat-odds/ (13.71%)"),
        "player_bonus": (-0.026517, 6, f"{WOO}/appendix/5/"),
        "banker_bonus": (-0.093731, 6, f"{WOO}/appendix/5/"),
    },
    "no_commission": {"banker": (-0.014581, 6, "Jacobson 1.4581%; excelpunks")},
    "speed": {"banker": (-0.010579, 6, "as standard: seed 003 pays Banker 0.95:1")},
    "ez_baccarat": {
        "banker": (-0.010183, 6, EZ),
        "dragon_7": (-0.076113, 6, EZ),
        "panda_8": (-0.101876, 6, EZ),
    },
    "lucky_6": {"lucky_6": (-0.166836, 6, f"{WOO}/side-bets/lucky-6/ (Macau: 12 and 20 to 1)")},
    "super_6_12": {"super_6": (-0.2998, 4, "LeoVegas: 29.98%")},
    "asian": {
        "small": (-0.05283, 5, f"{WOO}/appendix/5/ (4 cards pays 3 to 2)"),
        "tiger": (-0.166836, 6, f"{WOO}/side-bets/lucky-6/ (the Tiger is Lucky 6)"),
        "big_tiger": (-0.152533, 6, "Jacobson: 15.2533%"),
        **{
            f"tie_{total}": (edge, 6, f"{WOO}/side-bets/egalite/")
            for total, edge in {
                9: -0.106348,
                8: -0.110669,
                7: -0.063899,
                6: -0.114952,
                5: -0.118732,
                4: -0.121401,
                3: -0.105243,
                2: -0.095412,
                1: -0.114150,
                0: -0.124527,
            }.items()
        },
    },
}
#: Published with six decks only: Big at 0.54 to 1.
PUBLISHED_SIX_DECKS: dict[str, dict[str, tuple[float, int, str]]] = {
    "asian": {"big": (-0.0435, 4, "playbaccarat.com: 4.35% with six decks")},
}

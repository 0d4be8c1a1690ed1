"""Request schemas (marshmallow 4): what the service accepts, and the OpenAPI document of it."""

from __future__ import annotations

import re
from typing import Any

import marshmallow as ma
from marshmallow import ValidationError, fields, validate, validates_schema
from webargs.fields import DelimitedList

from api.codecs.roundfacts import DEALER_ID_PATTERN, DEALER_NAME_LENGTH, GAME_ID_PATTERN
from api.codecs.roundfacts import NAMES as FACTS
from api.http.catalogues import LANGUAGES
from api.http.fieldtypes import (
    EventId,
    Matches,
    Rfc3339,
    StrictBoolean,
    StrictInteger,
    Text,
    displayed,
)
from api.http.plainreports import PlainReports
from api.http.querynumbers import QueryInteger, QueryNumber
from api.live.eventhub import BAD_EVENT_ID, EVENT_ID
from roads.expressions import EXPRESSION_SYNTAX, PatternError, parse_expression
from roads.lobby import LOBBY_ROADS
from roads.patterns import PATTERNS, PATTERNS_BY_ID, PROFILES
from roads.variants import BETS

# A card as dealer systems write it (roads.cards): rank A, 2-9, 10 or T, J, Q, K, then suit S, H,
# D or C, in either case.
CARD_PATTERN = r"^(?:[2-9AaTtJjQqKk]|10)[SsHhDdCc]$"
CARD = Text(
    validate=Matches(
        CARD_PATTERN,
        "a card is a rank (A, 2-10 or T, J, Q, K) then a suit (S, H, D, C), like AS or 10D",
    ),
)
TOTAL = {"validate": validate.Range(min=0, max=9)}
DEALER_ID_ERROR = "a dealer id is 1-64 letters, digits, _, ., : or -"


def game_id_form(what: str, description: str, example: str) -> Text:
    """A field of a game id's form (:data:`api.codecs.roundfacts.GAME_ID_PATTERN`), ``what``
    named in its error."""
    return Text(
        validate=Matches(GAME_ID_PATTERN, f"{what} is 1-64 letters, digits, _, ., : or -"),
        metadata={"description": description, "example": example},
    )


class ReportSchema(ma.Schema):
    """A round as the dealer reports it: its cards, or its result with optional details.

    The two forms exclude each other; the OpenAPI document states them as a ``oneOf``
    (:mod:`api.http.openapi`) from :data:`CARDS` and :data:`DETAILS`.
    """

    CARDS = ("player", "banker")
    DETAILS = ("result", "player_pair", "banker_pair", "natural", "player_total", "banker_total")

    # The examples are one round as the rules deal it: Player 2+3 = 5 draws a 9 (4), Banker
    # K+7 = 7 stands; Banker wins.
    player = fields.List(
        CARD,
        validate=validate.Length(min=2, max=3),
        metadata={"description": "Player cards in deal order.", "example": ["2S", "3D", "9C"]},
    )
    banker = fields.List(
        CARD,
        validate=validate.Length(min=2, max=3),
        metadata={"description": "Banker cards in deal order.", "example": ["KH", "7C"]},
    )
    result = Text(validate=validate.OneOf(["B", "P", "T"]), metadata={"example": "B"})
    player_pair = StrictBoolean(metadata={"example": False})
    banker_pair = StrictBoolean(metadata={"example": False})
    natural = StrictBoolean(metadata={"example": False})
    player_total = StrictInteger(**TOTAL, metadata={"example": 4})
    banker_total = StrictInteger(**TOTAL, metadata={"example": 7})

    @validates_schema
    def cards_or_result(self, data: dict[str, Any], **kwargs: Any) -> None:
        has_cards = not data.keys().isdisjoint(self.CARDS)
        if has_cards and not data.keys().isdisjoint(self.DETAILS):
            raise ValidationError(
                "send either the cards (player, banker) or the result with its details, not both"
            )
        if has_cards and not ("player" in data and "banker" in data):
            raise ValidationError("send both hands: player and banker")
        if not has_cards and "result" not in data:
            raise ValidationError("send the cards (player, banker) or the result")


class DealerSchema(ma.Schema):
    id = Text(
        required=True,
        validate=Matches(DEALER_ID_PATTERN, DEALER_ID_ERROR),
        metadata={"description": "The dealer's id in the studio.", "example": "d-117"},
    )
    name = Text(
        validate=[validate.Length(min=1, max=DEALER_NAME_LENGTH), displayed("name")],
        metadata={
            "description": "The name players see: sent once a shift is enough (a tile keeps "
            "it while the same dealer deals).",
            "example": "Mei",
        },
    )


class RoundInSchema(ReportSchema):
    round = StrictInteger(
        required=True,
        validate=validate.Range(min=1, max=4096),
        metadata={
            "description": "The round's number in the shoe: 1 for a new shoe, then n+1.",
            "example": 1,
        },
    )
    game_id = game_id_form(
        "a game id",
        "The game server's id of the round, unique per table: the same round sent again under "
        "it is a retry, another round under it a 409.",
        "G-20261127-000117",
    )
    dealt_at = Rfc3339(
        metadata={
            "description": "When the round was dealt (RFC 3339), at most 5 s ahead of the "
            "service's clock and a day before it (else 422); left out, the service's clock.",
            "example": "2026-11-27T08:00:15.000Z",
        },
    )
    dealer = fields.Nested(DealerSchema, metadata={"description": "Who dealt the round."})

    def load(self, data: Any, **kwargs: Any) -> Any:
        """marshmallow's load, a plain report taken as it is (:mod:`api.http.plainreports`);
        not for the batch's items (a subclass, with fields of its own)."""
        if type(self) is RoundInSchema and all(value is None for value in kwargs.values()):
            plain = PLAIN.load(data)
            if plain is not None:
                return plain
        return super().load(data, **kwargs)


PLAIN = PlainReports(CARD_PATTERN, (*ReportSchema.CARDS, *ReportSchema.DETAILS, "round", *FACTS))


# Table and shoe ids: the paths' (api.http.answers.IdConverter) and the batch items'.
ID_PATTERN = r"[A-Za-z0-9_-]{1,64}"
ID = Matches(f"^{ID_PATTERN}$", "ids are 1-64 letters, digits, _ or -")
MAX_BATCH = 200


class BatchRoundSchema(RoundInSchema):
    table = Text(required=True, validate=ID, metadata={"example": "baccarat-1"})
    shoe = Text(required=True, validate=ID, metadata={"example": "s1"})


class BatchInSchema(ma.Schema):
    rounds = fields.List(
        fields.Nested(BatchRoundSchema),
        required=True,
        validate=validate.Length(min=1, max=MAX_BATCH),
        metadata={
            "description": f"1 to {MAX_BATCH} rounds of any tables, each as for "
            "POST /v1/tables/{table}/shoes/{shoe}/rounds plus its table and shoe; one table's "
            "rounds are stored in the order given."
        },
    )


class CorrectionSchema(ReportSchema):
    round = StrictInteger(
        validate=validate.Range(min=1, max=4096),
        metadata={"description": "Optional; must equal the round number of the path."},
    )


class RoadsQuerySchema(ma.Schema):
    ask = Text(
        validate=validate.OneOf(["B", "P"]),
        metadata={
            "description": "Preview the roads as if this result came next (nothing is stored)."
        },
    )
    tail = Text(
        load_default="stay",
        validate=validate.OneOf(["stay", "drop"]),
        metadata={"description": "Dragon-tail convention of the grids."},
    )


class ImageQuerySchema(ma.Schema):
    cols = QueryInteger(
        validate=validate.Range(min=1, max=120),
        metadata={"description": "Grid columns shown; the view keeps the newest whole columns."},
    )
    theme = Text(load_default="light", validate=validate.OneOf(["light", "dark"]))
    scale = QueryNumber(
        load_default=1.0,
        validate=validate.Range(min=0.5, max=4),
        metadata={"description": "Pixel size factor (a Big Road cell is 20 px at 1)."},
    )
    bead = Text(
        load_default="letters",
        validate=validate.OneOf(["letters", "totals"]),
        metadata={"description": "Bead Plate shows B/P/T, or the winning total when known."},
    )
    ask = Text(
        validate=validate.OneOf(["B", "P"]),
        metadata={"description": "Draw the preview of this next result, new cells highlighted."},
    )
    lang = Text(
        load_default="en",
        validate=validate.OneOf(LANGUAGES),
        metadata={
            "description": "The Bead Plate's letters in this language (G/B/P in Italian, "
            "庄/闲/和 in Chinese), as the lobby page's catalogues write them."
        },
    )


class LobbyQuerySchema(ma.Schema):
    sort = Text(
        validate=validate.OneOf(["streak"]),
        metadata={"description": "``streak``: longest current run on ``road`` first."},
    )
    road = Text(
        load_default="big_road",
        validate=validate.OneOf(LOBBY_ROADS),
        metadata={"description": "The road sorted by and counted in ``grown``."},
    )
    since = QueryInteger(
        validate=validate.Range(min=0, max=2**63 - 1),  # the lobby's counter is Redis's INCR
        metadata={
            "description": "A ``cursor`` from an earlier answer: ``grown`` then counts the tables "
            "whose current run on ``road`` grew since (the lobby's red badge)."
        },
    )
    stake = QueryNumber(
        validate=validate.Range(min=0, max=10**12),
        metadata={
            "description": "Only the tables whose limits take this stake (on ``bet``: its own "
            "limits where the table has them, else the table's); tables without limits are left "
            "out."
        },
    )
    bet = Text(
        validate=validate.OneOf(BETS),
        metadata={"description": "With ``stake``: the bet whose limits are asked (alone, none)."},
    )


def custom_expression(text: str) -> str:
    """A custom pattern as :data:`EXPRESSION_SYNTAX` writes it; the error names the term."""
    try:
        parse_expression(text)
    except PatternError as error:
        raise ValidationError(f"custom pattern {text!r}: {error}") from None
    return text


def _pattern_ids(text: str) -> str:
    """Built-in pattern ids, separated by commas; the error names the first unknown one."""
    unknown = [part for part in text.split(",") if part not in PATTERNS_BY_ID]
    if text and unknown:
        raise ValidationError(f"unknown pattern {unknown[0]!r}; the patterns are at /v1/patterns")
    return text


_ONE_ID = "(?:" + "|".join(re.escape(pattern.id) for pattern in PATTERNS) + ")"
PATTERN_IDS = f"^(?:{_ONE_ID}(?:,{_ONE_ID})*)?$"


class PatternsQuerySchema(ma.Schema):
    profile = Text(
        load_default="classic",
        validate=validate.OneOf(list(PROFILES)),
        metadata={"description": "Which built-in patterns: ``classic`` or ``asia``."},
    )
    lang = Text(
        load_default="en",
        validate=validate.OneOf(LANGUAGES),
        metadata={"description": "The language of the names and descriptions."},
    )


class GoodRoadsQuerySchema(ma.Schema):
    patterns = Text(
        validate=[_pattern_ids, Matches(PATTERN_IDS, "pattern ids are separated by commas")],
        metadata={
            "description": "Comma-separated pattern ids (see /v1/patterns). Without it, "
            "``custom`` and ``profile``: the classic profile's patterns."
        },
    )
    custom = fields.List(
        Text(
            validate=[
                custom_expression,
                Matches(EXPRESSION_SYNTAX, "separate a custom pattern's terms by single spaces"),
            ]
        ),
        validate=validate.Length(max=8),
        metadata={"description": "A pattern of your own, e.g. ``X1 Y2 X1 Y2`` (repeatable)."},
    )
    profile = Text(
        validate=validate.OneOf(list(PROFILES)),
        metadata={"description": "Every pattern of a profile (``classic`` or ``asia``)."},
    )


MAX_WATCHED = 50


class EventsQuerySchema(ma.Schema):
    tables = DelimitedList(
        Text(validate=ID),
        validate=validate.Length(min=1, max=MAX_WATCHED),
        metadata={
            "description": f"Up to {MAX_WATCHED} table ids, comma-separated: only their events, "
            "each with its road patch. Without it, the lobby channel."
        },
    )
    key = Text(
        validate=validate.Length(min=1, max=256),
        metadata={"description": "A read key, for the odds (EventSource sends no headers)."},
    )
    last_event_id = Text(
        validate=[Matches(EVENT_ID, BAD_EVENT_ID), EventId()],
        metadata={
            "description": "Resume after this event (as the Last-Event-ID header); each part of "
            "the id at most 2^64-1."
        },
    )
    frames = fields.Boolean(
        metadata={
            "description": "Without ``tables`` the lobby comes in frames: a full ``frame`` first "
            "(every tile), then at most one ``frame`` every ``ROADS_FRAME_MS`` with each changed "
            "table's delta (api/codecs/frames.py). ``frames=0`` keeps the lobby's per-round "
            "events of earlier versions (deprecated: each viewer gets every round of every "
            "table); ``frames=1`` with ``tables`` is a 400."
        },
    )
    snapshot = fields.Boolean(
        load_default=True,
        metadata={
            "description": "Frames only. ``snapshot=0``: no whole lobby first; the stream starts "
            "at the latest frame, for a client that reads ``GET /v1/lobby/frame`` itself and "
            "applies the frames after its ``cursor`` (``after``). Through a proxy the first "
            "answer is then a few bytes instead of the whole lobby."
        },
    )


class LobbyFrameQuerySchema(ma.Schema):
    key = Text(
        validate=validate.Length(min=1, max=256),
        metadata={"description": "A read key, for the odds (as ``X-API-Key``)."},
    )


class ShoesQuerySchema(ma.Schema):
    limit = QueryInteger(
        load_default=20,
        validate=validate.Range(min=1, max=200),
        metadata={"description": "Shoes on a page (1-200)."},
    )
    cursor = Text(
        validate=validate.Length(max=200),
        metadata={"description": "The ``next_cursor`` of the page before (opaque)."},
    )


class ExportQuerySchema(ma.Schema):
    format = Text(
        load_default="ndjson",
        validate=validate.OneOf(["ndjson", "csv"]),
        metadata={"description": "``ndjson`` (one JSON object a line) or ``csv``."},
    )

"""The field types of the request schemas: each takes only the JSON it names (a boolean, an
integer, a number, UTF-8 text, an RFC 3339 time) and its error says what was wrong."""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Any

from marshmallow import ValidationError, fields, validate

from api.codecs.feedevents import is_event_id
from api.codecs.times import read_rfc3339
from api.live.eventhub import BAD_EVENT_ID


class Text(fields.String):
    """A string that is text: one holding a lone surrogate (valid JSON, ``"\\ud800"``, but no
    UTF-8 can carry it, so Redis could not store it) is an error naming its field."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise ValidationError(
                f"Not UTF-8 text: a lone surrogate at character {error.start}."
            ) from None
        return text


class EventId(validate.Validator):
    """A stream id each of whose parts Redis takes (:func:`api.codecs.feedevents.is_event_id`)."""

    def __call__(self, value: str) -> str:
        if not is_event_id(value):
            raise ValidationError(BAD_EVENT_ID)
        return value


class StrictBoolean(fields.Boolean):
    """Only JSON ``true``/``false``: ``0``, ``1`` and ``"true"`` are errors."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("Not a boolean (use true or false).")
        return value


class StrictInteger(fields.Integer):
    """Only JSON integers: ``true``, ``1.5`` and ``"1"`` are errors. ``1.0`` is ``1``: JSON has
    one kind of number, and JSON Schema's ``integer`` is any number without a fraction."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError("Not an integer.")
        return super()._deserialize(value, attr, data, **kwargs)


class Matches(validate.Validator):
    """The whole text matches ``pattern``, which the OpenAPI document states as the field's
    ``pattern`` (apispec reads ``regex``). Not marshmallow's ``Regexp``: it lets a trailing
    newline through, as Python's ``$`` also matches before one and JSON Schema's does not."""

    def __init__(self, pattern: str | re.Pattern[str], error: str) -> None:
        self.regex = re.compile(pattern)
        self.error = error

    def __call__(self, value: str) -> str:
        if not isinstance(value, str) or self.regex.fullmatch(value) is None:
            raise ValidationError(self.error)
        return value


# A display name is shown in every player's lobby: no control characters (C0, DEL, C1) and no
# bidirectional overrides or isolates (U+202A-202E, U+2066-2069), which could reorder the text
# around it on the page. So is a status's reason.
DISPLAY_NAME = r"^[^\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$"


def displayed(what: str) -> Matches:
    """Text shown to players: the error names ``what``."""
    return Matches(
        DISPLAY_NAME,
        f"{what} must not hold control characters or bidirectional overrides "
        "(U+202A-202E, U+2066-2069)",
    )


class StrictNumber(fields.Number):
    """Only a JSON number (not ``true``, not ``"5"``), finite, kept as given (``5`` stays an
    integer)."""

    num_type = float

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int | float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValidationError("Not a number.")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValidationError("Not a finite number.")
        return value

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> int | float | None:
        return value  # as stored: 5 stays 5, as every other answer shows it


class Rfc3339(fields.AwareDateTime):
    """An RFC 3339 date-time, as the document's ``format: date-time`` says
    (:func:`api.codecs.times.read_rfc3339`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="iso", **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> datetime:
        if not isinstance(value, str):
            raise ValidationError("Not an RFC 3339 date-time (like 2026-11-27T08:00:15.000Z).")
        try:
            return read_rfc3339(value)
        except ValueError as error:
            raise ValidationError(str(error)) from None

"""Numbers in a query string: only their plain decimal text.

marshmallow reads a query's ``"1"`` with Python's ``int()`` and ``float()``, which also take
``" 1"``, ``"1_000"``, ``"+1"`` and digits of other scripts (Arabic-Indic ``"\\u0661"``).
None of those is the ``integer`` or ``number`` the OpenAPI document states, and a cache keyed
by the query string would keep one answer under many spellings: each is an error naming its
field.
"""

from __future__ import annotations

import re
from typing import Any

from marshmallow import ValidationError, fields

INTEGER_TEXT = re.compile(r"-?[0-9]+", re.ASCII)
NUMBER_TEXT = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?", re.ASCII)


class QueryInteger(fields.Integer):
    """An integer written as decimal digits, with a leading ``-`` for a negative one."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, str) and not INTEGER_TEXT.fullmatch(value):
            raise ValidationError("Not an integer (decimal digits).")
        return super()._deserialize(value, attr, data, **kwargs)


class QueryNumber(fields.Float):
    """A number written as JSON writes one: ``2``, ``0.5``, ``1e-1``."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> float:
        if isinstance(value, str) and not NUMBER_TEXT.fullmatch(value):
            raise ValidationError("Not a number (decimal, as JSON writes it).")
        return super()._deserialize(value, attr, data, **kwargs)

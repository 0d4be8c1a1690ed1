"""A pay table as the service stores and logs it: its document
(:meth:`roads.paytables.PayTable.as_dict`) as compact JSON, the bets in the table's own order. A
name means one pay table for ever (:mod:`api.storage.paytablestore`), so the text of a name is the
same wherever it is kept: the deployment's registry, the record's log of the table write that set
it."""

from __future__ import annotations

from api.codecs.jsontext import dumps_text, loads
from roads.paytables import PayTable, pay_table


def encode(table: PayTable) -> str:
    return dumps_text(table.as_dict())


def decode(text: bytes | str) -> PayTable:
    """The pay table a stored text holds (checked again, as any input)."""
    return pay_table(loads(text))

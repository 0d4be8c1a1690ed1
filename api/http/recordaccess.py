"""Who reads the record, and how many at once: a table's past (:mod:`api.http.historyviews`) and the
archive (:mod:`api.http.archive`) need a read or an operator key unless the record is public
(``ROADS_PUBLIC_RECORD=1``): 401 naming the header otherwise (the keys:
:func:`api.http.auth.require_record_reader`). Then at most ``ROADS_RECORD_READS`` of them run at
once in a process (:class:`api.admission.Gate`): one more is a 503 with ``Retry-After``, as the
other heavy reads are, so a crowd of record reads never holds every connection of the record's
pool, nor the workers."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from api.http.answers import services
from api.http.auth import SECURITY, require_record_reader

__all__ = ["SECURITY", "record_read", "require_record_reader"]


def record_read(view: Callable[..., Any]) -> Callable[..., Any]:
    """The view reads the record: a key first (401), then the process's bound (503)."""

    @wraps(view)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        with services().record_reads.entered():
            return view(*args, **kwargs)

    return require_record_reader(bounded)

"""Request parsing shared by the blueprints: every JSON body decoded in one step, within the
limits of :mod:`api.codecs.requestbody` (each refusal a 400 naming the limit)."""

from __future__ import annotations

import threading
from typing import Any

import flask
from cachetools import LRUCache
from flask_smorest import abort
from marshmallow import missing
from webargs.flaskparser import FlaskParser, is_json_request

from api.codecs.requestbody import BodyError, decode_body


class BodyParser(FlaskParser):
    """webargs' Flask parser with the service's one JSON body decoder."""

    def load_json(self, req: flask.Request, schema: Any) -> Any:
        if not is_json_request(req):
            return missing
        data = req.get_data(cache=True)
        if not data:
            return missing
        try:
            return decode_body(data)
        except BodyError as error:
            abort(400, message=error.message)


class QueryMemoParser(BodyParser):
    """webargs' Flask parser that remembers the validated result of each query string.

    Hot GET endpoints (pictures in a busy lobby) see the same few query strings over and over;
    validating them once is enough. Only successful parses are kept (errors raise every time),
    per schema and raw query string, in a bounded LRU.
    """

    MAX_ENTRIES = 1024

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._memo: LRUCache[tuple[int, bytes], dict] = LRUCache(maxsize=self.MAX_ENTRIES)
        self._lock = threading.Lock()

    def parse(self, argmap: Any, req: Any = None, *, location: str | None = None, **kwargs: Any):
        if location != "query" or kwargs.get("validate"):
            return super().parse(argmap, req, location=location, **kwargs)
        # webargs leaves the request out for Flask views and reads the current one.
        key = (id(argmap), (req if req is not None else flask.request).query_string)
        with self._lock:
            parsed = self._memo.get(key)
            if parsed is not None:
                return dict(parsed)
        parsed = super().parse(argmap, req, location=location, **kwargs)
        with self._lock:
            self._memo[key] = dict(parsed)
        return parsed

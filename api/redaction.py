"""What a log line or a ``repr`` may show of a setting: never a key, a secret or a password
(:class:`api.config.Settings`' repr; :mod:`api.logs` scrubs what libraries write)."""

from __future__ import annotations

import re

# What ``repr(Settings)`` never shows (see Settings.__repr__): fields named for a secret, but
# not the paths of the files that hold one.
SECRET_NAME = re.compile(r"(^|_)(keys?|secrets?|passwords?|tokens?)$")
PATH_FIELDS = frozenset({"key_file", "checkpoint_key", "checkpoint_dir"})
# ``scheme://user:password@`` (or ``user:password@`` with no scheme): the password.
URL_PASSWORD = re.compile(r"((?:^|[\s(\"'=,])(?:[A-Za-z][A-Za-z0-9+.-]*://)?[^\s:/@\"']*):[^\s/]*@")


def redact_url(text: str) -> str:
    """``text`` with the password of every URL in it replaced by ``***``
    (``postgresql://roads:***@db/roads``)."""
    return URL_PASSWORD.sub(r"\1:***@", text)


def shown(name: str, value: object) -> str:
    """``value`` of the setting ``name`` as a repr may show it: a secret as ``'***'`` (one per
    key of a tuple, so their number shows), every URL's password as ``***``."""
    if value and name not in PATH_FIELDS and SECRET_NAME.search(name):
        return repr(tuple("***" for _ in value)) if isinstance(value, tuple) else "'***'"
    if isinstance(value, str):
        return repr(redact_url(value))
    if isinstance(value, tuple):
        return repr(tuple(redact_url(v) if isinstance(v, str) else v for v in value))
    return repr(value)

"""A value cached at a shoe version: ``b"VERSION:payload"`` (a scorecard state, or an answer).

Every cached value carries the version it was built at and is used only at that version, so a
reader never mixes an old answer with a new shoe. Python writes and reads stamps with
:func:`stamped` and :func:`at_version`; the scripts with :data:`LUA`'s ``stamped`` and
``is_stamped``.
"""

from __future__ import annotations

from importlib.resources import files

# The Lua side: functions the scripts that use this format include (api.storage.luascript).
LUA = files(__package__).joinpath("stamps.lua")


def stamped(version: int, payload: bytes) -> bytes:
    """``payload`` stamped with the ``version`` it was built at."""
    return b"%d:%s" % (version, payload)


def at_version(value: bytes | None, version: int) -> bytes | None:
    """The payload of a stamped value if it was built at ``version``, else ``None``."""
    if value is None:
        return None
    stamp, _, payload = value.partition(b":")
    return payload if stamp == b"%d" % version else None

"""A Lua script kept in a ``.lua`` file of the package that wraps it, and run by its SHA.

**The header names every argument.** A script opens with one line per key and argument it takes,
``local NAME = KEYS[i]`` or ``local NAME = ARGV[i]`` (``i`` from 1, in order, keys first), and at
most one rest of each, ``local NAME = rest(KEYS, i)``, last (``rest`` is defined by
``prelude.lua``, joined ahead of every script): no line below the header indexes
``KEYS`` or ``ARGV`` (``tests/storage/test_lua_files.py`` greps the files). The Python side calls
:meth:`Script.queue` or :meth:`Script.run` with those names as keywords; the order Redis gets them
in is the header's, read from the file, so the two cannot drift, and a name missing or unknown is
a ``TypeError`` naming it.

**Fragments by declared use.** The Lua functions of a format (a :mod:`api.codecs` module's
``.lua`` file) or of a shared rule are defined ahead of the script by ``uses``: the files are
joined, never edited. Redis numbers the lines of what it ran; an error it reports is rewritten to
name the file and the line in that file (:func:`located`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

import redis

_ONE = re.compile(r"^local (\w+) = (KEYS|ARGV)\[(\d+)\]\s*(--.*)?$")
_REST = re.compile(r"^local (\w+) = rest\((KEYS|ARGV), (\d+)\)\s*(--.*)?$")
_LINE = re.compile(r"user_script:(\d+)")
_SHA = re.compile(r"\b([0-9a-f]{40})\b")


def lua_file(package: str, name: str) -> Traversable:
    """The ``.lua`` file ``name`` kept beside the modules of ``package`` (package data)."""
    return files(package).joinpath(name)


@dataclass(frozen=True, slots=True)
class Header:
    """What a script's header binds: its keys' and arguments' names in KEYS' and ARGV's order,
    and the name of each rest (every key or argument after the named ones), if any."""

    keys: tuple[str, ...]
    args: tuple[str, ...]
    rest_keys: str | None = None
    rest_args: str | None = None
    names: frozenset[str] = field(init=False)  # every name bound (a script call checks them)

    def __post_init__(self) -> None:
        rests = {self.rest_keys, self.rest_args} - {None}
        names = frozenset(self.keys) | frozenset(self.args) | rests  # type: ignore[operator]
        object.__setattr__(self, "names", names)


def read_header(text: str, where: str) -> tuple[Header, int]:
    """The header at the top of ``text`` (comments and blank lines may come between its lines),
    and the number of lines it spans. ``ValueError`` names ``where`` and the rule broken."""
    named: dict[str, list[str]] = {"KEYS": [], "ARGV": []}
    rests: dict[str, str] = {}
    end = 0
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("--"):
            continue
        one, rest = _ONE.match(stripped), _REST.match(stripped)
        if not one and not rest:
            break
        name, array, index = (one or rest).group(1, 2, 3)  # type: ignore[union-attr]
        if array in rests:
            raise ValueError(f"{where}:{number}: {array} bound after its rest")
        if int(index) != len(named[array]) + 1:
            raise ValueError(f"{where}:{number}: {array}[{index}] out of order")
        if rest:
            rests[array] = name
        else:
            named[array].append(name)
        end = number
    header = Header(
        tuple(named["KEYS"]), tuple(named["ARGV"]), rests.get("KEYS"), rests.get("ARGV")
    )
    bound = [*header.keys, *header.args, *rests.values()]
    if len(set(bound)) != len(bound):
        raise ValueError(f"{where}: a name bound twice in the header")
    return header, end


@dataclass(frozen=True, slots=True)
class Part:
    """One file of a script's source: its name and the line of the source it starts at."""

    name: str
    first: int
    lines: int


class Script:
    """A script file and the fragments it ``uses``, sent by SHA (see :meth:`queue`). Every
    script made is listed in :data:`SCRIPTS`, so a server that forgot them (a restart,
    ``SCRIPT FLUSH``) gets them all again at once."""

    def __init__(self, package: str, name: str, *, uses: Sequence[Traversable] = ()) -> None:
        where = f"{package.replace('.', '/')}/{name}"
        body = lua_file(package, name).read_text()
        self.header, _ = read_header(body, where)
        self.name = where
        parts, texts, first = [], [], 1
        joined = [PRELUDE, *uses]
        for label, text in [*((_label(f), f.read_text()) for f in joined), (where, body)]:
            text = text if text.endswith("\n") else text + "\n"
            count = text.count("\n")
            parts.append(Part(label, first, count))
            texts.append(text)
            first += count
        self.parts = tuple(parts)
        self.source = "".join(texts)
        self.sha = hashlib.sha1(self.source.encode()).hexdigest()
        SCRIPTS.append(self)
        BY_SHA[self.sha] = self

    def __repr__(self) -> str:
        return f"Script({self.name!r})"

    def call(self, named: Mapping[str, Any]) -> tuple[list[Any], list[Any]]:
        """KEYS and ARGV in the header's order from ``named`` (every name the header binds)."""
        header = self.header
        if named.keys() != header.names:
            missing = sorted(header.names - named.keys())
            unknown = sorted(named.keys() - header.names)
            raise TypeError(f"{self.name}: missing {missing}, unknown {unknown}")
        keys = [named[name] for name in header.keys]
        args = [named[name] for name in header.args]
        if header.rest_keys is not None:
            keys.extend(named[header.rest_keys])
        if header.rest_args is not None:
            args.extend(named[header.rest_args])
        return keys, args

    def queue(self, commands: Any, **named: Any) -> None:
        """Add the script to a pipeline (anything with ``execute_command``) by its SHA.

        redis-py's own way asks the server whether the script is loaded before every
        execution, one more round trip; the transport instead loads the scripts and sends the
        pipeline again when the server answers ``NOSCRIPT``."""
        keys, args = self.call(named)
        commands.execute_command("EVALSHA", self.sha, len(keys), *keys, *args)

    def bind(self, fixed: Mapping[str, Any]) -> Bound:
        """The script's call with the ``fixed`` names' values laid out once: a call that sends
        mostly the same keys and arguments (the lobby step of every write) then fills in only
        the others (:meth:`Bound.command`). Rests must be among the fixed."""
        varying = self.header.names - fixed.keys()
        if {self.header.rest_keys, self.header.rest_args} & varying:
            raise ValueError(f"{self.name}: a rest is bound once, not per call")
        keys, args = self.call({**fixed, **dict.fromkeys(varying)})
        header = self.header
        at = {name: 3 + index for index, name in enumerate(header.keys)}
        at |= {name: 3 + len(keys) + index for index, name in enumerate(header.args)}
        template = ("EVALSHA", self.sha, len(keys), *keys, *args)
        return Bound(self, template, tuple((name, at[name]) for name in sorted(varying)))

    def run(self, client: redis.Redis, **named: Any) -> Any:
        """Run the script alone through ``client`` (its own routing on a cluster), loading it
        first if the server does not know it."""
        return self.run_call(client, *self.call(named))

    def run_call(self, client: redis.Redis, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        """:meth:`run` with KEYS and ARGV already in the header's order (:meth:`call`)."""
        try:
            try:
                return client.evalsha(self.sha, len(keys), *keys, *args)
            except redis.exceptions.NoScriptError:
                client.script_load(self.source)
                return client.evalsha(self.sha, len(keys), *keys, *args)
        except redis.ResponseError as error:
            raise located(error) from None

    def where(self, line: int) -> str:
        """``file:line`` of the source's ``line``."""
        for part in self.parts:
            if part.first <= line < part.first + part.lines:
                return f"{part.name}:{line - part.first + 1}"
        return f"{self.name}:?"


@dataclass(frozen=True, slots=True)
class Bound:
    """A :class:`Script`'s call with most of its names' values laid out (:meth:`Script.bind`):
    the ``EVALSHA`` command's words, and where each name left to fill goes."""

    script: Script
    template: tuple[Any, ...]
    slots: tuple[tuple[str, int], ...]  # (name, its place in the command), by name

    def command(self, **varying: Any) -> tuple[Any, ...]:
        """The whole ``EVALSHA`` command, as :meth:`Script.queue` sends it for the fixed names
        and ``varying`` (exactly the names not fixed, or a ``TypeError`` naming them)."""
        if len(varying) != len(self.slots) or any(name not in varying for name, _ in self.slots):
            wanted = sorted(name for name, _ in self.slots)
            raise TypeError(f"{self.script.name}: wants {wanted}, not {sorted(varying)}")
        words = list(self.template)
        for name, place in self.slots:
            words[place] = varying[name]
        return tuple(words)

    def queue(self, commands: Any, **varying: Any) -> None:
        """Add the call to a pipeline, as :meth:`Script.queue` does."""
        commands.execute_command(*self.command(**varying))


def _label(fragment: Traversable) -> str:
    """A fragment's name as its package path (``api/codecs/stamps.lua``) where it can be found."""
    path = str(fragment)
    at = path.rfind("/api/")
    return path[at + 1 :] if at >= 0 else fragment.name


PRELUDE = lua_file(__package__, "prelude.lua")
SCRIPTS: list[Script] = []
BY_SHA: dict[str, Script] = {}


def located(error: redis.ResponseError) -> redis.ResponseError:
    """``error`` as Redis sent it, with each ``user_script:LINE`` of a script this process knows
    (found by the SHA Redis names) rewritten as the file and the line in that file."""
    text = str(error)
    found = _SHA.search(text)
    script = BY_SHA.get(found.group(1)) if found else None
    if script is None:
        return error
    rewritten = _LINE.sub(lambda m: script.where(int(m.group(1))), text)
    return type(error)(rewritten)


def every_file(scripts: Iterable[Script] = SCRIPTS) -> set[str]:
    """The files every script in ``scripts`` is made of (for the tests' greps)."""
    return {part.name for script in scripts for part in script.parts}

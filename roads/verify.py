"""Check an export of the record (NDJSON, or CSV with ``?format=csv``) against its chain:
``python -m roads.verify FILE`` (``-`` reads standard input).

Each line must carry ``prev_hash`` equal to the line before it's ``hash`` and a ``hash`` equal to
SHA-256(prev_hash || canonical bytes) (:mod:`roads.chain`). The first line's ``prev_hash`` is the
previous shoe's head, taken as given (check it against that shoe's export). Exits 0 and prints
the head (the last line's hash) when the chain holds; exits 1 naming the first line that breaks
it (edited, removed, reordered or inserted) otherwise; 2 when the file cannot be read as an export.
No service is needed: this module imports only :mod:`roads`.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from roads.chain import link


class BadExport(ValueError):
    """The file is not an export: a line that is not a JSON object with its link fields."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What checking found: the ``writes`` read, ``head`` (the last hash) when the chain holds,
    else the ``broken`` line of the file (1-based) and why."""

    writes: int
    head: str | None
    broken: int | None = None
    reason: str = ""

    @property
    def holds(self) -> bool:
        return self.broken is None


def writes_of(text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The writes of an export, NDJSON or CSV (told apart by the first character), each with
    the number of the file's line it is on."""
    if text.lstrip().startswith("{") or not text.strip():
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                write = json.loads(line)
            except ValueError as error:
                raise BadExport(f"line {number} is not JSON: {error}") from None
            if not isinstance(write, dict):
                raise BadExport(f"line {number} is not a JSON object")
            yield number, write
        return
    rows = csv.DictReader(io.StringIO(text))
    if "write" not in (rows.fieldnames or ()):
        raise BadExport("neither NDJSON nor a CSV export with a 'write' column")
    for row in rows:
        # The CSV export carries each write's canonical JSON in ``write`` beside its links.
        try:
            write = json.loads(row["write"])
        except (KeyError, TypeError, ValueError):
            raise BadExport("a CSV export needs a 'write' column of JSON objects") from None
        yield rows.line_num, {**write, "prev_hash": row.get("prev_hash"), "hash": row.get("hash")}


def verify(writes: Iterable[tuple[int, dict[str, Any]]]) -> Verdict:
    """Check the chain of ``writes`` (each with its line number) in order (see the module
    doc)."""
    previous: str | None = None
    count = 0
    for count, (line, write) in enumerate(writes, 1):
        prev_hash, claimed = write.get("prev_hash"), write.get("hash")
        if not isinstance(prev_hash, str) or not isinstance(claimed, str):
            return Verdict(count, None, line, "it has no prev_hash or hash")
        if previous is not None and prev_hash != previous:
            return Verdict(
                count, None, line, "its prev_hash is not the hash of the write before it"
            )
        try:
            computed = link(prev_hash, write)
        except ValueError:
            return Verdict(count, None, line, "its prev_hash is not hexadecimal")
        if computed != claimed:
            return Verdict(count, None, line, "its hash does not match its contents")
        previous = claimed
    return Verdict(count, previous)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m roads.verify FILE   (an export, NDJSON or CSV; - for stdin)")
        return 2
    try:
        if args[0] == "-":
            text = sys.stdin.read()
        else:
            with open(args[0], encoding="utf-8") as file:
                text = file.read()
        verdict = verify(writes_of(text))
        if verdict.writes == 0:
            raise BadExport("it holds no writes")
    except (OSError, UnicodeDecodeError, BadExport) as error:
        print(f"cannot read {args[0]}: {error}", file=sys.stderr)
        return 2
    if verdict.holds:
        print(f"chain holds: {verdict.writes} writes, head {verdict.head}")
        return 0
    print(f"chain broken at line {verdict.broken}: {verdict.reason}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())

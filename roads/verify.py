"""Check an export of the record (NDJSON, or CSV with ``?format=csv``) against its chain:
``python -m roads.verify FILE`` (``-`` reads standard input); and against signed checkpoints:
``python -m roads.verify FILE --checkpoint CP --public-key KEY`` (:mod:`roads.signedheads`;
``--public-key`` again for each key a rotation left in use).

Each line must carry ``prev_hash`` equal to the line before it's ``hash`` and a ``hash`` equal to
SHA-256(prev_hash || canonical bytes) (:mod:`roads.chain`). The first line's ``prev_hash`` is the
previous shoe's head, taken as given (check it against that shoe's export). Exits 0 and prints
the head (the last line's hash) when the chain holds; exits 1 naming the first line that breaks
it (edited, removed, reordered or inserted) otherwise; 2 when the file cannot be read as an export.

With ``--checkpoint``: exits 0 when the chain holds and reaches every head the checkpoints
signed for the export's shoe; 1, naming the shoe, when it does not (the shoe was rewritten, or
writes removed, after a checkpoint signed it) or when a checkpoint's signature does not verify
or the file is not a whole sequence (a checkpoint deleted, reordered, inserted or cut from its
head, named by ``seq``; ``--partial`` accepts a copy starting later), or, with ``--latest``,
when the file does not hold that checkpoint (cut from its end); 2 when the checkpoint or the key
cannot be read; 3 when the chain holds but no checkpoint signed by the key covers the shoe (yet:
check again after the next checkpoint). No service is needed: this module imports only
:mod:`roads` (and ``cryptography``, through :mod:`roads.signedheads`, when a key is given).
"""

from __future__ import annotations

import argparse
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


NOT_COVERED = 3  # the exit status when no signed checkpoint covers the shoe


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m roads.verify",
        description="Check an export of the record (NDJSON or CSV; - for stdin) against its"
        " chain and, with --checkpoint and --public-key, against signed checkpoints.",
    )
    parser.add_argument("file")
    parser.add_argument("--checkpoint", help="a checkpoint store's JSON-lines file, or one")
    parser.add_argument(
        "--public-key", action="append", default=[], help="the signing key, PEM (repeatable)"
    )
    parser.add_argument(
        "--latest",
        help="a checkpoint known apart from CP (GET /v1/checkpoints/latest, a copy kept"
        " elsewhere): CP must hold it, so checkpoints cut from CP's end are caught",
    )
    parser.add_argument(
        "--partial",
        action="store_true",
        help="CP is a copy that starts after seq 1: proves nothing of the checkpoints before it",
    )
    args = parser.parse_args(argv)
    if bool(args.checkpoint) != bool(args.public_key):
        parser.error("--checkpoint and --public-key go together")
    if (args.latest or args.partial) and not args.checkpoint:
        parser.error("--latest and --partial go with --checkpoint")
    return args


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as file:
        return file.read()


def main(argv: list[str] | None = None) -> int:
    args = arguments(sys.argv[1:] if argv is None else argv)
    try:
        writes = list(writes_of(_read(args.file)))
        verdict = verify(writes)
        if verdict.writes == 0:
            raise BadExport("it holds no writes")
    except (OSError, UnicodeDecodeError, BadExport) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    if not verdict.holds:
        print(f"chain broken at line {verdict.broken}: {verdict.reason}", file=sys.stderr)
        return 1
    print(f"chain holds: {verdict.writes} writes, head {verdict.head}")
    return _signed(args, writes) if args.checkpoint else 0


def _signed(args: argparse.Namespace, writes: list[tuple[int, dict[str, Any]]]) -> int:
    from roads import signedheads

    try:
        keys = []
        for path in args.public_key:
            with open(path, "rb") as file:
                keys.append(file.read())
        found = signedheads.public_keys(keys)
        checkpoints = signedheads.checkpoints_of(_read(args.checkpoint))
        latest = signedheads.checkpoints_of(_read(args.latest))[-1] if args.latest else None
    except ImportError:
        print("--public-key needs the cryptography package", file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError, signedheads.BadCheckpoint) as error:
        print(f"cannot read the checkpoint or the key: {error}", file=sys.stderr)
        return 2
    good, problem = signedheads.trusted(checkpoints, found, partial=args.partial)
    if not problem and latest is not None:
        problem = signedheads.reaches(checkpoints, latest, found)
    if problem:
        print(f"checkpoints refused: {problem}", file=sys.stderr)
        return 1
    coverage = signedheads.against(writes, good)
    if not coverage.holds:
        print(f"export does not match its signed head: {coverage.problem}", file=sys.stderr)
        return 1
    if coverage.covered == 0:
        print(
            f"no checkpoint signed by the key covers this shoe ({len(good)} read, "
            f"{len(checkpoints) - len(good)} by other keys): check again after the next one",
            file=sys.stderr,
        )
        return NOT_COVERED
    print(f"signed heads reached: {coverage.covered} of the shoe's, in {len(good)} checkpoints")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The ``baccarat-roads`` command (pyproject.toml's ``[project.scripts]``): the service's
entry points as one installed command, for a wheel's install where there is no checkout.

- ``baccarat-roads serve [--single | --door ingest|public]``: runs the service, gunicorn in the
  deployment's doors (:mod:`api.doors`, which parses these arguments and answers ``--help``);
- ``baccarat-roads migrate``: applies the record's migrations, as ``python -m
  api.record.migrate`` (:mod:`api.record.migrate`);
- ``baccarat-roads record``: the recorder alone, as ``python -m api.record.run``
  (:mod:`api.record.run`; the compose stack runs it as a service of its own);
- ``baccarat-roads verify FILE [...]``: checks an export against its chain and signed
  checkpoints, as ``python -m roads.verify`` with the same arguments (:mod:`roads.verify`,
  which parses them and answers ``--help``);
- ``baccarat-roads check-config``: builds the settings from the environment, and the keys
  (a key file read, every key checked), as the service does at start, and prints what it
  found without a secret or an address.

Exit codes: 0 done (for ``serve``, the doors stopped cleanly); 2 a command line that does not
parse, or settings or keys the service cannot start with (the message names the setting);
``serve`` exits with its doors' code (non-zero when one of them died); ``migrate`` and
``record`` with their modules' (2 when the settings they need are missing); ``verify`` with
:mod:`roads.verify`'s: 1 the chain or a checkpoint does not hold, 2 the file, checkpoint or key
cannot be read, 3 the chain holds but no checkpoint covers the shoe yet.

Each command's module is imported when it runs, not before, so a command loads only what it
needs (``serve`` starts gunicorn in processes of its own, which import the app there).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from api.config import ConfigError, Settings


def serve(argv: list[str]) -> int:
    from api.doors import main

    return main(argv)


def verify(argv: list[str]) -> int:
    from roads.verify import main

    return main(argv)


def migrate(argv: list[str]) -> int:
    from api.record.migrate import main

    return main()


def record(argv: list[str]) -> int:
    from api.record.run import main

    return main()


def check_config(argv: list[str]) -> int:
    """Exit 0 printing the settings' summary, or 2 with the :class:`ConfigError`'s message."""
    from api.http.keyring import Keys

    try:
        settings = Keys(Settings.from_env()).settings
    except ConfigError as error:
        print(f"roads: the configuration does not start: {error}", file=sys.stderr)
        return 2
    for line in summary(settings):
        print(line)
    return 0


def summary(settings: Settings) -> list[str]:
    """What ``check-config`` prints: which stores and door, how many keys of each kind; never
    a URL, an address or a key (the keys by count, their names left to the logs)."""
    redis = "embedded (demo: nothing is kept)" if settings.embedded else "REDIS_URL set"
    if settings.cluster:
        redis += " (cluster)"
    return [
        "configuration: ok",
        f"redis: {redis}",
        f"record: {'ROADS_DATABASE_URL set' if settings.recording else 'off'}",
        f"door: {settings.door}",
        f"demo: {'on' if settings.demo else 'off'}",
        f"namespace: {settings.namespace or '(none)'}",
        f"ingest keys: {len(settings.ingest_keys)}"
        + (" (and a key file)" if settings.key_file else ""),
        f"read keys: {len(settings.read_keys)}",
        f"operator keys: {len(settings.operator_keys)}",
    ]


# Each command: what it does (its --help), whether it parses its own arguments, and its runner.
COMMANDS: dict[str, tuple[str, bool, Callable[[list[str]], int]]] = {
    "serve": ("run the service (gunicorn, in the deployment's doors)", True, serve),
    "migrate": ("apply the record's migrations (python -m api.record.migrate)", False, migrate),
    "record": ("run the recorder alone (python -m api.record.run)", False, record),
    "verify": ("check an export against its chain (python -m roads.verify)", True, verify),
    "check-config": ("check the settings and keys from the environment", False, check_config),
}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="baccarat-roads",
        description="The roads service's commands; each answers --help.",
        epilog="Exit codes: 0 done; 2 a bad command line or configuration; otherwise the"
        " command's own (see each command's help).",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (text, own, _) in COMMANDS.items():
        # A command that parses its own arguments answers --help itself: main() hands them on.
        commands.add_parser(name, help=text, description=text, add_help=not own)
    return top


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` names (the process's arguments by default); its exit code."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in COMMANDS and COMMANDS[argv[0]][1]:
        return COMMANDS[argv[0]][2](argv[1:])
    args = parser().parse_args(argv)
    return COMMANDS[args.command][2]([])


if __name__ == "__main__":
    sys.exit(main())

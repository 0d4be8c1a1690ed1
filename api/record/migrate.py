"""Apply the record's migrations: ``python -m api.record.migrate`` (``ROADS_DATABASE_URL`` from
the environment). Prints each one applied; applying them again does nothing."""

from __future__ import annotations

import sys

from api.config import Settings
from api.record.database import Database


def main() -> int:
    settings = Settings.from_env()
    if settings.database_url is None:
        print("ROADS_DATABASE_URL is not set: there is no record to migrate", file=sys.stderr)
        return 2
    applied = Database(settings.database_url).migrate()
    print("applied: " + ", ".join(applied) if applied else "the schema is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())

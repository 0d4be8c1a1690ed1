"""Apply the record's migrations: ``python -m api.record.migrate`` (``ROADS_DATABASE_URL`` from
the environment: the URL of the role that owns the schema). Prints each one applied; applying
them again does nothing. With ``ROADS_RECORD_ROLE`` set, it then grants that role (the one the
service runs as) what the service needs and no more (:mod:`api.record.roles`): it may record
writes, never change or remove one."""

from __future__ import annotations

import os
import sys

import psycopg

from api.config import Settings
from api.record.database import Database
from api.record.roles import RoleProblem, grant


def main() -> int:
    # Only the record's settings: migrating needs no Redis (the rest of the service's settings
    # may be absent where the owner runs this).
    env = os.environ
    settings = Settings(
        database_url=env.get("ROADS_DATABASE_URL", "").strip() or None,
        record_role=env.get("ROADS_RECORD_ROLE", "").strip() or None,
    )
    if settings.database_url is None:
        print("ROADS_DATABASE_URL is not set: there is no record to migrate", file=sys.stderr)
        return 2
    applied = Database(settings.database_url).migrate()
    print("applied: " + ", ".join(applied) if applied else "the schema is up to date")
    if settings.record_role is None:
        print("ROADS_RECORD_ROLE is not set: no role granted (the service runs as the owner)")
        return 0
    try:
        with psycopg.connect(settings.database_url, autocommit=False) as conn:
            grant(conn, settings.record_role)
    except RoleProblem as problem:
        print(f"cannot grant the service's role: {problem}", file=sys.stderr)
        return 2
    print("granted ROADS_RECORD_ROLE: it may record and read, never change or remove a write")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The service's PostgreSQL role and what it is granted: the owner of the schema runs the
migrations and grants, the service runs as a role that records and reads but cannot change or
remove a recorded write.

The runtime role (``ROADS_RECORD_ROLE``) may:

- ``record_writes``: ``SELECT``, ``INSERT``; never ``UPDATE``, ``DELETE`` or ``TRUNCATE`` (a
  month's partition is made by ``record_month``, which the owner owns; a partition is reached
  through ``record_writes`` alone);
- ``record_tables``, ``record_shoes``: ``SELECT``, ``INSERT``, ``UPDATE`` (the heads, the
  counts, a shoe leaving Redis); ``record_kgrams``: ``SELECT``, ``INSERT``;
- ``record_migrations``: ``SELECT`` (the service checks the schema is up to date);
- ``record_month(date)``: ``EXECUTE``.

:func:`grant` is idempotent: ``python -m api.record.migrate`` applies it after every migration
run, so a table a later migration adds is granted there too.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

GRANTS = (
    ("SELECT", "record_migrations"),
    ("SELECT, INSERT, UPDATE", "record_tables"),
    ("SELECT, INSERT, UPDATE", "record_shoes"),
    ("SELECT, INSERT", "record_kgrams"),
    ("SELECT, INSERT", "record_writes"),
)
REVOKED = ("UPDATE", "DELETE", "TRUNCATE")  # on record_writes: taken back if ever given


class RoleProblem(ValueError):
    """The runtime role cannot be granted (missing, or the owner itself)."""


def grant(conn: psycopg.Connection, role: str) -> None:
    """Grant ``role`` what the service needs (see the module doc), in ``conn`` (the owner's)."""
    (exists,) = conn.execute("SELECT count(*) FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    if not exists:
        raise RoleProblem("ROADS_RECORD_ROLE names no role of this PostgreSQL server")
    (owner,) = conn.execute(
        "SELECT pg_has_role(%s, tableowner, 'USAGE') FROM pg_tables"
        " WHERE tablename = 'record_writes' AND schemaname = current_schema()",
        (role,),
    ).fetchone()
    if owner:
        raise RoleProblem(
            "ROADS_RECORD_ROLE owns the record's tables (or is a member of their owner):"
            " run the service as a role of its own"
        )
    who = sql.Identifier(role)
    conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(_schema(conn), who))
    for rights, table in GRANTS:
        conn.execute(
            sql.SQL("GRANT {} ON TABLE {} TO {}").format(
                sql.SQL(rights), sql.Identifier(table), who
            )
        )
    conn.execute(
        sql.SQL("REVOKE {} ON TABLE record_writes FROM {}").format(
            sql.SQL(", ").join(sql.SQL(r) for r in REVOKED), who
        )
    )
    conn.execute(sql.SQL("GRANT EXECUTE ON FUNCTION record_month(date) TO {}").format(who))


def owns_the_record(conn: psycopg.Connection) -> bool:
    """Whether the connected role may change recorded writes: it owns ``record_writes`` (or is
    a member of its owner), or holds ``UPDATE`` or ``DELETE`` on it."""
    row = conn.execute(
        "SELECT pg_has_role(current_user, tableowner, 'USAGE')"
        " OR has_table_privilege('record_writes', 'UPDATE')"
        " OR has_table_privilege('record_writes', 'DELETE')"
        " FROM pg_tables WHERE tablename = 'record_writes' AND schemaname = current_schema()"
    ).fetchone()
    return bool(row and row[0])


def _schema(conn: psycopg.Connection) -> sql.Identifier:
    (schema,) = conn.execute("SELECT current_schema()").fetchone()
    return sql.Identifier(schema)

"""issue 42, item 3: the record is tamper-evident against the database's own administrators.

On a real PostgreSQL the schema belongs to an owner role, which runs the migrations; the service
runs as a role of its own (``ROADS_RECORD_ROLE``) that records writes but may neither change nor
remove one. An administrator (who can do anything) rewrites a shoe and every later head
consistently: the export still verifies alone, and fails against the checkpoint the recorder
signed with a key the database never sees, naming the shoe; deleting the checkpoints that
cover it from the store's file is refused too, and cutting the file's end is caught against the
latest checkpoint served.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import psycopg
import pytest

from api.record.checkpoints import Checkpointer, keygen, load_private_key
from api.record.checkpointstore import JsonLinesStore
from roads.chain import canonical, link
from tests.conftest import AUTH, make_app
from tests.record.conftest import record_all

ROLES = itertools.count()
OPERATOR = {"X-API-Key": "operator-key"}


@pytest.fixture
def roles(postgres_server):
    """A database owned by an owner role, migrated by it with ``python -m api.record.migrate``
    granting the runtime role; the URLs of the owner, the runtime role and the administrator."""
    n = next(ROLES)
    admin = postgres_server.new_database()
    owner, runtime = f"chain_owner_{n}", f"chain_app_{n}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {owner} LOGIN")
        conn.execute(f"CREATE ROLE {runtime} LOGIN")
        conn.execute(f"ALTER DATABASE {admin.rsplit('/', 1)[1]} OWNER TO {owner}")
        conn.execute(f"ALTER SCHEMA public OWNER TO {owner}")
    owner_url = admin.replace("postgres@", f"{owner}@")
    done = subprocess.run(
        [sys.executable, "-m", "api.record.migrate"],
        env={**os.environ, "ROADS_DATABASE_URL": owner_url, "ROADS_RECORD_ROLE": runtime},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "0003_roles_and_key_names" in done.stdout and runtime not in done.stdout
    return {
        "admin": admin,
        "owner": owner_url,
        "runtime": admin.replace("postgres@", f"{runtime}@"),
    }


def denied(url: str, statement: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        try:
            conn.execute(statement)
        except psycopg.errors.InsufficientPrivilege:
            return True
    return False


def test_the_runtime_role_records_but_cannot_change_or_remove_a_write(roles, backend, redis_client):
    runtime = roles["runtime"]
    app = make_app(backend.url, cluster=backend.cluster, database_url=runtime)
    try:
        client, recorder = app.test_client(), app.extensions["roads"].record.recorder
        for number, result in enumerate("BPB", 1):
            url = "/v1/tables/roles/shoes/s1/rounds"
            answer = client.post(url, json={"round": number, "result": result}, headers=AUTH)
            assert answer.status_code == 201
        record_all(recorder)
    finally:
        app.extensions["roads"].record.database.close()
    with psycopg.connect(runtime) as conn:
        (count,) = conn.execute("SELECT count(*) FROM record_writes").fetchone()
        (part,) = conn.execute(
            "SELECT inhrelid::regclass::text FROM pg_inherits"
            " WHERE inhparent = 'record_writes'::regclass"
        ).fetchone()
    assert count == 3  # recorded as the runtime role, its month's partition made for it
    assert denied(runtime, "UPDATE record_writes SET record = 'x'")
    assert denied(runtime, "DELETE FROM record_writes")
    assert denied(runtime, "TRUNCATE record_writes")
    assert denied(runtime, f"UPDATE {part} SET record = 'x'")  # nor through its partition
    assert denied(runtime, f"DELETE FROM {part}")
    assert denied(runtime, "ALTER TABLE record_writes DISABLE TRIGGER ALL")
    assert denied(runtime, "CREATE TABLE elsewhere (x int)")
    assert not denied(roles["owner"], "SELECT 1 FROM record_writes")


def rewrite_from(admin: str, table: str, shoe: str, round_: int) -> None:
    """What an administrator of the database can do: turn a round of ``shoe`` from B into P,
    recompute its canonical bytes and hash and those of every later write of the table's shoes
    (each link to the rewritten hash it followed), and move the shoes' and table's heads."""
    moved: dict[str, str] = {}
    with psycopg.connect(admin) as conn:
        rows = conn.execute(
            "SELECT number, shoe, kind, canonical, prev_hash, hash FROM record_writes"
            " WHERE table_id = %s AND shoe <> '' ORDER BY number",
            (table,),
        ).fetchall()
        for number, at_shoe, kind, text, prev, old in rows:
            write = json.loads(text)
            edit = at_shoe == shoe and kind == "round" and write["round"] == round_
            if edit:
                assert write["record"]["result"] == "B"
                write["record"]["result"] = "P"
            new_prev = moved.get(prev, prev)
            if not edit and new_prev == prev:
                continue
            moved[old] = link(new_prev, write)
            conn.execute(
                "UPDATE record_writes SET canonical = %s, prev_hash = %s, hash = %s, record = %s"
                " WHERE table_id = %s AND number = %s",
                (
                    canonical(write).decode(),
                    new_prev,
                    moved[old],
                    json.dumps(write["record"], separators=(",", ":")),
                    table,
                    number,
                ),
            )
        for old, new in moved.items():
            conn.execute("UPDATE record_shoes SET head = %s WHERE head = %s", (new, old))
            conn.execute("UPDATE record_tables SET shoe_head = %s WHERE shoe_head = %s", (new, old))
        conn.execute(
            "UPDATE record_shoes SET outcomes = overlay(outcomes placing 'P' from %s for 1)"
            " WHERE table_id = %s AND shoe = %s",
            (round_, table, shoe),
        )
    assert moved


def verify(export, *extra) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "roads.verify", str(export), *extra], capture_output=True, text=True
    )


def test_a_consistent_rewrite_verifies_alone_and_fails_against_the_signed_checkpoint(
    roles, backend, redis_client, tmp_path
):
    private, public = tmp_path / "cp.key", tmp_path / "cp.pub"
    keygen(str(private), str(public))
    store = JsonLinesStore(tmp_path / "checkpoints")
    app = make_app(
        backend.url,
        cluster=backend.cluster,
        database_url=roles["runtime"],
        operator_keys=("operator-key",),
        checkpoint_dir=str(store.path.parent),
    )
    try:
        client, recorder = app.test_client(), app.extensions["roads"].record.recorder
        recorder.checkpoints = Checkpointer(load_private_key(private), store, every_seconds=0)
        for shoe, results in (("s1", "BBPBT"), ("s2", "PBB")):
            for number, result in enumerate(results, 1):
                url = f"/v1/tables/audited/shoes/{shoe}/rounds"
                answer = client.post(url, json={"round": number, "result": result}, headers=AUTH)
                assert answer.status_code == 201
            record_all(recorder)
        cp = tmp_path / "cp.jsonl"
        served = client.get("/v1/checkpoints/latest", headers=OPERATOR)
        assert served.status_code == 200 and served.json == store.latest()
        cp.write_text(store.path.read_text())
        checked = ("--checkpoint", str(cp), "--public-key", str(public))

        def export(shoe):
            answer = client.get(f"/v1/tables/audited/shoes/{shoe}/export", headers=OPERATOR)
            assert answer.status_code == 200, answer.json
            path = tmp_path / f"{shoe}.ndjson"
            path.write_bytes(answer.data)
            return path

        before = verify(export("s1"), *checked)
        assert before.returncode == 0, before.stderr  # the honest record reaches its heads

        rewrite_from(roles["admin"], "audited", "s1", 2)

        alone = verify(export("s1"))
        assert alone.returncode == 0, alone.stderr  # the chain alone cannot tell
        signed = verify(export("s1"), *checked)
        assert signed.returncode == 1
        assert "shoe s1 of table audited" in signed.stderr, signed.stderr
        assert "rewritten" in signed.stderr
        later = verify(export("s2"), *checked)  # the later shoe, re-linked, is caught too
        assert later.returncode == 1 and "shoe s2 of table audited" in later.stderr

        # The administrator who can also write the store deletes the checkpoints covering s1:
        # not "not covered yet" (3), but refused, naming the missing seq.
        lines = store.path.read_text().splitlines()
        kept = [line for line in lines if '"shoe":"s1"' not in line]
        assert 0 < len(kept) < len(lines)
        cp.write_text("".join(line + "\n" for line in kept))
        cut = verify(export("s1"), *checked)
        assert cut.returncode == 1 and "missing" in cut.stderr, cut.stderr
        # Cut from the end instead: only the latest served (or a copy kept elsewhere) shows it.
        cp.write_text("".join(line + "\n" for line in lines[:-1]))
        latest = tmp_path / "latest.json"
        latest.write_text(json.dumps(served.json))
        ended = verify(export("s2"), *checked, "--latest", str(latest))
        assert ended.returncode == 1 and "removed from its end" in ended.stderr, ended.stderr
    finally:
        app.extensions["roads"].record.database.close()

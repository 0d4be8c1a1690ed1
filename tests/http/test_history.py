"""A table's past from the record: its shoes newest first, a shoe's summary and chain head, its
export (NDJSON and CSV) that ``python -m roads.verify`` checks, and a tampered row caught."""

from __future__ import annotations

import base64
import json
import subprocess
import sys

import pytest

from api.record.shoelists import ShoeListings
from tests.api_helpers import feed
from tests.conftest import AUTH, make_app
from tests.record.conftest import record_all


@pytest.fixture
def record_app(record_apps):
    """The record's reads are public here (their keys: tests/system/test_security_record_reads)."""
    return record_apps(public_record=True)


def test_a_tables_shoes_newest_first_a_page_at_a_time(record_app):
    client = record_app.test_client()
    for shoe, results in (("s1", "BBPT"), ("s2", "PPP"), ("s3", "BTB"), ("s4", "P")):
        feed(client, results, table="past", shoe=shoe)
    client.post("/v1/tables/past/shoes/s1/rounds/2/void", headers=AUTH)
    record_all(record_app.extensions["roads"].record.recorder)

    first = client.get("/v1/tables/past/shoes?limit=3")
    assert first.status_code == 200, first.json
    assert [s["shoe"] for s in first.json["shoes"]] == ["s4", "s3", "s2"]
    rest = client.get(f"/v1/tables/past/shoes?limit=3&cursor={first.json['next_cursor']}").json
    assert [s["shoe"] for s in rest["shoes"]] == ["s1"] and rest["next_cursor"] is None
    s1 = rest["shoes"][0]
    assert (s1["rounds"], s1["rounds_played"], s1["banker"], s1["player"], s1["tie"]) == (
        4,
        3,
        1,
        1,
        1,
    )
    assert s1["closed_at"] is not None and first.json["shoes"][0]["closed_at"] is None
    one = client.get("/v1/tables/past/shoes/s1").json
    assert one["head"] == s1["head"] and one["table"] == "past"


def test_bad_pages_and_unknown_names_are_clear_4xx(record_app):
    client = record_app.test_client()
    feed(client, "B", table="pages", shoe="s1")
    record_all(record_app.extensions["roads"].record.recorder)
    nul = base64.urlsafe_b64encode(json.dumps(["2026-01-01T00:00:00", "s\u0000"]).encode())
    bad_cursors = ("cursor=notours", f"cursor={nul.decode().rstrip('=')}")
    for query in (*bad_cursors, "limit=0", "limit=1000", "limit=x"):
        answer = client.get(f"/v1/tables/pages/shoes?{query}")
        assert answer.status_code == 400 and answer.json["message"], query
    assert client.get("/v1/tables/nobody/shoes").status_code == 404
    assert client.get("/v1/tables/pages/shoes/s9").status_code == 404
    assert client.get("/v1/tables/pages/shoes/s9/export").status_code == 404
    assert client.get("/v1/tables/pages/shoes/s1/export?format=xml").status_code == 400


def test_without_a_database_there_is_no_record_and_the_answer_says_so(backend):
    anonymous = make_app(backend.url, cluster=backend.cluster).test_client()
    assert anonymous.get("/v1/tables/t1/shoes").status_code == 401  # the key comes first
    client = make_app(backend.url, cluster=backend.cluster, public_record=True).test_client()
    answer = client.get("/v1/tables/t1/shoes")
    assert answer.status_code == 404 and "ROADS_DATABASE_URL" in answer.json["message"]


def verify(tmp_path, body: bytes, name: str = "export.ndjson") -> subprocess.CompletedProcess:
    path = tmp_path / name
    path.write_bytes(body)
    return subprocess.run(
        [sys.executable, "-m", "roads.verify", str(path)], capture_output=True, text=True
    )


def test_an_export_verifies_and_a_tampered_row_breaks_it_at_that_line(record_app, pg, tmp_path):
    client = record_app.test_client()
    feed(client, "BPBB", table="audit", shoe="s1")
    client.put("/v1/tables/audit/shoes/s1/rounds/2", json={"result": "T"}, headers=AUTH)
    feed(client, "PP", table="audit", shoe="s2")
    record_all(record_app.extensions["roads"].record.recorder)

    export = client.get("/v1/tables/audit/shoes/s1/export")
    assert export.status_code == 200 and export.mimetype == "application/x-ndjson"
    assert len(export.data.splitlines()) == 5
    done = verify(tmp_path, export.data)
    assert done.returncode == 0, done.stderr
    head = client.get("/v1/tables/audit/shoes/s1").json["head"]
    assert head in done.stdout
    csv = client.get("/v1/tables/audit/shoes/s1/export?format=csv")
    assert csv.mimetype == "text/csv"
    assert verify(tmp_path, csv.data, "export.csv").returncode == 0
    # The second shoe's first line links to the first shoe's head.
    s2 = client.get("/v1/tables/audit/shoes/s2/export").data.splitlines()
    assert f'"prev_hash":"{head}"'.encode() in s2[0]

    pg.execute(
        'UPDATE record_writes SET canonical = replace(canonical, \'"result":"P"\','
        " '\"result\":\"B\"') WHERE table_id = 'audit' AND shoe = 's1' AND number = 2"
    )
    tampered = verify(tmp_path, client.get("/v1/tables/audit/shoes/s1/export").data)
    assert tampered.returncode == 1 and "line 2" in tampered.stderr


def test_readiness_shows_the_records_lag(record_app):
    client = record_app.test_client()
    feed(client, "BP", table="lag", shoe="s1")
    recorder = record_app.extensions["roads"].record.recorder
    recorder.writelog.report(1)  # as a recorder that found a write from 1970 unrecorded
    assert client.get("/readyz").json["record"]["behind_seconds"] > 1e9
    record_all(recorder)
    assert client.get("/readyz").json == {"status": "ready", "record": {"behind_seconds": 0.0}}
    metrics = client.get("/metrics").data.decode()
    assert "roads_record_writes_total" in metrics and "roads_record_lag_seconds" in metrics


def test_a_shoes_row_rewritten_is_refused_never_served(record_app, pg):
    # record_shoes is not covered by the chain: its outcomes, head and writes must agree with it.
    client, services = record_app.test_client(), record_app.extensions["roads"]
    feed(client, "BBPT", table="rows", shoe="s1")
    feed(client, "P", table="rows", shoe="s2")
    record_all(services.record.recorder)
    before = client.get("/v1/tables/rows/shoes/s1").json
    assert (before["banker"], before["player"], before["tie"], before["writes"]) == (2, 1, 1, 4)
    where = "WHERE table_id = 'rows' AND shoe = 's1'"
    stored = pg.execute(f"SELECT outcomes, head, writes FROM record_shoes {where}").fetchone()
    for change in ("outcomes = 'PPPT'", "head = repeat('ab', 32)", "writes = writes - 1"):
        pg.execute(f"UPDATE record_shoes SET {change} {where}")
        for path in ("/v1/tables/rows/shoes/s1", "/v1/tables/rows/shoes"):
            refused = client.get(path)
            assert refused.status_code == 409, (change, path, refused.json)
            assert "shoe s1 of table rows" in refused.json["message"]
            assert "its row" in refused.json["message"]
        newest = client.get("/v1/tables/rows/shoes?limit=1")  # a page without it is served
        assert newest.status_code == 200 and newest.json["shoes"][0]["shoe"] == "s2"
        pg.execute(f"UPDATE record_shoes SET outcomes = %s, head = %s, writes = %s {where}", stored)
    assert client.get("/v1/tables/rows/shoes/s1").json == before
    alerts = [a.as_dict() for a in services.integrity.after("-")]
    tampered = [a for a in alerts if a["type"] == "record_tampered"]
    assert len(tampered) == 1 and (tampered[0]["shoe"], tampered[0]["write"]) == ("s1", None)


def test_a_listing_read_before_a_row_is_rewritten_serves_its_seconds_then_is_refused(
    record_app, pg
):
    # api.record.shoelists: a first page serves for 5 s; the shoe's own summary is never kept.
    client, services = record_app.test_client(), record_app.extensions["roads"]
    now = [0.0]
    object.__setattr__(services.record, "listings", ShoeListings(clock=lambda: now[0]))
    feed(client, "BBPT", table="kept", shoe="s1")
    feed(client, "P", table="kept", shoe="s2")
    record_all(services.record.recorder)
    listed = client.get("/v1/tables/kept/shoes")
    assert listed.status_code == 200
    pg.execute("UPDATE record_shoes SET outcomes = 'PPPT' WHERE table_id = 'kept' AND shoe = 's1'")
    assert client.get("/v1/tables/kept/shoes/s1").status_code == 409  # at once
    assert client.get("/v1/tables/kept/shoes").json == listed.json  # as read 0 s ago
    now[0] = 5.1
    assert client.get("/v1/tables/kept/shoes").status_code == 409


def test_a_summary_is_the_chains_the_export_is_served_as_stored(record_app, pg, tmp_path):
    client = record_app.test_client()
    feed(client, "BPB", table="plain", shoe="s1")
    record_all(record_app.extensions["roads"].record.recorder)
    pg.execute("UPDATE record_writes SET canonical = '[1]' WHERE table_id = 'plain' AND number = 2")
    refused = client.get("/v1/tables/plain/shoes/s1")
    assert refused.status_code == 409 and "write 2" in refused.json["message"]
    for form, at in (("ndjson", "line 2:"), ("csv", "line 3:")):  # the CSV's header: line 1
        export = client.get(f"/v1/tables/plain/shoes/s1/export?format={form}")
        assert export.status_code == 200, export.json
        checked = verify(tmp_path, export.data, f"export.{form}")
        assert checked.returncode == 1 and at in checked.stderr, checked.stderr

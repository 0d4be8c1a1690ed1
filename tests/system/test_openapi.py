"""The OpenAPI document, and schemathesis with every check against the service under gunicorn."""

import subprocess
import sys
from pathlib import Path

from tests.conftest import KEY
from tests.gunicorn_server import service as served


def test_openapi_document(client):
    document = client.get("/openapi.json").json
    assert document["openapi"].startswith("3.1")
    paths = document["paths"]
    for path in (
        "/v1/tables/{table}/shoes/{shoe}/rounds",
        "/v1/tables/{table}/shoes/{shoe}/rounds/{number}",
        "/v1/tables/{table}/shoes/{shoe}/rounds/{number}/void",
        "/v1/tables/{table}",
        "/v1/tables/{table}/shoes/{shoe}/roads",
        "/v1/tables/{table}/roads",
        "/v1/tables/{table}/shoes/{shoe}/stats",
        "/v1/tables/{table}/probe",
        "/livez",
        "/readyz",
        "/v1/patterns",
        "/v1/tables",
        "/v1/good-roads",
        "/v1/events",
    ):
        assert path in paths, path
    assert document["components"]["securitySchemes"]["ApiKey"]["name"] == "X-API-Key"


SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
CONFIG = Path(__file__).with_name("schemathesis.toml")


def test_schemathesis_with_every_check_finds_nothing(redis_server, tmp_path):
    """schemathesis's CLI against the service under gunicorn, every check (ST2xx: the document
    states what the service enforces; ST3xx: a retired table is gone from its paths), every
    phase (examples, coverage, fuzzing, stateful). tests/schemathesis.toml says which statuses
    two checks also accept, and why. The event stream never ends: it has its own tests."""
    with served(redis_server.url, KEY) as base:
        run = subprocess.run(
            [
                str(SCHEMATHESIS),
                "--config-file",
                str(CONFIG),
                "run",
                f"{base}/openapi.json",
                "--checks",
                "all",
                "--header",
                f"X-API-Key: {KEY}",
                "--exclude-path",
                "/v1/events",
                "--max-examples",
                "40",
                # Its example database would be in tmp_path, never read again: without one, each
                # operation still gets its 40 examples, and Hypothesis spends none of the run (a
                # fifth of it) shrinking a Pareto front of examples only to store them there.
                "--generation-database",
                "none",
                "--workers",
                "1",
                "--continue-on-failure",
                "--no-color",
            ],
            cwd=tmp_path,  # its own cache directory goes there
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]

"""The OpenAPI document, and a schemathesis run against it: no 5xx, no schema violations."""

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from .api_helpers import feed
from .conftest import AUTH


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


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


# The WSGI client does not decode compressed answers; compression has its own tests.
PLAIN = {**AUTH, "Accept-Encoding": "identity"}


def test_api_conforms_to_its_schema(app):
    # Drive schemathesis directly (its pytest plugin does not run under pytest 9): every
    # operation, generated requests with the ingest key, the checks above on every answer.
    feed(app.test_client(), "BPPBBBPTBBP", table="t1", shoe="s1")
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 18
    # The event stream never ends; it has its own tests (test_api_events.py).
    operations = [op for op in operations if op.path != "/v1/events"]

    for operation in operations:

        @given(case=operation.as_strategy(), number=st.integers(1, 12))
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
        def check(case, number):
            case.call_and_validate(headers=PLAIN, checks=CHECKS)
            # Again on the table and shoe that exist, so answers other than 404 are checked.
            known = {"table": "t1", "shoe": "s1", "number": number}
            if case.path_parameters:
                case.path_parameters = {k: known.get(k, v) for k, v in case.path_parameters.items()}
                case.call_and_validate(headers=PLAIN, checks=CHECKS)

        check()

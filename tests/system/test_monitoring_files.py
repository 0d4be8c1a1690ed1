"""What operators wire into their monitoring (``deploy/``): the Prometheus alerting rules and the
Grafana dashboard name only metrics the service exports at ``/metrics`` (each under the name
Prometheus stores it by: a counter's ``_total``, a histogram's ``_bucket``/``_sum``/``_count``),
and only labels those metrics carry; the dashboard shows every metric the service exports and
reads its data source from ``${DS_PROMETHEUS}``; and, with Debian's ``promtool`` (package
``prometheus``), the rules pass its check and fire, on made-up series, when they should and not
when they should not."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from tests.api_helpers import post_round
from tests.conftest import make_app

ROOT = Path(__file__).resolve().parents[2]
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yaml"
DASHBOARD = ROOT / "deploy" / "grafana" / "baccarat-roads.json"
DATA_SOURCE = {"type": "prometheus", "uid": "${DS_PROMETHEUS}"}

# The names a sample of each type is stored under, from its family's name.
SUFFIXES = {
    "counter": ("_total",),
    "histogram": ("_bucket", "_sum", "_count"),
    "gauge": ("",),
    "summary": ("", "_sum", "_count"),
}
# Labels Prometheus adds itself (the target's) or a histogram's buckets carry.
ADDED_LABELS = frozenset({"job", "instance", "le"})
KEYWORDS = frozenset(
    {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring", "inf", "nan"}
)

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')
_MATCHERS = re.compile(r"\{[^{}]*\}")
_RANGES = re.compile(r"\[[^\]]*\]")
_GROUPING = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)")
_NAME = re.compile(r"(?<![\w.$])[A-Za-z_:][A-Za-z0-9_:]*(?![\w(])(?!\s*\()")
_SELECTOR = re.compile(r"([A-Za-z_:][A-Za-z0-9_:]*)\{([^{}]*)\}")
_MATCHER = re.compile(r'([A-Za-z_]\w*)\s*(?:=~|!~|!=|=)\s*"')
_LABEL_VALUES = re.compile(r"label_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)")


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression selects: every name left once strings, label
    matchers, ranges and grouping clauses are taken out, that is neither called (a function or
    an aggregation) nor a keyword."""
    bare = _STRINGS.sub('""', expr)
    for pattern in (_MATCHERS, _RANGES, _GROUPING):
        bare = pattern.sub(" ", bare)
    return {name for name in _NAME.findall(bare) if name.lower() not in KEYWORDS}


def matched_labels(expr: str) -> set[tuple[str, str]]:
    """(metric, label) for every label matcher of a selector that names its metric."""
    return {
        (metric, label)
        for metric, matchers in _SELECTOR.findall(expr)
        for label in _MATCHER.findall(matchers)
    }


def alert_rules() -> list[dict]:
    groups = yaml.safe_load(ALERTS.read_text())["groups"]
    return [rule for group in groups for rule in group["rules"]]


def dashboard() -> dict:
    return json.loads(DASHBOARD.read_text())


def dashboard_panels() -> list[dict]:
    return [panel for panel in dashboard()["panels"] if panel["type"] != "row"]


def dashboard_queries() -> list[str]:
    """Every panel's PromQL, and each template variable's metric (``label_values(metric, l)``)."""
    targets = [target["expr"] for panel in dashboard_panels() for target in panel["targets"]]
    variables = [
        f"{found}{{}}"
        for variable in dashboard()["templating"]["list"]
        if variable["type"] == "query"
        for found in _LABEL_VALUES.findall(variable["definition"])
    ]
    return targets + variables


def alert_queries() -> list[str]:
    return [rule["expr"] for rule in alert_rules()]


def test_the_extractor_finds_the_metrics_and_nothing_else():
    expr = (
        'histogram_quantile(0.99, sum by (job, le) (rate(roads_x_bucket{a="b c", d=~"$e"}'
        "[$__rate_interval]))) > 1e3 and on (job) max without (le) (up offset 5m) or vector(1)"
    )
    assert metric_names(expr) == {"roads_x_bucket", "up"}
    assert matched_labels(expr) == {("roads_x_bucket", "a"), ("roads_x_bucket", "d")}


@pytest.fixture
def exported(backend, redis_client) -> dict[str, dict]:
    """The service's metrics after a write, two reads, a card report refused and a feed past
    its cap (so the labelled series exist): exposed name -> its family's type and labels."""
    app = make_app(backend.url, cluster=backend.cluster, feed_clients=1)
    client = app.test_client()
    assert post_round(client, 1, "watch", result="B").status_code == 201
    for _ in range(2):
        assert client.get("/v1/tables/watch/roads").status_code == 200
    # The Player stands on 6 and the Banker on 7: nobody may draw, yet the Player did.
    refused = post_round(client, 2, "watch", player=["3S", "3H", "2D"], banker=["4C", "3D"])
    assert refused.status_code == 422
    stream = client.get("/v1/events?frames=0", buffered=False)
    assert stream.status_code == 200
    assert client.get("/v1/events").status_code == 503  # feed_full
    scrape = client.get("/metrics").get_data(as_text=True)
    stream.close()
    app.extensions["roads"].versions.stop()
    names = {}
    for family in text_string_to_metric_families(scrape):
        labels = {label for sample in family.samples for label in sample.labels}
        for suffix in SUFFIXES.get(family.type, ("",)):
            names[family.name + suffix] = {"labels": labels, "sampled": bool(family.samples)}
    return names


@pytest.mark.parametrize("source", ["alerts", "dashboard"])
def test_every_metric_named_is_exported_under_that_name(exported, source):
    queries = alert_queries() if source == "alerts" else dashboard_queries()
    named = set().union(*map(metric_names, queries))
    assert named, "the extractor found the queries' metrics"
    missing = sorted(named - set(exported))
    assert not missing, f"{source} name metrics /metrics does not export: {missing}"
    assert all(name.startswith("roads_") for name in named), (
        "only the service's own metrics: under gunicorn /metrics holds no process_* or python_*"
    )


@pytest.mark.parametrize("source", ["alerts", "dashboard"])
def test_every_label_matched_is_one_the_metric_carries(exported, source):
    queries = alert_queries() if source == "alerts" else dashboard_queries()
    matched = set().union(*map(matched_labels, queries))
    wrong = sorted(
        (metric, label)
        for metric, label in matched
        if label not in ADDED_LABELS
        and exported[metric]["sampled"]  # a family not yet counted shows no labels
        and label not in exported[metric]["labels"]
    )
    assert not wrong, f"{source} match labels their metrics do not carry: {wrong}"


def test_the_dashboard_shows_every_metric_of_the_service(exported):
    shown = set().union(*map(metric_names, dashboard_queries()))
    families = {name for name in exported if name.startswith("roads_")}
    # A histogram is shown by its buckets; its _sum and _count need no panel of their own.
    unshown = sorted(
        name
        for name in families - shown
        if not (name.endswith(("_sum", "_count")) and name.rsplit("_", 1)[0] + "_bucket" in shown)
    )
    assert not unshown, f"no panel shows {unshown}"


def test_the_alerts_watch_what_operators_were_promised():
    named = set().union(*map(metric_names, alert_queries()))
    promised = {
        "roads_record_behind_seconds",  # record lag
        "roads_access_log_dropped_total",  # access-log drops
        "roads_unavailable_total",  # 503s by cause
        "roads_feed_clients",  # feed clients near the cap
        "roads_integrity_alerts_total",  # integrity alerts
        "roads_http_requests_total",  # writes failing
    }
    assert promised <= named, f"no alert on {sorted(promised - named)}"
    for rule in alert_rules():
        assert rule["labels"]["severity"] in ("warning", "critical"), rule["alert"]
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]
        assert "for" in rule, rule["alert"]


def test_the_dashboard_reads_its_data_source_from_a_variable():
    board = dashboard()
    variables = {variable["name"]: variable for variable in board["templating"]["list"]}
    assert variables["DS_PROMETHEUS"]["type"] == "datasource"
    assert variables["DS_PROMETHEUS"]["query"] == "prometheus"
    for variable in variables.values():
        if variable["type"] == "query":
            assert variable["datasource"] == DATA_SOURCE, variable["name"]
    panels = dashboard_panels()
    for panel in panels:
        assert panel["datasource"] == DATA_SOURCE, panel["title"]
        assert panel["targets"] and all(t["datasource"] == DATA_SOURCE for t in panel["targets"])
    ids = [panel["id"] for panel in board["panels"]]
    assert len(ids) == len(set(ids)), "panel ids are unique"
    cells = [
        (panel["gridPos"]["x"] + dx, panel["gridPos"]["y"] + dy)
        for panel in board["panels"]
        for dx in range(panel["gridPos"]["w"])
        for dy in range(panel["gridPos"]["h"])
    ]
    assert len(cells) == len(set(cells)), "no two panels overlap"
    assert all(panel["gridPos"]["x"] + panel["gridPos"]["w"] <= 24 for panel in board["panels"])


def promtool() -> str:
    """Debian's promtool (scripts/test installs package prometheus); missing, the test fails."""
    found = shutil.which("promtool")
    assert found, "promtool is missing: apt-get install prometheus (scripts/test does)"
    return found


def test_promtool_checks_the_rules():
    checked = subprocess.run(
        [promtool(), "check", "rules", str(ALERTS)], capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"SUCCESS: {len(alert_rules())} rules found" in checked.stdout


TARGET = 'job="roads", instance="i1:8000"'
ROUNDS = 'route="/v1/tables/{table}/shoes/{shoe}/rounds", method="POST"'
SERIES = {  # promtool's expanding notation: "a+bxn" is a, a+b, ..., n steps of a minute
    f"roads_access_log_dropped_total{{{TARGET}}}": "0 0 0 7x40",
    f"roads_record_behind_seconds{{{TARGET}}}": "0 0 90x40",
    f"roads_feed_clients{{{TARGET}}}": "100 5000x40",
    f'roads_unavailable_total{{{TARGET}, cause="redis_down"}}': "0 0+60x40",
    f'roads_http_requests_total{{{TARGET}, {ROUNDS}, status="201"}}': "0+600x40",
    f'roads_http_requests_total{{{TARGET}, {ROUNDS}, status="503"}}': "0+60x40",
    f'roads_integrity_alerts_total{{{TARGET}, kind="repeated_shoe"}}': "0x8 1x40",
    f'roads_integrity_alerts_total{{{TARGET}, kind="drift"}}': "0x40",
    f'roads_rounds_total{{{TARGET}, outcome="stored"}}': "0+600x40",
    f"roads_record_writes_total{{{TARGET}}}": "0+600x10 6000x30",
    # A deployment without a record: rounds stored, nothing ever recorded; never "stalled".
    'roads_rounds_total{job="bare", instance="i2:8000", outcome="stored"}': "0+600x40",
    'roads_record_writes_total{job="bare", instance="i2:8000"}': "0x40",
}


def roads(severity: str, **labels: str) -> dict[str, str]:
    """The labels of an alert of job ``roads``: its aggregation's, and its severity."""
    return {"job": "roads", **labels, "severity": severity}


ONE = {"instance": "i1:8000"}
EXPECTED = [  # (minute, alert, the labels of each alert firing then)
    (2, "RoadsAccessLogDropping", []),
    (5, "RoadsAccessLogDropping", [roads("warning", **ONE)]),
    (10, "RoadsRecordBehind", [roads("warning")]),
    (10, "RoadsRecordFarBehind", []),
    (10, "RoadsFeedNearCap", [roads("warning", **ONE)]),
    (10, "RoadsStoreUnavailable", [roads("critical", cause="redis_down")]),
    (10, "RoadsIngestFailing", [roads("critical")]),
    (10, "RoadsIntegrityAlertCritical", [roads("critical", kind="repeated_shoe")]),
    (10, "RoadsIntegrityAlert", []),
    (20, "RoadsRecorderStalled", []),
    (35, "RoadsRecorderStalled", [roads("critical")]),
]


def test_the_rules_fire_when_they_should_and_only_then(tmp_path):
    # promtool compares annotations too; they are templates of the alert's value, checked by
    # `promtool check rules` above, so the rules are tried here without them.
    rules = copy.deepcopy(yaml.safe_load(ALERTS.read_text()))
    for group in rules["groups"]:
        for rule in group["rules"]:
            rule.pop("annotations")
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(rules))
    cases = [
        {
            "eval_time": f"{minute}m",
            "alertname": alert,
            "exp_alerts": [{"exp_labels": labels} for labels in firing],
        }
        for minute, alert, firing in EXPECTED
    ]
    suite = {
        "rule_files": ["rules.yaml"],
        "evaluation_interval": "1m",
        "tests": [
            {
                "interval": "1m",
                "input_series": [{"series": s, "values": v} for s, v in SERIES.items()],
                "alert_rule_test": cases,
            }
        ],
    }
    (tmp_path / "tests.yaml").write_text(yaml.safe_dump(suite))
    tested = subprocess.run(
        [promtool(), "test", "rules", "tests.yaml"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr

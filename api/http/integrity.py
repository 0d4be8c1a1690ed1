"""The integrity watch for operators: a table's shoes with their checks and findings, a day's
drift report across tables and across dealers (with each dealer's voids, corrections and pace
from the record), and the alert stream (SSE). Every answer needs an operator key
(``ROADS_OPERATOR_KEYS``): the alerts are the operator's, never on the players' feed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Response, request, stream_with_context
from flask_smorest import Blueprint, abort

from api.admission import Busy
from api.codecs.feedevents import is_event_id
from api.codecs.records import round_of
from api.codecs.shoefacts import facts_of, with_facts
from api.http.answers import services
from api.http.auth import SECURITY, require_operator_key
from api.http.integrityschemas import (
    DealersDaySchema,
    DriftDaySchema,
    DriftQuerySchema,
    TableIntegritySchema,
)
from api.record.database import RecordUnavailable
from api.storage.coldshoes import KIND as TAMPERED
from api.storage.coldshoes import RecordTampered
from api.storage.failures import NotFound
from api.storage.integrity.watchstore import utc_day
from roads import Scorecard
from roads.integrity.drift import ALERT, FALSE_DISCOVERY, MIN_ROUNDS
from roads.integrity.shoewatch import WatchSettings, shoe_report

blp = Blueprint("integrity", __name__, description="The integrity watch, for operators.")

SHOES = 10  # the newest shoes a table's answer checks
POLL_SECONDS = 1.0  # how often a follower of the alert stream looks for new ones


def _watch_settings() -> WatchSettings:
    settings = services().writer.watch
    if settings is None:
        abort(404, message="the integrity watch is off (ROADS_INTEGRITY=0)")
    return settings


@blp.route("/v1/integrity/tables/<id:table>")
@blp.doc(security=SECURITY)
@blp.response(200, TableIntegritySchema)
@require_operator_key
def table_integrity(table):
    """A table's newest shoes, each with its checks (the shuffle test over every card, the cards
    used against the cut card, the side bets' policy) and its findings; the table's drift today.
    """
    settings = _watch_settings()
    svc = services()
    info = svc.tables.get(table)
    if info is None:
        abort(404, message=f"no table {table}")
    found = [alert.as_dict() for alert in svc.integrity.findings(table)]
    reported = svc.lobby.shoe_facts(table)
    offered = svc.tables.paytables.resolve(info["variant"]).offered
    shoes = []
    for shoe in reversed(info["shoes"][-SHOES:]):
        try:
            _, records = svc.rounds.shoe_rounds(table, shoe)
        except NotFound:
            continue
        except RecordTampered as broken:  # listed as such: the table's other shoes still are
            shoes.append(_tampered(shoe, shoe == info.get("current_shoe"), broken, found))
            continue
        scorecard = Scorecard.from_rounds([round_of(record) for record in records])
        alerts = [alert for alert in found if alert.get("shoe") == shoe]
        shoes.append(
            {
                "shoe": shoe,
                "current": shoe == info.get("current_shoe"),
                "checks": with_facts(
                    shoe_report(scorecard, settings, offered),
                    facts_of(reported, shoe),
                ),
                "findings": alerts,
            }
        )
    day = utc_day()
    svc.drift.fold()
    drift = svc.drift.evaluate(day).get(table)
    return {
        "table": table,
        "policy": _policy(settings),
        "shoes": shoes,
        "drift": None if drift is None else {"day": day, **drift},
        "findings": found,
    }


@blp.route("/v1/integrity/drift")
@blp.doc(security=SECURITY)
@blp.arguments(DriftQuerySchema, location="query")
@blp.response(200, DriftDaySchema)
@require_operator_key
def drift_day(query):
    """A day's drift report across every table (UTC day; today by default): over the rounds
    dealt that day (their ``dealt_at``), each table's tests against the exact chances, its
    p-value and its Benjamini-Hochberg adjusted p-value."""
    day = _folded_day(query)
    return {**_bounds(day), "tables": services().drift.evaluate(day)}


def _folded_day(query: dict[str, Any]) -> str:
    """The day a drift report is of (today by default), once the rounds noted are added up."""
    _watch_settings()
    services().drift.fold()
    return query.get("day") or utc_day()


def _bounds(day: str) -> dict[str, Any]:
    """What a day's drift report is judged by."""
    return {
        "day": day,
        "false_discovery_rate": FALSE_DISCOVERY,
        "alert_below": ALERT,
        "min_rounds": MIN_ROUNDS,
    }


@blp.route("/v1/integrity/dealers")
@blp.doc(security=SECURITY)
@blp.arguments(DriftQuerySchema, location="query")
@blp.response(200, DealersDaySchema)
@require_operator_key
def dealers_day(query):
    """A day's report per dealer (UTC day; today by default): the drift watch's tests of the
    rounds each dealt against their exact chances, Benjamini-Hochberg across the day's dealers;
    and, with the record on, each dealer's rounds dealt, voids and corrections and the mean time
    a round took."""
    day = _folded_day(query)
    drift = services().drift.evaluate_dealers(day)
    conduct = _conduct(day)
    return {
        **_bounds(day),
        "dealers": {
            dealer: {**drift.get(dealer, {}), **conduct.get(dealer, {})}
            for dealer in sorted(drift.keys() | conduct.keys())
        },
    }


def _conduct(day: str) -> dict[str, dict[str, Any]]:
    """Each dealer's rounds of the day as the record holds them (none without a record)."""
    record = services().record
    if record is None or record.rounds is None:
        return {}
    start = datetime.fromisoformat(day).replace(tzinfo=UTC)
    try:
        found = record.rounds.conduct(start, start + timedelta(days=1))
    except RecordUnavailable:  # the drift watch's part is Redis's: served without the record's
        return {}
    return {dealer: conduct.as_dict() for dealer, conduct in found.items()}


@blp.route("/v1/integrity/events")
@blp.doc(
    security=SECURITY,
    responses={
        "200": {
            "description": "A ``text/event-stream`` of alerts: ``unshuffled``, "
            "``repeated_shoe``, ``impossible_cards``, ``drift``, ``dealer_drift``, "
            "``side_bet_exposed``; each "
            "with its stream id (``Last-Event-ID`` resumes after it).",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        }
    },
)
@require_operator_key
def integrity_events():
    """The alerts as they are raised (from the newest on, or after ``Last-Event-ID``)."""
    _watch_settings()
    svc = services()
    last = request.headers.get("Last-Event-ID") or request.args.get("last_event_id") or ""
    if last and not is_event_id(last):
        abort(400, message="Last-Event-ID must be an alert's id, like 1700000000000-0")
    entered = svc.integrity_streams.entered()
    try:
        entered.__enter__()
    except Busy as busy:
        abort(503, message=str(busy))
    start = last or svc.integrity.newest()
    heartbeat = svc.settings.sse_heartbeat

    def stream() -> Iterator[str]:
        cursor, quiet = start, 0.0
        yield "retry: 2000\n\n"
        while True:
            alerts = svc.integrity.after(cursor)
            for alert in alerts:
                yield f"id: {alert.id}\nevent: {alert.kind}\ndata: {alert.data}\n\n"
                cursor = alert.id
            if alerts:
                quiet = 0.0
                continue
            quiet += POLL_SECONDS
            if quiet >= heartbeat:
                quiet = 0.0
                yield ": heartbeat\n\n"
            time.sleep(POLL_SECONDS)

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    # Released when the server closes the answer (also when its body was never read).
    response.call_on_close(lambda: entered.__exit__(None, None, None))
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _tampered(
    shoe: str, current: bool, broken: RecordTampered, found: list[dict[str, Any]]
) -> dict[str, Any]:
    """A shoe whose record fails its chain: no checks (it is not served), its findings with
    the ``record_tampered`` alert (as raised just now when ``found``, read before, lacks it)."""
    alerts = [alert for alert in found if alert.get("shoe") == shoe]
    if not any(alert.get("type") == TAMPERED for alert in alerts):
        alerts.insert(0, {"type": TAMPERED, **broken.alert()})
    return {"shoe": shoe, "current": current, "checks": {TAMPERED: str(broken)}, "findings": alerts}


def _policy(settings: WatchSettings) -> dict[str, Any]:
    return {
        "cut_card_behind_at_least": settings.behind,
        "shuffle_tested_each_write_for_rounds": settings.rounds,
        "side_bets_close_after": dict(settings.close.after) or settings.close.every,
    }

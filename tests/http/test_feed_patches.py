"""The road patches of a table's channel (/v1/events?tables=...) rebuild the served roads.

A client that applies each event's patch, in order, to the first document it saw holds the
document the service serves at every version, whatever the rounds, voids, corrections and new
shoes were.
"""

import itertools
import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roads.simulator import deal_shoe
from tests.api_helpers import post_round
from tests.conftest import AUTH, make_app
from tests.roadviewer import Viewer
from tests.sse_client import sse_events

pytestmark = pytest.mark.cluster

ROAD_CHANGES = {"round", "void", "correction"}
fresh_tables = (f"p{n}" for n in itertools.count())


@pytest.fixture
def app(backend, redis_client):
    return make_app(backend.url, cluster=backend.cluster, sse_heartbeat=0.1)


def read_events(stream, until, seconds=10.0):
    """Events (dicts with id, event, data) until ``until(events)`` holds."""
    events = []
    deadline = time.monotonic() + seconds
    for chunk in stream.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        events += sse_events(text)  # a chunk holds whole events, one or several
        if until(events) or time.monotonic() > deadline:
            break
    return events


class Dealer:
    """Writes to one table and keeps every document the service served after each write."""

    def __init__(self, client, table):
        self.client, self.table = client, table
        self.shoe, self.shoes, self.count = None, 0, 0
        self.served = {}
        self.changes = 0

    def new_shoe(self):
        self.shoes += 1
        self.shoe, self.count = f"s{self.shoes}", 0

    def deal(self, **round):
        answer = post_round(self.client, self.count + 1, self.table, self.shoe, **round)
        assert answer.status_code == 201, answer.json
        self.count += 1
        self.wrote()

    def rewrite(self, number, void, result):
        path = f"/v1/tables/{self.table}/shoes/{self.shoe}/rounds/{number}"
        if void:
            answer = self.client.post(f"{path}/void", headers=AUTH)
        else:
            answer = self.client.put(path, json={"result": result}, headers=AUTH)
        if answer.status_code == 200 and answer.json.get("changed", True):
            self.wrote()

    def wrote(self):
        document = self.client.get(f"/v1/tables/{self.table}/roads").json
        if (document["shoe"], document["version"]) not in self.served:
            self.changes += 1
        self.served[(document["shoe"], document["version"])] = document


def check(viewer, dealer, events):
    for event in events:
        viewer.apply(event)
    assert len(viewer.applied) == dealer.changes
    for shoe, version, document in viewer.applied:
        assert document == dealer.served[(shoe, version)]


def changes(count):
    return lambda events: sum(e["event"] in ROAD_CHANGES for e in events) >= count


action = st.one_of(
    st.tuples(st.just("deal"), st.sampled_from("BBBPPPT")),
    st.tuples(st.just("void"), st.integers(1, 30)),
    st.tuples(st.just("correct"), st.integers(1, 30), st.sampled_from("BPT")),
    st.tuples(st.just("shoe")),
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=st.lists(action, min_size=1, max_size=30))
def test_patches_rebuild_the_served_roads_through_any_writes(app, actions):
    client = app.test_client()
    dealer = Dealer(client, next(fresh_tables))
    stream = client.get(f"/v1/events?tables={dealer.table}", buffered=False)
    dealer.new_shoe()
    dealer.deal(result="B")
    for kind, *args in actions:
        if kind == "deal":
            dealer.deal(result=args[0])
        elif kind == "shoe":
            dealer.new_shoe()
            dealer.deal(result="P")
        elif args[0] <= dealer.count:
            dealer.rewrite(args[0], kind == "void", args[-1])
    events = read_events(stream, changes(dealer.changes))
    stream.close()
    check(Viewer(), dealer, events)


def test_patches_rebuild_two_simulated_shoes_and_only_the_watched_tables_come(client):
    stream = client.get("/v1/events?tables=w1,w3", buffered=False)
    watched = Dealer(client, "w1")
    other = Dealer(client, "w2")
    for dealer in (watched, other):
        dealer.new_shoe()
    for seed in (1, 2):
        for round in deal_shoe(seed):
            cards = {
                "player": [str(c) for c in round.player_cards],
                "banker": [str(c) for c in round.banker_cards],
            }
            watched.deal(**cards)
            if watched.count % 10 == 0:
                other.deal(result="B")
        watched.rewrite(5, True, None)
        watched.rewrite(6, False, "T")
        watched.new_shoe()
    events = read_events(stream, changes(watched.changes), seconds=30)
    stream.close()
    assert {event["data"]["table"] for event in events} == {"w1"}
    check(Viewer(), watched, events)
    rounds = [e for e in events if e["event"] == "round" and e["data"]["base_version"] is not None]
    sizes = sorted(len(json.dumps(e["data"]["patch"])) for e in rounds)
    full = len(json.dumps(watched.served[max(watched.served)]))
    assert sizes[len(sizes) // 2] * 5 < full  # a round's patch is a small part of the roads


def test_a_bad_tables_list_is_a_400_naming_it(client):
    for query in ("tables=", "tables=a,b%20c", "tables=" + ",".join(f"t{n}" for n in range(51))):
        answer = client.get(f"/v1/events?{query}")
        assert answer.status_code == 400, query
        assert "tables" in json.dumps(answer.json), answer.json

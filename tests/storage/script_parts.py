"""What the tests of the scripts' formats and rules share: the generated ids, the memberships of
Good Roads and edges, and a lobby update made of them."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from api.codecs.lobbyupdate import pairs
from roads.patterns import PATTERNS

ids = st.from_regex(r"[A-Za-z0-9_-]{1,64}", fullmatch=True)
names = st.from_regex(r"[A-Za-z0-9_.-]{1,64}", fullmatch=True) | st.just("")
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))

pattern_ids = [pattern.id for pattern in PATTERNS]
memberships = st.dictionaries(st.sampled_from(pattern_ids), st.integers(1, 90).map(str))


def update(matched: dict, edge: dict) -> dict:
    """A lobby update of shoe ``s1`` whose memberships are ``matched`` and ``edge``."""
    return {
        "shoe": "s1",
        "summary": "{}",
        "shape": "{}",
        "matched": pairs(matched.items()),
        "runs": "",
        "edges": pairs(edge.items()),
        "events": [],
    }

"""The live tests' fixtures: the layers below on the test's emptied Redis (they write what the
feeds carry), and the live parts over them (:mod:`tests.live.live_parts`), stopped after."""

from __future__ import annotations

import pytest

from tests.layer_parts import Parts, build_parts
from tests.live.live_parts import Live, build_live


@pytest.fixture
def parts(backend, redis_client) -> Parts:
    return build_parts(backend)


@pytest.fixture
def live(parts):
    made: Live = build_live(parts)
    yield made
    made.stop()

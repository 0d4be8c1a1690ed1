"""The JavaScript client's tests: one Node.js process a module runs the client's functions in."""

from __future__ import annotations

import pytest

from tests.clients.node import Node


@pytest.fixture(scope="module")
def node():
    process = Node()
    yield process
    process.stop()

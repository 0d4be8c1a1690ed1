"""The fuzz campaign (``benchmarks/fuzz.py``) still reaches every parser it names: it is run by
hand, with atheris, so a schema moved to another module once broke its start unseen (and it then
reported no crash). Here its parsers are built, and each is fed a few inputs, without atheris."""

import contextlib
import importlib.util
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz.py"


class Plain:
    """The few calls of atheris' ``FuzzedDataProvider`` the parsers make, answering ``text``
    (and its bytes) for every string and ``number`` for every integer in range (atheris'
    method names)."""

    def __init__(self, text: str, number: int) -> None:
        self.text, self.number = text, number

    def ConsumeBytes(self, count: int) -> bytes:
        return self.text.encode()[:count]

    def ConsumeIntInRange(self, low: int, high: int) -> int:
        return min(max(self.number, low), high)

    def ConsumeUnicode(self, count: int) -> str:
        return self.text[:count]

    ConsumeUnicodeNoSurrogates = ConsumeUnicode

    def ConsumeBool(self) -> bool:
        return bool(self.number % 2)


@pytest.fixture(scope="module")
def built() -> list:
    """The campaign's parsers, as its fuzzer process builds them."""
    spec = importlib.util.spec_from_file_location("fuzz_campaign", FUZZ)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.parsers()


@pytest.mark.parametrize(
    "text",
    ["", "{}", '{"name": "x", "status": "open", "result": "B"}', "KD", "B", "[", "\x00\u202e"],
)
@pytest.mark.parametrize("number", [0, 1, 3])
def test_every_parser_builds_and_refuses_only_as_it_may(built, text, number):
    assert len(built) == 7
    for allowed, parse in built:
        with contextlib.suppress(*allowed):  # a parser's own refusal: the service's 4xx
            parse(Plain(text, number))

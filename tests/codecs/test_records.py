"""A round's stored record (api.codecs.records) reads back as the round it was made from."""

from hypothesis import given

from api.codecs.records import decode, differences, encode, record_of, round_of
from tests.strategies import dealt_shoes


@given(dealt_shoes())
def test_a_record_reads_back_as_its_round(rounds):
    for number, round in enumerate(rounds, start=1):
        record = decode(encode(record_of(number, round, number + 7)))
        assert record["round"] == number and record["version"] == number + 7
        assert round_of(record) == round
        assert differences(record, round) == []

"""Shortcuts for the API tests."""

from __future__ import annotations

from .conftest import AUTH


def post_round(client, number, table="t1", shoe="s1", headers=AUTH, **body):
    return client.post(
        f"/v1/tables/{table}/shoes/{shoe}/rounds", json={"round": number, **body}, headers=headers
    )


def post_cards(client, number, round, table="t1", shoe="s1"):
    """Post ``round`` (a roads.Round) with its cards as round ``number``; the answer must be 201."""
    body = {"player": [str(c) for c in round.player_cards]}
    body["banker"] = [str(c) for c in round.banker_cards]
    answer = post_round(client, number, table, shoe, **body)
    assert answer.status_code == 201, answer.json
    return answer


def feed(client, results, table="t1", shoe="s1"):
    """Post bare results ``"BPT..."`` as rounds 1..n; every answer must be 201."""
    for number, result in enumerate(results, start=1):
        answer = post_round(client, number, table, shoe, result=result)
        assert answer.status_code == 201, answer.json


def roads(client, table="t1", shoe="s1", query=""):
    answer = client.get(f"/v1/tables/{table}/shoes/{shoe}/roads{query}")
    assert answer.status_code == 200, answer.json
    return answer.json


def keys(redis_client, pattern: str) -> list[bytes]:
    """Every key matching ``pattern``, on a single server or on every master of a cluster."""
    from redis.cluster import RedisCluster

    if isinstance(redis_client, RedisCluster):
        return redis_client.keys(pattern, target_nodes=RedisCluster.PRIMARIES)
    return redis_client.keys(pattern)


def dumped(redis_client) -> dict[bytes, bytes]:
    """Every key and its value (DUMP), on a single server or a cluster: what a refused request
    must leave as it was."""
    return {key: redis_client.dump(key) for key in keys(redis_client, "*")}


def delete(redis_client, names) -> None:
    """Delete keys one by one (on a cluster they may live in different slots)."""
    for name in names:
        redis_client.delete(name)

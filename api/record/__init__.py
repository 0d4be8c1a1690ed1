"""The record: PostgreSQL as the lasting history of every write (Redis is the hot tier).

- :mod:`.database`: the connection pool and the migrations (``migrations/NNNN_*.sql``, each
  applied once, in a transaction);
- :mod:`.ledger`: a batch of logged writes recorded in one transaction, chained
  (:mod:`roads.chain`), idempotently;
- :mod:`.recorder`: the one leased recorder of a deployment, which copies each table's log
  (:mod:`api.storage.writelog`) into the ledger off the request path, and lets closed shoes
  leave Redis once recorded and ``ROADS_HOT_SECONDS`` old;
- :mod:`.history`: the record's reads: a table's shoes, a shoe's export, and what a shoe or a
  table that left Redis is brought back from (:mod:`api.storage.coldshoes`).

May import ``roads``, ``api.codecs``, ``api.storage``, ``api.config``, ``api.metrics``;
``psycopg`` is imported here and nowhere else.
"""

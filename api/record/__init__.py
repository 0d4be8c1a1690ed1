"""The record: PostgreSQL as the lasting history of every write (Redis is the hot tier).

- :mod:`.database`: the connection pool and the migrations (``migrations/NNNN_*.sql``, each
  applied once, in a transaction), applied by ``python -m api.record.migrate`` (:mod:`.migrate`);
- :mod:`.ledger`: a batch of logged writes recorded in one transaction, chained
  (:mod:`roads.chain`), idempotently;
- :mod:`.recorder`: the one leased recorder of a deployment (a candidate of
  :mod:`api.storage.leases`, as the other leased jobs), which copies each table's log
  (:mod:`api.storage.writelog`) into the ledger off the request path, hands the integrity
  watch's anchors to the lasting k-gram index (:mod:`.kgrams`), and lets closed shoes leave Redis
  once recorded and ``ROADS_HOT_SECONDS`` old (:mod:`.eviction`); ``python -m api.record.run``
  (:mod:`.run`) runs it in a process of its own;
- :mod:`.recordreads`: the record's reads: a table's shoes, a shoe's export, and what a shoe or a
  table that left Redis is brought back from (:mod:`api.storage.coldshoes`), each read one
  read-only snapshot under ``ROADS_RECORD_TIMEOUT_MS``;
- :mod:`.shoelists`: a table's shoe listings as this process last read them, kept a few seconds
  (every table view of the lobby lists its table's earlier shoes);
- :mod:`.roundreads`: rounds by what the studio knows of them (migration 0005): one by its game
  id, a table's last rounds across shoes, a table's by the time they were dealt (paged), every
  table's of a time range as one stream read a batch at a time;
- :mod:`.readback`: what comes back is what the chain covers: a shoe rebuilt from the hashed
  canonical bytes, its chain checked on the way (a break refused, naming the first bad write);
- :mod:`.service`: the record's parts, made once per app when ``ROADS_DATABASE_URL`` is set;
- :mod:`.checkpoints` (+ :mod:`.checkpointstore`): the recorder's signed checkpoints of the
  heads it advanced (Ed25519, a key the database never sees), appended to a store kept apart
  from PostgreSQL (a JSON-lines file in ``ROADS_CHECKPOINT_DIR``); ``keygen``;
- :mod:`.supervisor`: the recorder's own process beside gunicorn's workers, started from the
  master's ``when_ready``, kept running and stopped with the master (the same supervisor across
  a SIGHUP's config reload);
- :mod:`.roles`: what the service's own PostgreSQL role (``ROADS_RECORD_ROLE``) is granted: it
  records writes, never changes or removes one (``python -m api.record.migrate``, as the owner).

May import: :mod:`roads`, :mod:`api.codecs`, :mod:`api.storage` (the write logs, the shoes
that leave Redis, the k-gram index, the lease the recorder holds), :mod:`api.config`,
:mod:`api.metrics`, :mod:`api.logs` and :mod:`api.tracing` (the recorder's process),
:mod:`api.resources` (where the migrations are).
``psycopg`` is imported here and nowhere else.
"""

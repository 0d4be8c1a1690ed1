-- The record: every write the service acknowledged, chained, by table and shoe.

-- Each table as the record knows it: what its latest writes said, the last log number recorded
-- (api.codecs.writelog: the recorder goes on after it), and the chain heads it goes on from.
CREATE TABLE record_tables (
    table_id     text PRIMARY KEY,
    name         text,
    variant      text NOT NULL DEFAULT 'standard',
    current_shoe text,
    retired      boolean NOT NULL DEFAULT false,
    recorded     bigint NOT NULL DEFAULT 0,
    shoe_head    text NOT NULL,  -- the head of the current shoe's chain (a new shoe links to it)
    table_head   text NOT NULL   -- the head of the chain of table writes (name, variant, retire)
);

-- Each shoe: its chain head, its version after its last recorded write, one letter a round
-- (B, P, T, or x for a void) for the counts, whether it has left Redis, and whether the record
-- holds it from its first round (a shoe begun before the record was turned on does not).
CREATE TABLE record_shoes (
    table_id   text NOT NULL REFERENCES record_tables,
    shoe       text NOT NULL,
    opened_at  timestamptz NOT NULL,
    closed_at  timestamptz,
    version    bigint NOT NULL,
    outcomes   text NOT NULL DEFAULT '',
    head       text NOT NULL,
    writes     integer NOT NULL DEFAULT 0,
    hot_until  timestamptz,
    evicted    boolean NOT NULL DEFAULT false,
    complete   boolean NOT NULL,  -- recorded from round 1 (else it never leaves Redis)
    PRIMARY KEY (table_id, shoe)
);
CREATE INDEX record_shoes_newest ON record_shoes (table_id, opened_at DESC, shoe DESC);
CREATE INDEX record_shoes_to_evict ON record_shoes (hot_until) WHERE NOT evicted AND complete;

-- Every recorded write, partitioned by month of ``at`` (retention: DROP a month's partition).
-- ``canonical`` is what was hashed (roads.chain); ``record`` the round as Redis held it, byte
-- for byte, so a shoe brought back from the record is served as before. One index, the key:
-- (table, shoe, number) serves a shoe's export and its rounds (a table's own writes, its name
-- or a retirement, have the shoe ''); a number is recorded once (the ledger skips any number
-- at or below its table's ``recorded``, read under a row lock).
CREATE TABLE record_writes (
    table_id  text NOT NULL,
    shoe      text NOT NULL,
    number    bigint NOT NULL,
    at        timestamptz NOT NULL,
    kind      text NOT NULL,
    round     integer,
    version   bigint,
    record    text,
    canonical text NOT NULL,
    prev_hash text NOT NULL,
    hash      text NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),  -- when it reached the record
    PRIMARY KEY (table_id, shoe, number, at)
) PARTITION BY RANGE (at);

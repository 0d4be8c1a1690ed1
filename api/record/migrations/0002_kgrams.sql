-- The integrity watch's k-gram index, lasting: each anchor the watch indexed (roads.integrity.
-- repeats: ten cards with suits, in hexadecimal), with the table, shoe and round where it was
-- first seen. Redis holds the newest anchors only; with this a replay is named whatever day the
-- shoe it repeats was dealt (api/record/kgrams.py).
CREATE TABLE record_kgrams (
    fingerprint text PRIMARY KEY,
    table_id    text NOT NULL,
    shoe        text NOT NULL,
    round       integer NOT NULL,
    seen_at     timestamptz NOT NULL DEFAULT now()
);

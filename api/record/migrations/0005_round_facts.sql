-- A round's own facts (api/codecs/roundfacts.py): its game id, when it was dealt and by whom.
-- They are in the round's record, and so in its canonical bytes and its chain; these columns
-- repeat them so a round is found by its game id, a table's rounds by the day they were dealt,
-- and every table's by a time range (api/record/roundreads.py), each from an index.
ALTER TABLE record_writes
    ADD COLUMN game_id text,
    ADD COLUMN dealt_at timestamptz,
    ADD COLUMN dealer_id text;

-- The rounds recorded before a round had a time of its own were dealt, as far as the record
-- knows, when the service took them: their 'at'. (Their records and chains are unchanged.)
UPDATE record_writes SET dealt_at = at WHERE kind = 'round' AND dealt_at IS NULL;

-- A round by its game id (a correction or a void of it repeats the id: the newest write wins).
CREATE INDEX record_writes_game ON record_writes (table_id, game_id) WHERE game_id IS NOT NULL;
-- A table's rounds by the time they were dealt, and every table's (the export): each round is
-- listed by the write that appended it ('round'), its latest record read beside it.
CREATE INDEX record_writes_table_dealt ON record_writes (table_id, dealt_at, number)
    WHERE kind = 'round';
CREATE INDEX record_writes_dealt ON record_writes (dealt_at, table_id, number)
    WHERE kind = 'round';
-- A table's last rounds across shoes, in the order they were appended (AGCO's recall).
CREATE INDEX record_writes_table_rounds ON record_writes (table_id, number) WHERE kind = 'round';
-- A round's corrections, voids and burns after it, looked up beside each round listed (they
-- are few).
CREATE INDEX record_writes_rewrites ON record_writes (table_id, shoe, round, number)
    WHERE kind IN ('correction', 'void', 'burn');

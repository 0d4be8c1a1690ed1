-- A recorder that takes the lease signs the heads recorded since the newest checkpoint
-- (api/record/checkpoints.py): it finds them by when they reached the record, which without an
-- index is a scan of every recorded write, growing with the record.
CREATE INDEX record_writes_recorded_at ON record_writes (recorded_at);

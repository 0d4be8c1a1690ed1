-- Who may write what, and which key made each write.
--
-- Migrations run as the schema's owner (python -m api.record.migrate); the service runs as a
-- role of its own (ROADS_RECORD_ROLE, granted by api/record/roles.py after the migrations) that
-- may INSERT and SELECT record_writes but neither UPDATE, DELETE nor TRUNCATE it.

-- The name of the key that made the write (NULL: recorded before keys had names). The write's
-- canonical bytes carry it as "by" from now on (api/record/ledger.py).
ALTER TABLE record_writes ADD COLUMN key_name text;

-- A month's partition of record_writes, made by the owner for the service: the service's role
-- creates no table itself. SECURITY DEFINER, its search_path pinned to this schema below.
-- Access to a partition goes through record_writes (whose rights are checked, not the
-- partition's), so the partition is granted to nobody.
CREATE FUNCTION record_month(month date) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
    first date := date_trunc('month', month)::date;
    name text := 'record_writes_' || to_char(first, 'YYYY_MM');
BEGIN
    IF to_regclass(name) IS NULL THEN
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF record_writes FOR VALUES FROM (%L) TO (%L)',
            name, first, (first + interval '1 month')::date
        );
    END IF;
END;
$$;
REVOKE ALL ON FUNCTION record_month(date) FROM PUBLIC;
DO $$
BEGIN
    EXECUTE format(
        'ALTER FUNCTION record_month(date) SET search_path = %I, pg_temp', current_schema()
    );
END;
$$;

#!/bin/bash
# The part of the official postgres image's entrypoint that deploy/compose.yaml relies on:
# - POSTGRES_PASSWORD (or POSTGRES_PASSWORD_FILE) is required to make a new cluster (fail
#   closed: no cluster open without a password); POSTGRES_USER (postgres) is its superuser,
#   POSTGRES_DB (POSTGRES_USER) is created, POSTGRES_INITDB_ARGS passed to initdb; UTF-8;
# - on the first start only (PGDATA empty), every /docker-entrypoint-initdb.d/*.sh is run
#   (executed if executable, sourced otherwise) and every *.sql fed to psql, against a server
#   on the Unix socket alone, with POSTGRES_USER, POSTGRES_DB and the rest of the environment;
# - then `postgres` runs as the postgres user, listening on every address, password auth
#   (scram-sha-256) over TCP, trust on the container's own socket.
set -Eeuo pipefail

if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /var/run/postgresql
    chown -R postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then
    POSTGRES_PASSWORD="$(<"$POSTGRES_PASSWORD_FILE")"
fi
export POSTGRES_USER="${POSTGRES_USER:-postgres}"
export POSTGRES_DB="${POSTGRES_DB:-$POSTGRES_USER}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
        echo "POSTGRES_PASSWORD is not set: no new cluster without a password" >&2
        exit 1
    fi
    # UTF-8 as the official image's (its en_US.utf8): a cluster made in the C locale would be
    # SQL_ASCII, whose text psycopg hands over as bytes.
    # shellcheck disable=SC2086
    initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
        --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 \
        ${POSTGRES_INITDB_ARGS:-} >/dev/null
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    psql=(psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc)
    if [ "$POSTGRES_DB" != postgres ]; then
        "${psql[@]}" --dbname postgres --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
    fi
    for f in /docker-entrypoint-initdb.d/*; do
        case "$f" in
            *.sh) if [ -x "$f" ]; then "$f"; else . "$f"; fi ;;
            *.sql) "${psql[@]}" --dbname "$POSTGRES_DB" -f "$f" ;;
        esac
    done
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    echo "PostgreSQL init process complete; ready for start up."
fi

exec "$@"

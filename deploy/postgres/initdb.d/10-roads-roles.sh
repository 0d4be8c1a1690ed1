#!/bin/bash
# The record's two roles, made once when the postgres container makes its cluster (the
# official image runs /docker-entrypoint-initdb.d/*.sh on an empty data volume only):
# - roads_owner (ROADS_OWNER_PASSWORD) owns the database `roads` and so its public schema: the
#   compose stack's `migrate` service applies the migrations as this role and grants the other;
# - roads (ROADS_SERVICE_PASSWORD), the role the service and the recorder run as: it may record
#   and read, never change or remove a recorded write (api/record/roles.py grants it).
# Neither is a superuser. The passwords come from the container's environment (the env file
# deploy/compose.yaml gives postgres), never from the image.
set -Eeuo pipefail
: "${ROADS_OWNER_PASSWORD:?is required (postgres.env)}" "${ROADS_SERVICE_PASSWORD:?is required (postgres.env)}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" --no-psqlrc \
    --set owner_password="$ROADS_OWNER_PASSWORD" --set service_password="$ROADS_SERVICE_PASSWORD" \
    --set db="$POSTGRES_DB" <<'SQL'
CREATE ROLE roads_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE roads LOGIN PASSWORD :'service_password';
ALTER DATABASE :"db" OWNER TO roads_owner;
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT ON DATABASE :"db" TO roads;
SQL

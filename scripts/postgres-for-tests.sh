#!/usr/bin/env bash
# Installs PostgreSQL from Debian's packages if needed, starts a local server
# and prints a URL for AGENTSVC_TEST_POSTGRES. Idempotent; needs root.
set -euo pipefail
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  echo "installing postgresql from Debian's packages..." >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
if ! pg_lsclusters -h 2>/dev/null | grep -q .; then
  ver=$(ls /usr/lib/postgresql | sort -n | tail -1)
  pg_createcluster "$ver" main >&2
fi
read -r ver name port status _ < <(pg_lsclusters -h | head -1)
if [ "$status" != "online" ]; then
  pg_ctlcluster "$ver" "$name" start >&2
fi
# Tests create and drop a database each; fsync off is safe for throwaway data.
su postgres -c "psql -q -p $port -c \"ALTER USER postgres PASSWORD 'agentsvc'\"" >&2
su postgres -c "psql -q -p $port -c \"ALTER SYSTEM SET fsync = off\"" >&2
su postgres -c "psql -q -p $port -c \"ALTER SYSTEM SET max_connections = 300\"" >&2
# Restart only when a setting is not in force yet: a restart cuts the
# connections of test runs already using this server.
show() { su postgres -c "psql -tAq -p $port -c 'SHOW $1'"; }
if [ "$(show max_connections)" != "300" ] || [ "$(show fsync)" != "off" ]; then
  pg_ctlcluster "$ver" "$name" restart >&2
fi
for _ in $(seq 1 50); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 0.2
done
echo "postgres://postgres:agentsvc@127.0.0.1:${port}/postgres?sslmode=disable"

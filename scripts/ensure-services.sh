#!/usr/bin/env bash
# Make sure the local PostgreSQL (trust auth on 127.0.0.1:5432) and Redis
# (127.0.0.1:6379) that the tests use are installed and running. Idempotent.
set -euo pipefail

apt_install() {
  if [ -z "${APT_UPDATED:-}" ]; then apt-get update -qq; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

pg_ready() { psql -h 127.0.0.1 -U postgres -d postgres -tAc 'select 1' >/dev/null 2>&1; }

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "installing PostgreSQL"; apt_install postgresql postgresql-client
fi
if ! pg_ready; then
  version=$(ls /etc/postgresql | sort -V | tail -1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null || true
  for _ in $(seq 1 30); do pg_ready && break; sleep 0.5; done
  if ! pg_ready; then
    # A fresh Debian cluster asks for passwords on TCP: these machines use trust locally.
    hba="/etc/postgresql/$version/main/pg_hba.conf"
    sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/\1trust/' "$hba"
    sed -i -E 's/^(local\s+all\s+(postgres|all)\s+)\S+/\1trust/' "$hba"
    pg_ctlcluster --skip-systemctl-redirect "$version" main reload || true
    for _ in $(seq 1 30); do pg_ready && break; sleep 0.5; done
  fi
fi
pg_ready || { echo "PostgreSQL is not reachable on 127.0.0.1:5432" >&2; exit 1; }

if ! command -v redis-server >/dev/null 2>&1; then
  echo "installing Redis"; apt_install redis-server
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/encore-test.log
  for _ in $(seq 1 20); do redis-cli ping >/dev/null 2>&1 && break; sleep 0.25; done
fi
redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null || { echo "Redis is not reachable" >&2; exit 1; }

#!/usr/bin/env bash
# Start PostgreSQL, Redis and RabbitMQ when they are down (the test suite needs
# the first two; RabbitMQ is started because the machine's contract says so)
# and create the test database's owner database.
set -euo pipefail

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {
  for _ in $(seq 1 60); do port_open "$1" && return 0; sleep 0.5; done
  echo "service on port $1 did not come up" >&2
  return 1
}

if ! port_open 5432; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  wait_port 5432
fi
if ! port_open 6379; then
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_port 6379
fi
if ! port_open 5672 && command -v rabbitmq-server >/dev/null; then
  rabbitmq-server -detached || true
fi
if ! psql -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname='speed'" | grep -q 1; then
  createdb -h 127.0.0.1 -U postgres speed
fi

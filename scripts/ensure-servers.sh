#!/usr/bin/env bash
# Starts PostgreSQL, MariaDB and Redis on 127.0.0.1 when they are not already answering.
# The test suites need them (real parts, not mocks); a test whose server is still absent fails by name.
set -u
up() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for() { for _ in $(seq 1 60); do up "$1" && return 0; sleep 0.5; done; echo "ensure-servers: $2 did not come up on port $1" >&2; return 1; }
if ! up 5432 && command -v pg_ctlcluster >/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start; wait_for 5432 PostgreSQL
fi
if ! up 3306 && [ -x /usr/sbin/mariadbd ]; then
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd; wait_for 3306 MariaDB
fi
if ! up 6379 && command -v redis-server >/dev/null; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no; wait_for 6379 Redis
fi
if command -v psql >/dev/null; then
  psql -h 127.0.0.1 -U postgres -tc "select 1 from pg_database where datname='test'" 2>/dev/null | grep -q 1 \
    || psql -h 127.0.0.1 -U postgres -c "create database test" >/dev/null 2>&1 || true
fi
if command -v mariadb >/dev/null; then mariadb -h 127.0.0.1 -uroot -e "create database if not exists test" 2>/dev/null || true; fi
exit 0

#!/usr/bin/env bash
# Starts PostgreSQL, MariaDB and Redis on 127.0.0.1 when they are not already answering, makes the
# `test` databases, and (as root, on a fresh install only) lets the tests log in as they expect:
# postgres@127.0.0.1 and root@127.0.0.1 without a password. Run by scripts/test-setup.mjs (npm test).
# The test suites need these servers (real parts, not mocks). A server that does not come up fails
# the set-up (exit 1) with the end of its own log. Prints only what it does.
set -u
. "$(dirname "$0")/servers-lib.sh"
is_root() { [ "$(id -u)" = 0 ]; }
failed=0
if ! up 5432 && command -v pg_ctlcluster >/dev/null; then
  echo "ensure-servers: starting PostgreSQL"
  version="$(ls /etc/postgresql | head -1)"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  wait_for 5432 PostgreSQL "/var/log/postgresql/postgresql-$version-main.log" || failed=1
fi
if ! up 3306 && [ -x /usr/sbin/mariadbd ]; then
  echo "ensure-servers: starting MariaDB"
  mkdir -p /run/mysqld /var/log/mysql && chown mysql:mysql /run/mysqld /var/log/mysql 2>/dev/null
  mariadb_start /var/log/mysql/ensure-servers.log mysql
  wait_for 3306 MariaDB /var/log/mysql/ensure-servers.log "$MARIADB_PID" || failed=1
fi
if ! up 6379 && command -v redis-server >/dev/null; then
  echo "ensure-servers: starting Redis"
  redis_log="${TMPDIR:-/tmp}/ensure-servers-redis.log"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no --logfile "$redis_log" >>"$redis_log" 2>&1
  wait_for 6379 Redis "$redis_log" || failed=1
fi
if command -v psql >/dev/null && up 5432; then
  # A fresh Debian cluster asks for a password over TCP; the tests connect as postgres@127.0.0.1 without one.
  if ! psql -w -h 127.0.0.1 -U postgres -tc "select 1" >/dev/null 2>&1 && is_root; then
    version="$(ls /etc/postgresql | head -1)"; hba="/etc/postgresql/$version/main/pg_hba.conf"
    echo "ensure-servers: letting postgres@127.0.0.1 log in without a password (first rule of $hba)"
    sed -i '1i host all postgres 127.0.0.1/32 trust' "$hba" && pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  fi
  psql -w -h 127.0.0.1 -U postgres -tc "select 1 from pg_database where datname='test'" 2>/dev/null | grep -q 1 \
    || psql -w -h 127.0.0.1 -U postgres -c "create database test" >/dev/null 2>&1 || true
fi
if command -v mariadb >/dev/null && up 3306; then
  # A fresh Debian MariaDB lets root in only through the socket; the tests connect as root@127.0.0.1.
  if ! mariadb -h 127.0.0.1 -uroot -e "select 1" >/dev/null 2>&1 && is_root; then
    echo "ensure-servers: letting root@127.0.0.1 log in to MariaDB without a password"
    mariadb -uroot -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY ''; GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION; ALTER USER 'root'@'localhost' IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD(''); FLUSH PRIVILEGES;"
  fi
  mariadb -h 127.0.0.1 -uroot -e "create database if not exists test" 2>/dev/null || true
fi
exit "$failed"

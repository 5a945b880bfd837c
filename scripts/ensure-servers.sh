#!/usr/bin/env bash
# Starts PostgreSQL, MariaDB and Redis on 127.0.0.1 when they are not already answering, makes the
# `test` databases, and (as root, on a fresh install only) lets the tests log in as they expect:
# postgres@127.0.0.1 and root@127.0.0.1 without a password. Run by scripts/test-setup.mjs (npm test).
# The test suites need these servers (real parts, not mocks); a test whose server is still absent
# fails by name. Prints only what it does.
set -u
up() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for() { for _ in $(seq 1 60); do up "$1" && return 0; sleep 0.5; done; echo "ensure-servers: $2 did not come up on port $1" >&2; return 1; }
is_root() { [ "$(id -u)" = 0 ]; }
if ! up 5432 && command -v pg_ctlcluster >/dev/null; then
  echo "ensure-servers: starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start; wait_for 5432 PostgreSQL
fi
if ! up 3306 && [ -x /usr/sbin/mariadbd ]; then
  echo "ensure-servers: starting MariaDB"
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld 2>/dev/null
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd; wait_for 3306 MariaDB
fi
if ! up 6379 && command -v redis-server >/dev/null; then
  echo "ensure-servers: starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null; wait_for 6379 Redis
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
exit 0

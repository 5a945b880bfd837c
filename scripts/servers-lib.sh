# Shell functions shared by scripts/ensure-servers.sh and test/test-setup.test.ts (which starts a
# private MariaDB the same way, on its own port and data folder): source this file, then call them.

# up PORT: whether something answers on 127.0.0.1:PORT.
up() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# wait_for PORT NAME LOG [PID]: waits up to 30 s for PORT. When the server does not come up (or its
# process PID ends first), prints the end of LOG, the server's own words, and returns 1.
wait_for() {
  local port="$1" name="$2" log="$3" pid="${4:-}"
  for _ in $(seq 1 60); do
    up "$port" && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.5
  done
  up "$port" && return 0
  echo "ensure-servers: $name did not come up on port $port. The end of its log ($log):" >&2
  if [ -s "$log" ]; then tail -n 15 "$log" | sed 's/^/  /' >&2; else echo "  (the log is empty)" >&2; fi
  return 1
}

# mariadb_start LOG USER [OPTIONS...]: starts mariadbd in the background with OPTIONS first (so
# --no-defaults or --defaults-file may lead), then --user=USER when USER is not empty, and its
# errors in LOG. Debian's stock my.cnf leaves `user = mysql` commented out and mariadbd refuses
# to run as root, so the caller passes the mysql user. Sets MARIADB_PID.
mariadb_start() {
  local log="$1" user="$2"
  shift 2
  : >"$log"
  # The server writes its log as USER once it has switched to it.
  if [ -n "$user" ] && [ "$(id -u)" = 0 ]; then chown "$user" "$log"; fi
  # In a session of its own (setsid), so it outlives the shell and the test command that started it.
  setsid /usr/sbin/mariadbd "$@" ${user:+"--user=$user"} --log-error="$log" >>"$log" 2>&1 </dev/null &
  MARIADB_PID=$!
}

#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests: a fresh cluster in a temporary directory, listening on
# a free port on 127.0.0.1 only, trusted local connections, no password.
#
#   eval "$(scripts/pg-test-server.sh start)"   # exports CITECHECK_TEST_PG_URL, PG_TEST_DIR
#   scripts/pg-test-server.sh stop "$PG_TEST_DIR"
#
# The server binaries are looked for on PATH, then under /usr/lib/postgresql/*/bin; when none
# is found and we are root, Debian's `postgresql` package is installed (apt-get). PostgreSQL
# refuses to run as root, so as root the cluster is made and run as the `postgres` system user
# when it exists (the Debian package creates it), else as `nobody`; the temporary directory is
# handed to that user. Only the commands "start" (prints shell exports on stdout) and
# "stop DIR" exist; everything else goes to stderr.
set -euo pipefail

find_bin() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
    return 0
  fi
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
      echo "$d"
      return 0
    fi
  done
  return 1
}

run_as() {
  # run_as USER CMD...: as root, drop to USER; otherwise run as ourselves.
  local user="$1"; shift
  if [ "$(id -u)" = 0 ]; then
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 - <<'PY'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
PY
}

start() {
  local bin
  if ! bin="$(find_bin)"; then
    if [ "$(id -u)" != 0 ]; then
      echo "pg-test-server: no PostgreSQL server binaries (initdb, pg_ctl) and not root to install them: apt-get install postgresql" >&2
      exit 1
    fi
    echo "pg-test-server: installing Debian's postgresql package" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends postgresql >&2
    bin="$(find_bin)" || { echo "pg-test-server: postgresql installed but no initdb found" >&2; exit 1; }
  fi
  local user=""
  if [ "$(id -u)" = 0 ]; then
    if id postgres >/dev/null 2>&1; then user=postgres; else user=nobody; fi
  fi
  local dir
  dir="$(mktemp -d /tmp/citecheck-pg.XXXXXX)"
  chmod 755 "$dir"
  [ -n "$user" ] && chown "$user" "$dir"
  local port
  port="$(free_port)"
  run_as "${user:-$(id -un)}" "$bin/initdb" -D "$dir/data" -U citecheck --auth=trust \
    --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  # Loopback only; the socket stays in the temporary directory.
  run_as "${user:-$(id -un)}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-h 127.0.0.1 -p $port -k $dir -c max_connections=200 -c fsync=off" start >&2 \
    || { cat "$dir/server.log" >&2; exit 1; }
  echo "export CITECHECK_TEST_PG_URL='postgres://citecheck@127.0.0.1:$port/postgres'"
  echo "export PG_TEST_DIR='$dir'"
  echo "export PG_TEST_BIN='$bin'"
}

stop() {
  local dir="${1:?stop needs the directory start printed (PG_TEST_DIR)}"
  local bin
  bin="$(find_bin)" || exit 0
  local owner
  owner="$(stat -c %U "$dir/data")"
  run_as "$owner" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >&2 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) shift; stop "$@" ;;
  *) echo "usage: $0 start | stop DIR" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests: a fresh cluster in a temporary directory, listening on
# a free port on 127.0.0.1 only, trusted local connections, no password.
#
#   eval "$(scripts/pg-test-server.sh start)"   # exports CITECHECK_TEST_PG_URL, PG_TEST_DIR
#   scripts/pg-test-server.sh stop "$PG_TEST_DIR"
#
# The server binaries are looked for where Debian's packages put them, /usr/lib/postgresql/*/bin
# (the newest version first; they are not on PATH there), then on PATH (other systems); when
# none is found and we are root, Debian's `postgresql` package is installed (apt-get). Debian
# first, so that this machine and a fresh one take the same branch: a hand-made link on PATH
# (say /usr/local/bin/pg_ctl) must not be what makes the tests pass. PostgreSQL
# refuses to run as root, so as root the cluster is made and run as the `postgres` system user
# when it exists (the Debian package creates it), else as `nobody`; the temporary directory is
# handed to that user. Only the commands "start" (prints shell exports on stdout) and
# "stop DIR" exist; everything else goes to stderr.
set -euo pipefail

find_bin() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
      echo "$d"
      return 0
    fi
  done
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
    return 0
  fi
  return 1
}

run_as() {
  # run_as DIR USER CMD...: in DIR (the server's user may not be allowed into the caller's
  # working directory, /root say); as root, dropped to USER; otherwise as ourselves.
  local dir="$1" user="$2"; shift 2
  if [ "$(id -u)" = 0 ]; then
    (cd "$dir" && runuser -u "$user" -- "$@")
  else
    (cd "$dir" && "$@")
  fi
}

free_port() {
  # The kernel's choice when python3 is there; else a random high port nothing answers on.
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
    return
  fi
  local port
  while :; do
    port=$((20000 + RANDOM % 30000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
}

start() {
  local bin
  if ! bin="$(find_bin)"; then
    if [ "$(id -u)" != 0 ]; then
      echo "pg-test-server: no PostgreSQL server binaries (initdb, pg_ctl) and not root to install them: apt-get install postgresql" >&2
      exit 1
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
      echo "pg-test-server: no PostgreSQL server binaries (initdb, pg_ctl) and no apt-get to install them: install PostgreSQL's server package" >&2
      exit 1
    fi
    # The package's own cluster (Debian creates and starts one on port 5432) is left alone:
    # the tests use the cluster made below.
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
  run_as "$dir" "${user:-$(id -un)}" "$bin/initdb" -D "$dir/data" -U citecheck --auth=trust \
    --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  # Loopback only; the socket stays in the temporary directory.
  run_as "$dir" "${user:-$(id -un)}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
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
  run_as "$dir" "$owner" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >&2 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) shift; stop "$@" ;;
  *) echo "usage: $0 start | stop DIR" >&2; exit 2 ;;
esac

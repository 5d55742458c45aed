#!/usr/bin/env bash
# The money tests at other hours of the day (issue 18 §2): stays that span a night of the hotel's
# clock used to make settlements fail at some hours. The test process's clock is moved with
# libfaketime (Debian's `faketime` package) so that the hotels' Asia/Shanghai clock reads each of
# the hours below, around midnight and the early morning; PostgreSQL and Redis keep the real time,
# as a test run at that hour would have them ahead or behind by nothing, so only the test files
# whose instants all come from the test process are run here.
# A time with seconds (23:59:50) runs the files that once failed when a test crossed the hotel's
# midnight while it ran (a night counted from the clock's day instead of the check-in's), started a
# few seconds before it.
# Usage: .ci/at-hour.sh [hotel-hour[:minute[:second]] ...]   (default: 23:58 0:03 1:20 6:20 11:58 13:58 23:59:50 23:59:55)
set -euo pipefail
cd "$(dirname "$0")/.."

lib=""
for candidate in /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 /usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1; do
  [[ -f "$candidate" ]] && lib="$candidate" && break
done
if [[ -z "$lib" ]]; then
  if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime >/dev/null 2>&1; then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime >/dev/null
    fi
    exec "$0" "$@"
  fi
  echo "at-hour: SKIPPED (libfaketime is not installed: apt install faketime)"
  exit 0
fi

files=(
  apps/server/src/modules/orders/orders.integration.test.ts
  apps/server/src/modules/orders/balance-payments.integration.test.ts
  apps/server/src/modules/orders/posting.integration.test.ts
  apps/server/src/legacy/manage/order.integration.test.ts
)
crossing_files=(
  apps/server/src/modules/journal/taxes.integration.test.ts
  apps/server/src/modules/journal/added-taxes.integration.test.ts
  apps/server/src/legacy/manage/lock-admin.integration.test.ts
)
hours=("$@")
[[ ${#hours[@]} -gt 0 ]] || hours=(23:58 0:03 1:20 6:20 11:58 13:58 23:59:50 23:59:55)
# The hours run side by side, as many at a time as the machine has cores (AT_HOUR_JOBS): each is a
# vitest process of its own with its own clock and its own database; its output is printed whole
# when it ends.
jobs_max="${AT_HOUR_JOBS:-$(nproc)}"
# One vitest worker per core in all: the cores shared among the hours that run at once.
workers_each=$(($(nproc) / jobs_max))
[[ "$workers_each" -ge 1 ]] || workers_each=1
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
run_hour() {
  local at="$1" hour minute=20 second=0 target offset now_utc_seconds
  local -a parts run_files=("${files[@]}")
  IFS=: read -ra parts <<<"$at"
  hour=$((10#${parts[0]}))
  [[ ${#parts[@]} -ge 2 ]] && minute=$((10#${parts[1]}))
  if [[ ${#parts[@]} -ge 3 ]]; then
    second=$((10#${parts[2]}))
    run_files=("${crossing_files[@]}")
  fi
  # Shanghai is UTC+8: move the clock so that it reads hour:minute:second there when the run starts.
  now_utc_seconds=$((10#$(date -u +%H) * 3600 + 10#$(date -u +%M) * 60 + 10#$(date -u +%S)))
  target=$(((hour - 8 + 24) % 24 * 3600 + minute * 60 + second))
  offset=$((target - now_utc_seconds))
  echo "at-hour: the hotels' clock (Asia/Shanghai) reads $(printf '%02d:%02d:%02d' "$hour" "$minute" "$second") (clock moved ${offset} s)"
  # libfaketime reads a relative offset only with its sign ("+944", "-60": seconds).
  TEST_WORKERS="$workers_each" FAKETIME="$(printf '%+d' "$offset")" LD_PRELOAD="$lib" FAKETIME_DONT_FAKE_MONOTONIC=1 FAKETIME_DONT_RESET=1 \
    node_modules/.bin/vitest run --project integration "${run_files[@]}"
}
declare -A log_of=() hour_of=()
failed=()
finish() {
  local pid="$1" code=0
  wait "$pid" || code=$?
  cat "${log_of[$pid]}"
  [[ "$code" == 0 ]] || failed+=("${hour_of[$pid]}")
  unset "log_of[$pid]" "hour_of[$pid]"
}
# Waits for the first started of the running hours, so the outputs come out in the hours' order.
finish_oldest() {
  local pid oldest=""
  for pid in "${!log_of[@]}"; do
    if [[ -z "$oldest" || "${log_of[$pid]}" < "${log_of[$oldest]}" ]]; then oldest="$pid"; fi
  done
  finish "$oldest"
}
for i in "${!hours[@]}"; do
  while [[ ${#log_of[@]} -ge "$jobs_max" ]]; do finish_oldest; done
  log="$logs/$(printf '%03d' "$i")"
  run_hour "${hours[$i]}" >"$log" 2>&1 &
  log_of[$!]="$log"
  hour_of[$!]="${hours[$i]}"
done
while [[ ${#log_of[@]} -gt 0 ]]; do finish_oldest; done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "at-hour: FAILED at the hotels' hour ${failed[*]}" >&2
  exit 1
fi
echo "at-hour: the money tests passed at ${#hours[@]} hours"

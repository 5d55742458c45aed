#!/usr/bin/env bash
# Times the steps of CI (`.ci/run`) one by one and prints a table, with the machine's load before
# each step (the machine may be shared: compare runs under similar load).
# Usage: scripts/ci-times.sh [step ...]
#   steps: install generate lint typecheck unit integration build e2e fresh-machine at-hour bench-smoke test
#   (default: every step of `.ci/run` except the Chromium install; `test` is the README's command whole)
# Each step runs as CI runs it; a failing step is reported and the next one still runs.
set -uo pipefail
cd "$(dirname "$0")/.."

pnpm_() { npx -y pnpm@12 "$@"; }
declare -A command=(
  [install]='pnpm_ install'
  [generate]='pnpm_ run generate'
  [lint]='pnpm_ run lint'
  [typecheck]='pnpm_ run typecheck'
  [unit]='pnpm_ run test:unit'
  [integration]='pnpm_ run test:integration'
  [build]='pnpm_ run build'
  [e2e]='pnpm_ run test:e2e'
  [fresh-machine]='bash .ci/fresh-machine.sh'
  [at-hour]='bash .ci/at-hour.sh'
  [bench-smoke]='pnpm_ bench:smoke'
  [test]='pnpm_ install && pnpm_ test'
)
steps=("$@")
[[ ${#steps[@]} -gt 0 ]] || steps=(install generate lint typecheck unit integration build e2e fresh-machine at-hour bench-smoke)

log_dir="test-output/ci-times"
mkdir -p "$log_dir"
results=()
total=0
for step in "${steps[@]}"; do
  [[ -n "${command[$step]:-}" ]] || { echo "ci-times: unknown step $step" >&2; exit 2; }
  load="$(cut -d' ' -f1-3 /proc/loadavg)"
  start=$(date +%s)
  if (eval "${command[$step]}") >"$log_dir/$step.log" 2>&1; then status=ok; else status="FAILED (see $log_dir/$step.log)"; fi
  seconds=$(($(date +%s) - start))
  total=$((total + seconds))
  line="$(printf '%-14s %4d:%02d  load %s  %s' "$step" $((seconds / 60)) $((seconds % 60)) "$load" "$status")"
  echo "$line"
  results+=("$line")
done
echo "---"
printf '%-14s %4d:%02d  (%s, %s cores)\n' total $((total / 60)) $((total % 60)) "$(date -u +%FT%TZ)" "$(nproc)"

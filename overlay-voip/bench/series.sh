#!/usr/bin/env bash
# The runs of record: each configuration three times (median of three), appending every run's
# output to RESULTS (default overlay-voip/bench/results-<date>.txt). Each run takes the build lock
# itself, so builds of others interleave between runs, never during one.
#   overlay-voip/bench/series.sh                 everything below (about 30 minutes)
#   overlay-voip/bench/series.sh loss            only the 5% loss runs
set -uo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
results=${RESULTS:-$bench/results-$(date -u +%Y%m%dT%H%M).txt}
run() { # LABEL ENV... -- SYSTEM CALLS
  local label=$1; shift
  local envs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  for i in 1 2 3; do
    echo "=== $label run $i $(date -u +%H:%M:%S) ${envs[*]} $*" | tee -a "$results"
    env ${envs[@]+"${envs[@]}"} "$bench/calls.sh" "$@" 2>&1 | grep -v '^relay: COUNTERS' | tee -a "$results"
  done
}
what=${1:-all}
if [[ $what == all || $what == loss ]]; then
  run "hopwise 5% loss" LOSS=0.05 DELAY_MS=10 PROBE_EVERY=1 -- hopwise 20
  run "kamailio 5% loss" LOSS=0.05 DELAY_MS=10 PROBE_EVERY=1 -- kamailio 20
fi
if [[ $what == all || $what == load ]]; then
  run "direct 100" -- direct 100
  for n in 100 250 500 1000; do
    run "hopwise $n" -- hopwise "$n"
    run "kamailio $n" -- kamailio "$n"
  done
fi

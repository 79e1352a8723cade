#!/usr/bin/env bash
# The runs of record: each configuration three times (a figure of record is the median of three),
# appending every run's output to RESULTS (default overlay-voip/bench/results-<date>.txt). The three
# runs of one configuration take the build lock once (about three minutes), so that builds of others
# interleave between configurations, never during a run.
#   overlay-voip/bench/series.sh                 everything (about 40 minutes of runs, more when the lock is busy)
#   overlay-voip/bench/series.sh loss            only the 5% loss runs
#   overlay-voip/bench/series.sh load [N...]     only the load runs (default 100 1000 500 250 calls; direct 100 too when 100 is one)
#   HOPWISE_BENCH_LOCKED=1 flock /tmp/hopwise-mvn.lock overlay-voip/bench/series.sh ...   all of it in one hold of the lock
#   overlay-voip/bench/series.sh keys [N]        Hopwise with link security (KEYS=1), then without, N calls (default 100)
#   overlay-voip/bench/series.sh alternate [N]   N calls (default 1000) direct, Hopwise with the phones' sockets on
#                                                the node's loop, Hopwise with them on a thread of their own,
#                                                in turn, three rounds; each round takes the lock for itself
#   overlay-voip/bench/series.sh compare [N]     N calls (default 100) direct, Hopwise (the relay's default media
#                                                thread), Kamailio + rtpengine, in turn, three rounds; each round
#                                                takes the lock for itself, so that a slow or quiet stretch of
#                                                the machine falls on all three columns alike
#   overlay-voip/bench/series.sh wide [N]        N calls (default 1000) direct, then Hopwise (media thread on;
#                                                MEDIA_THREAD=auto|off in the environment: that), three
#                                                rounds, with every socket's default receive buffer at 4 MiB for the
#                                                round (net.core.rmem_default; root; restored after): SIPp cannot size
#                                                its echoing socket, which at the system default drops what arrives
#                                                in bursts, so these runs tell the relays' loss from SIPp's
#   overlay-voip/bench/series.sh hops [N...]     Hopwise (media thread on; MEDIA_THREAD=auto|off in the environment: that)
#                                                with the overlay link captured too (HOPS=1: hops.py splits the
#                                                added delay into ingress node and egress node), N calls (default
#                                                1000; several sizes run in turn), three rounds, with every
#                                                socket's default receive buffer at 4 MiB as in wide
#   overlay-voip/bench/series.sh phones [N]      N calls (default 1000) from UACS SIPp callers (default 10: calls.sh;
#                                                their send phases spread), direct, Hopwise (HOPS=1) and Kamailio +
#                                                rtpengine, each at nice 0 and with the relays at RELAY_NICE
#                                                (default -10), in turn, three rounds; each run takes the lock
#                                                for itself, with every socket's default receive buffer at 4 MiB
#   overlay-voip/bench/series.sh phones-hops [N...]  Hopwise only (HOPS=1: node by node), N calls (default 100 200
#                                                300 500; several sizes in turn) from UACS SIPp callers (default 10,
#                                                their phases spread), the relays at RELAY_NICE (default -10), three
#                                                rounds, with every socket's default receive buffer at 4 MiB: up to
#                                                which load each node's p99 stays within its goal
#   overlay-voip/bench/series.sh phones-compare [N]  N calls (default 500) from UACS SIPp callers (default 10), Hopwise and
#                                                Kamailio + rtpengine, both relays at RELAY_NICE (default -10), in turn,
#                                                three rounds, each round in one hold of the lock with every socket's
#                                                default receive buffer at 4 MiB
#   overlay-voip/bench/series.sh trees A B [N]   two builds of Hopwise against each other: the relays of checkout A,
#                                                then of checkout B (each a directory with its own
#                                                `./mvnw -q -pl overlay-voip -am package -DskipTests`, e.g. a git
#                                                worktree of the commit before a change), N calls (default 1000) as
#                                                in phones-hops, in turn, three rounds, each round in one hold of the lock
set -uo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
results=${RESULTS:-$bench/results-$(date -u +%Y%m%dT%H%M).txt}
export results bench
locked() { # SCRIPT ARGS...: SCRIPT in bash, with once() and $round, under the build lock unless held already
  # (HOPWISE_BENCH_LOCKED=1 flock ... series.sh: the whole series in one hold)
  local lock=(flock /tmp/hopwise-mvn.lock)
  [[ -n ${HOPWISE_BENCH_LOCKED:-} ]] && lock=()
  HOPWISE_BENCH_LOCKED=1 ${lock[@]+"${lock[@]}"} bash -c "$(declare -f once)
$1" locked "${@:2}"
}
once() { # LABEL ENV... -- SYSTEM CALLS: one run, numbered $round, appended to $results
  local label=$1; shift
  local command=()
  while [[ $1 != -- ]]; do command+=("$1"); shift; done
  shift
  command+=("$bench/calls.sh" "$@")
  echo "=== $label run $round $(date -u +%H:%M:%S) ${command[*]}" | tee -a "$results"
  env "${command[@]}" 2>&1 | grep -v "^relay: COUNTERS" | tee -a "$results"
}
run() { # LABEL ENV... -- SYSTEM CALLS: three runs in one hold of the lock
  locked 'for round in 1 2 3; do once "$@"; done' "$@"
}
# Every socket's default receive buffer at 4 MiB for a round (root), restored when the round ends.
wide_buffers='trap "sysctl -q -w net.core.rmem_default=$old_rmem" EXIT
sysctl -q -w net.core.rmem_default=4194304
'
old_rmem=$(sysctl -n net.core.rmem_default)
export old_rmem
what=${1:-all}
if [[ $what == alternate ]]; then
  n=${2:-1000}
  # The loss SIPp loses by itself (its echoing socket, on this machine's two cores) is in the direct
  # runs; alternating spreads the machine's slow minutes over all three columns alike.
  # One round (three runs, about five minutes) per hold of the lock, so that others' builds interleave.
  for round in 1 2 3; do
    export round n
    locked '
      once "direct $n" -- direct "$n"
      once "hopwise $n media-thread off" MEDIA_THREAD=off -- hopwise "$n"
      once "hopwise $n media-thread on" MEDIA_THREAD=on -- hopwise "$n"'
  done
fi
if [[ $what == compare ]]; then
  n=${2:-100}
  for round in 1 2 3; do
    export round n
    locked '
      once "direct $n" -- direct "$n"
      once "hopwise $n" -- hopwise "$n"
      once "kamailio $n" -- kamailio "$n"'
  done
fi
if [[ $what == wide ]]; then
  n=${2:-1000}
  for round in 1 2 3; do
    export round n media_thread=${MEDIA_THREAD:-on}
    locked "$wide_buffers"'
      once "direct $n rmem_default 4194304" -- direct "$n"
      once "hopwise $n media-thread $media_thread rmem_default 4194304" MEDIA_THREAD=$media_thread -- hopwise "$n"'
  done
fi
if [[ $what == hops ]]; then
  [[ $# -gt 1 ]] && shift && sizes=("$@") || sizes=(1000)
  for round in 1 2 3; do
    export round media_thread=${MEDIA_THREAD:-on}
    locked "$wide_buffers"'
      for n in "$@"; do
        once "hopwise $n media-thread $media_thread HOPS=1 rmem_default 4194304" MEDIA_THREAD=$media_thread HOPS=1 -- hopwise "$n"
      done' "${sizes[@]}"
  done
fi
if [[ $what == phones-hops ]]; then
  [[ $# -gt 1 ]] && shift && sizes=("$@") || sizes=(100 200 300 500)
  for round in 1 2 3; do
    export round uacs=${UACS:-10} relay_nice=${RELAY_NICE:--10}
    for n in "${sizes[@]}"; do
      export n
      locked "$wide_buffers"'once "hopwise $n UACS=$uacs HOPS=1 RELAY_NICE=$relay_nice rmem_default 4194304" UACS=$uacs HOPS=1 RELAY_NICE=$relay_nice -- hopwise "$n"'
    done
  done
fi
if [[ $what == phones-compare ]]; then
  n=${2:-500}
  for round in 1 2 3; do
    export round n uacs=${UACS:-10} relay_nice=${RELAY_NICE:--10}
    locked "$wide_buffers"'
      once "hopwise $n UACS=$uacs RELAY_NICE=$relay_nice rmem_default 4194304" UACS=$uacs RELAY_NICE=$relay_nice -- hopwise "$n"
      once "kamailio $n UACS=$uacs RELAY_NICE=$relay_nice rmem_default 4194304" UACS=$uacs RELAY_NICE=$relay_nice -- kamailio "$n"'
  done
fi
if [[ $what == trees ]]; then
  tree_a=$(cd "${2:?usage: series.sh trees A B [N]}" && pwd) tree_b=$(cd "${3:?usage: series.sh trees A B [N]}" && pwd)
  n=${4:-1000}
  for round in 1 2 3; do
    export round n tree_a tree_b uacs=${UACS:-10} relay_nice=${RELAY_NICE:--10}
    # once() runs this checkout's calls.sh; each run runs the calls.sh (and the build) of its own tree.
    locked "$wide_buffers"'
      for tree in "$tree_a" "$tree_b"; do
        bench=$tree/overlay-voip/bench
        once "hopwise $n UACS=$uacs HOPS=1 RELAY_NICE=$relay_nice rmem_default 4194304 tree $tree $(git -C "$tree" rev-parse --short HEAD 2>/dev/null)" UACS=$uacs HOPS=1 RELAY_NICE=$relay_nice -- hopwise "$n"
      done'
  done
fi
if [[ $what == phones ]]; then
  n=${2:-1000}
  for round in 1 2 3; do
    export round n uacs=${UACS:-10} relay_nice=${RELAY_NICE:--10}
    locked "$wide_buffers"'once "direct $n UACS=$uacs rmem_default 4194304" UACS=$uacs -- direct "$n"'
    locked "$wide_buffers"'once "hopwise $n UACS=$uacs HOPS=1 rmem_default 4194304" UACS=$uacs HOPS=1 -- hopwise "$n"'
    locked "$wide_buffers"'once "kamailio $n UACS=$uacs rmem_default 4194304" UACS=$uacs -- kamailio "$n"'
    locked "$wide_buffers"'once "hopwise $n UACS=$uacs HOPS=1 RELAY_NICE=$relay_nice rmem_default 4194304" UACS=$uacs HOPS=1 RELAY_NICE=$relay_nice -- hopwise "$n"'
    locked "$wide_buffers"'once "kamailio $n UACS=$uacs RELAY_NICE=$relay_nice rmem_default 4194304" UACS=$uacs RELAY_NICE=$relay_nice -- kamailio "$n"'
  done
fi
if [[ $what == all || $what == loss ]]; then
  run "hopwise 5% loss" LOSS=0.05 DELAY_MS=10 PROBE_EVERY=1 -- hopwise 20
  run "kamailio 5% loss" LOSS=0.05 DELAY_MS=10 PROBE_EVERY=1 -- kamailio 20
fi
if [[ $what == all || $what == load ]]; then
  [[ $what == load && $# -gt 1 ]] && shift && sizes=("$@") || sizes=(100 1000 500 250)
  # The post-dial delay a relay adds is measured against a direct call: in the same series, whenever
  # 100 calls are.
  [[ " ${sizes[*]} " == *" 100 "* ]] && run "direct 100" -- direct 100
  # 100 calls (both columns far from any limit: the delay and CPU comparison), then the largest: where
  # the limit is matters most, and the machine's time is shared.
  for n in "${sizes[@]}"; do
    run "hopwise $n" -- hopwise "$n"
    run "kamailio $n" -- kamailio "$n"
  done
fi
if [[ $what == keys ]]; then
  n=${2:-100}
  run "hopwise $n keys" KEYS=1 -- hopwise "$n"
  run "hopwise $n" -- hopwise "$n"
fi

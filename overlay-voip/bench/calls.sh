#!/usr/bin/env bash
# One benchmark run: CALLS concurrent SIPp calls, each streaming G.711 (A-law, 20 ms packets) for HOLD
# seconds to SIPp's echoing uas, through one of:
#   direct     SIPp to SIPp, no relay (the baseline of delay and post-dial delay)
#   hopwise    two Hopwise relays (BenchRelay processes, nodes a and b) on loopback UDP
#   kamailio   two sites, each Kamailio + rtpengine (userspace), chained
# and prints one SUMMARY line (calls, failures, post-dial delay, CPU of the relays per call, kernel UDP
# drops) and the phones' RTP as captured on loopback (loss, added one-way delay, jitter, MOS) for a
# sample of the calls. Usage, from the repository root after
# `./mvnw -q -pl overlay-voip -am package -DskipTests`:
#   overlay-voip/bench/calls.sh hopwise 500
#   LOSS=0.05 DELAY_MS=10 overlay-voip/bench/calls.sh kamailio 20
# Environment: HOLD (call length, s, default 30), RAMP (s over which calls start, default 12), WARMUP
# (calls through the relays before the run, default 1000: below),
# LOSS and DELAY_MS (impairment between the two sites, each way; default none), PROBE_EVERY (capture
# one call in N, default: about 16 calls captured), OUT (directory for logs, default a new one in /tmp).
# Hopwise only: HOPS=1 also captures the overlay link and splits the added delay per node (hops.py),
# SIPHOPS=1 captures every SIP leg and the overlay link and splits the post-dial delay per relay
# (sip_hops.py; Kamailio too), KEYS=1 seals the links (a key per node from the key tool, both trusted), SPIN_US sets the node
# runtime's spin before sleep (default 0), RELAY_JAVA_OPTS goes to the relays' JVMs (a profiler agent),
# MEDIA_THREAD=auto|on|off puts the phones' sockets on the node's loop for the first MEDIA_THREAD_CALLS
# calls and on a thread of their own beyond, on that thread, or on the node's loop (default: the relay's,
# auto, and its threshold). RELAY_NICE=N runs the relays (Hopwise's, or Kamailio and rtpengine) at that
# nice value (root for a negative one), as a relay with its machine to itself would not wait behind the
# load generator: SIPp and the captures share the same two cores here. RELAY_RT=N runs them under the
# real-time round-robin policy at priority N instead (chrt -r; root; a diagnostic: docs/benchmarks.md,
# "1000 calls with the relays under a real-time policy"): a relay thread with work then never waits
# behind SIPp or a capture (the kernel still keeps 5% of each core for the rest, sched_rt_runtime_us).
# UACS=N splits the callers over N SIPp uac processes (default 1), each with its own SIP and media
# port and a share of the calls and of the rate: one SIPp sends every call's packet on one 20 ms grid
# of its own, so N processes send at N phases, process k at k * 20 / N ms of the 20 (sipp_phase.c,
# preloaded: it needs a C compiler), as phones with clocks of their own spread theirs. Each process
# streams a file of its own byte (0xff, 0xfe, ...: silence or nearly), so that the analysers tell its
# calls from another's whose SSRC (0xca11 then the call number within its process) is the same.
# UAC_SPREAD=0 puts every process at the same phase instead (SIPp's one burst again, from N processes).
# SYSCALLS=1 counts the relay processes' system calls by kind for SYSCALLS_S seconds (default 5) from the
# start of the measured window (perf's syscall tracepoints; root) and prints a SYSCALLS line per process:
# counting slows every system call, so such a run's CPU and delay figures are not the benchmark's.
# It takes the machine's build lock for the whole run, so that nothing else disturbs the figures.
set -euo pipefail
if [[ -z ${HOPWISE_BENCH_LOCKED:-} ]]; then
  HOPWISE_BENCH_LOCKED=1 exec flock /tmp/hopwise-mvn.lock "$0" "$@"
fi
system=${1:?usage: calls.sh direct|hopwise|kamailio CALLS}
calls=${2:?usage: calls.sh direct|hopwise|kamailio CALLS}
hold=${HOLD:-30}
ramp=${RAMP:-12}
loss=${LOSS:-0}
delay_ms=${DELAY_MS:-0}
bench=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$bench/../.." && pwd)
out=${OUT:-$(mktemp -d /tmp/hopwise-voip-bench.XXXXXX)}
mkdir -p "$out"
"$bench/setup.sh"

cp_bench="$root/overlay-voip/target/test-classes:$root/overlay-voip/target/classes:$root/overlay-core/target/overlay-core-0.1.0-SNAPSHOT-daemon.jar"
if [[ ! -f $root/overlay-voip/target/test-classes/net/hopwise/voip/bench/BenchRelay.class ]]; then
  echo "calls.sh: build first: ./mvnw -q -pl overlay-voip -am package -DskipTests" >&2
  exit 2
fi

# Loopback addresses and ports: SIPp caller and callee on 127.0.0.1; relays on ports nothing else here uses.
caller_sip=15080 callee_sip=15070 caller_media=41000 callee_media=40000
# UACS above 1: process k on SIP port 15200+k and media port 42000+10k, ranges nothing else here uses.
uacs=${UACS:-1}
caller_sips=($caller_sip) caller_medias=($caller_media)
if ((uacs > 1)); then
  caller_sips=() caller_medias=()
  for ((k = 0; k < uacs; k++)); do caller_sips+=($((15200 + k))); caller_medias+=($((42000 + 10 * k))); done
fi
caller_sip_list=$(IFS=,; echo "${caller_sips[*]}")
caller_media_list=$(IFS=,; echo "${caller_medias[*]}")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

# rtp_stream plays the file once; make it as long as the call (mu-law silence, 0xff).
python3 -c "import sys; open(sys.argv[1],'wb').write(b'\xff' * (8000 * int(sys.argv[2])))" "$out/silence.ul" "$hold"
cp "$bench/uac_g711.xml" "$out/"
if ((uacs > 1)); then
  if ! cc -O2 -shared -fPIC -o "$out/sipp_phase.so" "$bench/sipp_phase.c" -ldl; then
    echo "calls.sh: UACS needs a C compiler (cc) for sipp_phase.c" >&2
    exit 2
  fi
  for ((k = 0; k < uacs; k++)); do
    python3 -c "import sys; open(sys.argv[1],'wb').write(bytes([0xff - int(sys.argv[3])]) * (8000 * int(sys.argv[2])))" \
      "$out/silence-$k.ul" "$hold" "$k"
    sed "s/silence.ul/silence-$k.ul/" "$bench/uac_g711.xml" > "$out/uac_g711-$k.xml"
  done
fi

wait_for() { # FILE PATTERN SECONDS
  for ((i = 0; i < $3 * 10; i++)); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "calls.sh: no '$2' in $1 after $3 s:" >&2
  tail -20 "$1" >&2
  exit 1
}

relay_pids=()
relay_sched=()
if [[ -n ${RELAY_NICE:-} ]]; then relay_sched=(nice -n "$RELAY_NICE"); fi
if [[ -n ${RELAY_RT:-} ]]; then relay_sched=(chrt -r "$RELAY_RT"); fi
# LOAD_RT=N (with RELAY_RT above it): the phones (SIPp) and the captures under the same policy at
# priority N, so that the relays come first and the load generator second, before anything else on
# the machine; without it a relay that never waits leaves the phones what is left of two cores.
load_rt=()
if [[ -n ${LOAD_RT:-} ]]; then load_rt=(chrt -r "$LOAD_RT"); fi
case $system in
  direct)
    proxy=() ;;
  hopwise)
    seed_args=()
    if [[ $loss != 0 || $delay_ms != 0 ]]; then seed_args=(--loss "$loss" --delay-ms "$delay_ms"); fi
    # KEYS=1: links authenticated and encrypted, as users run them (a key per node, each trusting both).
    if [[ ${KEYS:-0} == 1 ]]; then
      : > "$out/trusted"
      for site in a b; do
        java -cp "$cp_bench" net.hopwise.overlay.security.KeyTool genkey node "$out/$site.key" > /dev/null
        java -cp "$cp_bench" net.hopwise.overlay.security.KeyTool pubkey "$out/$site.key" "$site" >> "$out/trusted"
      done
    fi
    for site in a b; do
      if [[ $site == a ]]; then me=18100 peer=b@127.0.0.1:18101 sip=15060 ports=30000-34999 seed=11
      else me=18101 peer=a@127.0.0.1:18100 sip=15062 ports=35000-39999 seed=12; fi
      relay_args=()
      if [[ -n ${MEDIA_THREAD:-} ]]; then relay_args+=(--media-thread "$MEDIA_THREAD"); fi
      if [[ -n ${MEDIA_THREAD_CALLS:-} ]]; then relay_args+=(--media-thread-calls "$MEDIA_THREAD_CALLS"); fi
      if [[ ${KEYS:-0} == 1 ]]; then relay_args+=(--key "$out/$site.key" --trusted-keys "$out/trusted"); fi
      mkfifo "$out/relay-$site.in"
      ${relay_sched[@]+"${relay_sched[@]}"} java ${RELAY_JAVA_OPTS:-} -cp "$cp_bench" net.hopwise.voip.bench.BenchRelay --name "$site" --bind "127.0.0.1:$me" \
        --neighbour "$peer" --sip "127.0.0.1:$sip" --media-ports "$ports" --route prefix:bob=b --linger 1 \
        --seed "$seed" --spin-us "${SPIN_US:-0}" ${seed_args[@]+"${seed_args[@]}"} \
        ${relay_args[@]+"${relay_args[@]}"} < "$out/relay-$site.in" > "$out/relay-$site.out" 2>&1 &
      relay_pids+=($!)
      pids+=($!)
    done
    exec 7> "$out/relay-a.in" 8> "$out/relay-b.in"
    wait_for "$out/relay-a.out" '^READY' 60
    wait_for "$out/relay-b.out" '^READY' 60
    proxy=(-rsa 127.0.0.1:15060) ;;
  kamailio)
    source "$bench/kamailio-sites.sh"
    start_kamailio_sites
    proxy=(-rsa 127.0.0.2:5060) ;;
  *) echo "calls.sh: unknown system $system" >&2; exit 2 ;;
esac

# Warm-up: a Java relay runs interpreted at first; a relay in service has long been compiled. Calls on
# other ports and SSRC-less of interest (another SIPp pair), before anything is captured or timed.
# WARMUP calls (default 1000; as many as CALLS below 100, a check of the scripts): a call's INVITE
# path runs once per call, and after 100 warm-up calls and 100 measured ones it was still largely
# interpreted (each relay's INVITE step 0.9 ms against 0.4 ms after 1000, SIPHOPS=1); packets and
# the other messages reach the compilers long before.
warmup=${WARMUP:-$((calls < 100 ? calls : 1000))}
if [[ $system != direct && $warmup -gt 0 ]]; then
  (cd "$out" && python3 -c "open('warm.ul','wb').write(b'\xff' * 48000)" && sed 's/silence.ul/warm.ul/' uac_g711.xml > uac_warm.xml)
  (cd "$out" && exec ${load_rt[@]+"${load_rt[@]}"} sipp -sn uas -i 127.0.0.1 -p 15072 -mi 127.0.0.1 -mp 40100 -rtp_echo -m "$warmup" -nostdin \
    -timeout 120s > warm-uas.out 2>&1) &
  warm_uas=$!
  pids+=($warm_uas)
  sleep 0.5
  (cd "$out" && ${load_rt[@]+"${load_rt[@]}"} sipp 127.0.0.1:15072 "${proxy[@]}" -sf uac_warm.xml -s bob -i 127.0.0.1 -p 15082 -mi 127.0.0.1 \
    -mp 41100 -d 6000 -m "$warmup" -l "$warmup" -r 25 -nostdin -timeout 120s > warm-uac.out 2>&1) || true
  wait $warm_uas || true
  sleep 2
fi

# Capture a sample of the calls' RTP on the phones' legs (SIPp's SSRC is 0xca11 then the call number).
probe_every=${PROBE_EVERY:-1}
if [[ -z ${PROBE_EVERY:-} ]]; then
  while ((calls / probe_every > 16)); do probe_every=$((probe_every * 2)); done
fi
mask=$(printf '0x%x' $((0xffff0000 | (probe_every - 1))))
port_filter() { local f= p; for p in "$@"; do f+="${f:+ or }port $p"; done; echo "$f"; }
${load_rt[@]+"${load_rt[@]}"} tcpdump -i lo -n -s 64 -B 32768 --time-stamp-precision=nano -w "$out/probe.pcap" \
  "udp and (udp[16:4] & $mask) = 0xca110000 and ($(port_filter "${caller_medias[@]}" $callee_media))" \
  > "$out/tcpdump.out" 2>&1 &
tcpdump_pid=$!
pids+=($tcpdump_pid)
# And the caller's SIP, whole, for the post-dial delay to the microsecond (SIPp's own is in milliseconds).
${load_rt[@]+"${load_rt[@]}"} tcpdump -i lo -n -s 0 -B 8192 --time-stamp-precision=nano -w "$out/sip.pcap" "udp and ($(port_filter "${caller_sips[@]}"))" \
  > "$out/tcpdump-sip.out" 2>&1 &
pids+=($!)
sip_tcpdump_pid=$!
wait_for "$out/tcpdump.out" 'listening on' 10
wait_for "$out/tcpdump-sip.out" 'listening on' 10
# HOPS=1 (Hopwise only): the overlay link between the two nodes too, whole datagrams, so that hops.py
# splits the added delay between the ingress node and the egress node.
hops_pid=
if [[ ${HOPS:-0} == 1 && $system == hopwise ]]; then
  ${load_rt[@]+"${load_rt[@]}"} tcpdump -i lo -n -s 0 -B 65536 --time-stamp-precision=nano -c 2000000 -w "$out/overlay.pcap" \
    "udp and (port 18100 or port 18101)" \
    > "$out/tcpdump-overlay.out" 2>&1 &
  hops_pid=$!
  pids+=($hops_pid)
  wait_for "$out/tcpdump-overlay.out" 'listening on' 10
fi

# SIPHOPS=1: every SIP leg and the overlay link, whole datagrams, so that sip_hops.py splits the
# post-dial delay relay by relay (a diagnostic: the capture costs the machine some CPU).
siphops_pid=
if [[ ${SIPHOPS:-0} == 1 ]]; then
  ${load_rt[@]+"${load_rt[@]}"} tcpdump -i lo -n -s 0 -B 65536 --time-stamp-precision=nano -w "$out/sip-hops.pcap" \
    "udp and ($(port_filter "${caller_sips[@]}") or port $callee_sip or port 15060 or port 15062 or port 5060 or port 18100 or port 18101)" \
    > "$out/tcpdump-siphops.out" 2>&1 &
  siphops_pid=$!
  pids+=($siphops_pid)
  wait_for "$out/tcpdump-siphops.out" 'listening on' 10
fi

rate=$(python3 -c "print(max(1, round($calls / $ramp, 1)))")
udp_before=$(awk '/^Udp:/ {n++} /^Udp:/ && n == 2 {print $4, $6, $7}' /proc/net/snmp)

cd "$out"
${load_rt[@]+"${load_rt[@]}"} sipp -sn uas -i 127.0.0.1 -p $callee_sip -mi 127.0.0.1 -mp $callee_media -rtp_echo -m "$calls" -nostdin \
  -timeout $((hold * 4 + 60))s -timeout_error -trace_stat -stf uas_stat.csv > uas.out 2>&1 &
uas_pid=$!
pids+=($uas_pid)
sleep 0.5
start=$(date +%s.%N)
# With UACS, the calls, the rate and the concurrency divided over the processes (the first ones take the
# remainder), and process k's 20 ms grid held to start k * 20 / N ms past a multiple of 20 ms.
uac_pids=()
for ((k = 0; k < uacs; k++)); do
  if ((uacs == 1)); then
    suffix= share=$calls share_rate=$rate preload=()
  else
    suffix=-$k
    share=$((calls / uacs + (k < calls % uacs ? 1 : 0)))
    share_rate=$(python3 -c "print(round($rate * $share / $calls, 3))")
    preload=(env LD_PRELOAD="$out/sipp_phase.so" SIPP_PHASE_US=$((${UAC_SPREAD:-1} * k * 20000 / uacs)))
  fi
  ${load_rt[@]+"${load_rt[@]}"} ${preload[@]+"${preload[@]}"} sipp 127.0.0.1:$callee_sip ${proxy[@]+"${proxy[@]}"} -sf "uac_g711$suffix.xml" -s bob \
    -i 127.0.0.1 -p "${caller_sips[k]}" -mi 127.0.0.1 -mp "${caller_medias[k]}" -d $((hold * 1000)) -m "$share" \
    -l "$share" -r "$share_rate" -nostdin -timeout $((hold * 4 + 60))s -timeout_error -trace_stat \
    -stf "uac_stat$suffix.csv" -trace_rtt -rtt_freq 1 -rtp_threadtasks 20 > "uac$suffix.out" 2>&1 &
  uac_pids+=($!)
done
pids+=("${uac_pids[@]}")

# CPU over the plateau, when every call is up: ticks of each process (all threads) from /proc.
ticks() { local t=0; for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done; echo $t; }
# And where the relays' threads wait: per thread, nanoseconds run and nanoseconds runnable but waiting
# for a core (/proc/<pid>/task/<tid>/schedstat), keyed by process, thread and name. A relay whose busiest
# thread waits for a core about as long as it runs is short of CPU, not of code: its packets queue in
# the socket buffers meanwhile.
schedstats() { for p in "$@"; do for t in /proc/$p/task/*; do
  [[ -r $t/schedstat ]] && echo "$p/${t##*/}/$(tr ' ' _ < "$t/comm" 2>/dev/null) $(cat "$t/schedstat" 2>/dev/null)"; done; done; }
relay_processes() {
  case $system in
    hopwise) echo "${relay_pids[@]}" ;;
    kamailio) kamailio_pids ;;
    *) echo ;;
  esac
}
# Receive-buffer drops per UDP socket (/proc/net/udp's last column), keyed by local address and inode.
socket_drops() { awk 'NR > 1 {print $2 "/" $10, $NF}' /proc/net/udp; }
sleep_until() { local now; now=$(date +%s.%N); python3 -c "import time; time.sleep(max(0, $start + $1 - $now))"; }
window_from=$((ramp + 3))
window_to=$((hold - 1))
sleep_until "$window_from"
read -r -a watched <<< "$(relay_processes)"
syscall_counters=()
if [[ ${SYSCALLS:-0} == 1 ]]; then
  command -v perf > /dev/null || { echo "calls.sh: SYSCALLS=1 needs perf (Debian's linux-perf)" >&2; exit 2; }
  events=raw_syscalls:sys_enter
  for call in recvmsg recvmmsg recvfrom sendmsg sendmmsg sendto epoll_wait epoll_pwait epoll_pwait2 read write futex; do
    events+=",syscalls:sys_enter_$call"
  done
  for p in ${watched[@]+"${watched[@]}"}; do
    tr -d '\n' < "/proc/$p/comm" > "$out/syscalls-$p.comm" 2>/dev/null || true
    perf stat -x, -e "$events" -p "$p" -o "$out/syscalls-$p.csv" -- sleep "${SYSCALLS_S:-5}" > /dev/null 2>&1 &
    syscall_counters+=($!)
  done
fi
relay0=$(ticks ${watched[@]+"${watched[@]}"}) uac0=$(ticks "${uac_pids[@]}") uas0=$(ticks $uas_pid) t0=$(date +%s.%N)
schedstats ${watched[@]+"${watched[@]}"} > "$out/sched0"
socket_drops > "$out/drops0"
sleep_until "$window_to"
relay1=$(ticks ${watched[@]+"${watched[@]}"}) uac1=$(ticks "${uac_pids[@]}") uas1=$(ticks $uas_pid) t1=$(date +%s.%N)
schedstats ${watched[@]+"${watched[@]}"} > "$out/sched1"
socket_drops > "$out/drops1"

# With several processes, the first failure's code (0 when every one succeeded).
uac_rc=0
for p in "${uac_pids[@]}"; do rc=0; wait "$p" || rc=$?; ((uac_rc == 0)) && uac_rc=$rc; done
uas_rc=0; wait $uas_pid || uas_rc=$?
sleep 1
kill -INT $tcpdump_pid $sip_tcpdump_pid $hops_pid $siphops_pid 2>/dev/null || true
wait $tcpdump_pid $sip_tcpdump_pid $hops_pid $siphops_pid 2>/dev/null || true
udp_after=$(awk '/^Udp:/ {n++} /^Udp:/ && n == 2 {print $4, $6, $7}' /proc/net/snmp)

case $system in
  hopwise)
    sleep 2
    exec 7>&- 8>&-
    for p in "${relay_pids[@]}"; do wait "$p" || true; done
    grep -h '^STATE\|^MEDIA\|^COUNTERS' "$out/relay-a.out" "$out/relay-b.out" | sed 's/^/relay: /' ;;
  kamailio)
    stop_kamailio_sites ;;
esac

hz=$(getconf CLK_TCK)
python3 - "$system" "$calls" "$uac_rc" "$uas_rc" "$out" "$hz" "$relay0" "$relay1" "$uac0" "$uac1" "$uas0" "$uas1" \
  "$t0" "$t1" "$udp_before" "$udp_after" "$loss" "$delay_ms" "$caller_media_list" <<'PY'
import csv, glob, statistics, sys
(system, calls, uac_rc, uas_rc, out, hz, r0, r1, c0, c1, s0, s1, t0, t1, ub, ua, loss, delay, caller_medias) = sys.argv[1:]
calls = int(calls); hz = int(hz); wall = float(t1) - float(t0)
cores = lambda a, b: (int(b) - int(a)) / hz / wall
def last_row(path):
    rows = list(csv.reader(open(path), delimiter=';'))
    return dict(zip(rows[0], rows[-1]))
# One statistics file per uac process (uac_stat.csv, or uac_stat-K.csv with UACS): their counts summed.
stats = [last_row(f) for f in sorted(glob.glob(out + '/uac_stat*.csv'))]
ok = sum(int(stat['SuccessfulCall(C)']) for stat in stats)
failed = sum(int(stat['FailedCall(C)']) for stat in stats)
rtts = []
for f in glob.glob(out + '/*_rtt.csv'):
    for row in list(csv.reader(open(f), delimiter=';'))[1:]:
        if len(row) >= 2 and row[1]:
            rtts.append(float(row[1]))
rtts.sort()
pct = lambda v, p: v[min(len(v) - 1, max(0, int(round(p / 100 * len(v) + 0.5)) - 1))] if v else float('nan')
before, after = [int(x) for x in ub.split()], [int(x) for x in ua.split()]
relay_cores = cores(r0, r1)
print(f"SUMMARY system={system} calls={calls} loss={loss} delay_ms={delay} uac_rc={uac_rc} uas_rc={uas_rc}"
      f" successful={ok} failed={failed} pdd_ms p50={pct(rtts, 50):.3f} p99={pct(rtts, 99):.3f}"
      f" mean={statistics.mean(rtts) if rtts else float('nan'):.3f} (n={len(rtts)})"
      f" relay_cpu_cores={relay_cores:.3f} cpu_per_call_pct={100 * relay_cores / calls:.4f}"
      f" sipp_uac_cores={cores(c0, c1):.3f} sipp_uas_cores={cores(s0, s1):.3f} window_s={wall:.1f}"
      f" udp_in_errors={after[0] - before[0]} udp_rcvbuf_errors={after[1] - before[1]} udp_sndbuf_errors={after[2] - before[2]}")
def drops(path):
    return {k: int(v) for k, v in (line.split() for line in open(path))}
d0, d1 = drops(out + '/drops0'), drops(out + '/drops1')
by_port = {}
for k, v in d1.items():
    delta = v - d0.get(k, 0)
    if delta:
        port = int(k.split('/')[0].split(':')[1], 16)
        by_port[port] = by_port.get(port, 0) + delta
caller_media = {int(p) for p in caller_medias.split(',')}
others = sum(v for p, v in by_port.items() if p not in caller_media)
def sched(path):
    rows = {}
    for line in open(path):
        parts = line.split()
        if len(parts) >= 3:
            rows[parts[0]] = (int(parts[1]), int(parts[2]))
    return rows
q0, q1 = sched(out + '/sched0'), sched(out + '/sched1')
threads = []
for k, (run1, wait1) in q1.items():
    run0, wait0 = q0.get(k, (0, 0))
    threads.append((run1 - run0, wait1 - wait0, k))
threads.sort(reverse=True)
run_all, wait_all = sum(t[0] for t in threads), sum(t[1] for t in threads)
busiest = ' '.join(f"{k.split('/')[2]}:run={r / 1e9 / wall:.3f},wait={w / 1e9 / wall:.3f}" for r, w, k in threads[:4])
print(f"SCHED window relay threads running={run_all / 1e9 / wall:.3f} cores, runnable but waiting for a core="
      f"{wait_all / 1e9 / wall:.3f} thread-seconds per second; busiest threads {busiest}")
print(f"DROPS window socket receive-buffer drops: caller media socket (SIPp uac never reads its echo)="
      f"{sum(by_port.get(p, 0) for p in caller_media)} every other socket={others} {dict(sorted(by_port.items()))}")
PY
java -cp "$cp_bench" net.hopwise.voip.bench.SipCapture "$out/sip.pcap" "$caller_sip_list"
java -cp "$cp_bench" net.hopwise.voip.bench.RtpCapture "$out/probe.pcap" "$caller_media_list" $callee_media 20
if [[ -n $hops_pid ]]; then
  python3 "$bench/hops.py" "$out/probe.pcap" "$out/overlay.pcap" "$caller_media_list" $callee_media 18100 18101
fi
if ((uacs > 1)); then
  # When in the 20 ms the sampled calls send, over all the processes, and when the callee echoes them.
  python3 "$bench/phases.py" "$out/probe.pcap" "$caller_media_list"
  python3 "$bench/phases.py" "$out/probe.pcap" $callee_media
fi
if [[ -n $siphops_pid ]]; then
  python3 "$bench/sip_hops.py" "$out/sip-hops.pcap"
fi
if ((${#syscall_counters[@]} > 0)); then
  wait "${syscall_counters[@]}" || true
  # Per process: system calls a second, and per media packet it relays (each relay reads and writes
  # every packet of both directions: calls x 100 packets a second).
  for f in "$out"/syscalls-*.csv; do
    p=${f##*/syscalls-}; p=${p%.csv}
    python3 - "$f" "$p" "$(cat "$out/syscalls-$p.comm" 2>/dev/null)" "${SYSCALLS_S:-5}" "$calls" <<'PY'
import sys
path, pid, comm, seconds, calls = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
counts = {}
for line in open(path):
    parts = line.strip().split(',')
    if len(parts) > 2 and parts[0].isdigit():
        counts[parts[2].split(':')[1].removeprefix('sys_enter_')] = int(parts[0])
total = counts.pop('sys_enter', 0)
if total:
    kinds = ' '.join(f"{k}={v / seconds:.0f}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]) if v)
    print(f"SYSCALLS pid={pid} comm={comm} per_s={total / seconds:.0f} per_packet={total / seconds / (calls * 100):.2f} {kinds}"
          f" (counted over {seconds:g} s; the counting slows each call, so this run's CPU and delay are not of record)")
PY
  done
fi
grep -h 'packets dropped by kernel' "$out/tcpdump.out" | sed 's/^/tcpdump: /'
echo "OUT $out"

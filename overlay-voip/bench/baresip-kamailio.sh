#!/usr/bin/env bash
# baresip to baresip, the same call as BaresipThroughTwoRelaysTest (caller: a 440 Hz tone, opus;
# callee: auto-answer, echoes what it hears), through each of:
#   hopwise    two Hopwise relays (BenchRelay processes, nodes a and b) on loopback UDP
#   kamailio   two sites, each Kamailio + rtpengine (userspace), chained (kamailio-sites.sh, kamailio.cfg)
# RUNS times each, alternating, under the same impairment between the two sites (LOSS, DELAY_MS: the
# overlay link's impairment for Hopwise, UdpImpairer between the two rtpengines for Kamailio, the same
# ImpairmentModel and seed). Prints one line per call with both phones' RTCP summaries (baresip's
# rtcpsummary module: packets, lost, jitter, RTT; the caller quits first and prints none) and an E-model MOS from what the callee received,
# then the medians per system. Usage, from the repository root after
# `./mvnw -q -pl overlay-voip -am package -DskipTests`:
#   overlay-voip/bench/baresip-kamailio.sh            # 3 runs each, no impairment
#   LOSS=0.05 DELAY_MS=10 overlay-voip/bench/baresip-kamailio.sh 3
# Environment: LOSS, DELAY_MS (each way between the sites; default none), TALK (seconds the caller
# stays in the call, default 10), OUT (directory for logs, default a new one in /tmp).
# It takes the machine's build lock for the whole run.
set -euo pipefail
if [[ -z ${HOPWISE_BENCH_LOCKED:-} ]]; then
  HOPWISE_BENCH_LOCKED=1 exec flock /tmp/hopwise-mvn.lock "$0" "$@"
fi
runs=${1:-3}
loss=${LOSS:-0}
delay_ms=${DELAY_MS:-0}
talk=${TALK:-10}
bench=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$bench/../.." && pwd)
out=${OUT:-$(mktemp -d /tmp/hopwise-baresip-kamailio.XXXXXX)}
mkdir -p "$out"
"$bench/setup.sh"
command -v baresip > /dev/null || { echo "baresip-kamailio.sh: baresip (baresip-core) is not installed" >&2; exit 2; }

cp_bench="$root/overlay-voip/target/test-classes:$root/overlay-voip/target/classes:$root/overlay-core/target/overlay-core-0.1.0-SNAPSHOT-daemon.jar"
if [[ ! -f $root/overlay-voip/target/test-classes/net/hopwise/voip/bench/BenchRelay.class ]]; then
  echo "baresip-kamailio.sh: build first: ./mvnw -q -pl overlay-voip -am package -DskipTests" >&2
  exit 2
fi

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

wait_for() { # FILE PATTERN SECONDS
  for ((i = 0; i < $3 * 10; i++)); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "baresip-kamailio.sh: no '$2' in $1 after $3 s:" >&2
  tail -20 "$1" >&2
  exit 1
}

# A baresip home: the configuration of BaresipThroughTwoRelaysTest (opus, because ausine makes 48 kHz only).
agent() { # DIR SIP_PORT RTP_PORTS AUDIO_LINES ACCOUNT
  mkdir -p "$1"
  printf '%s\n' "sip_listen 127.0.0.1:$2" "net_interface 127.0.0.1" "rtp_ports $3" "rtcp_mux no" "$4" \
    "audio_alert aubridge,alert" "module_path /usr/lib/baresip/modules" "module opus.so" "module ausine.so" \
    "module aubridge.so" "module rtcpsummary.so" "module_tmp account.so" "module_app menu.so" > "$1/config"
  echo "$5" > "$1/accounts"
}

relay_pids=()
start_hopwise() {
  relay_pids=()
  local seed_args=() site me peer sip ports seed
  if [[ $loss != 0 || $delay_ms != 0 ]]; then seed_args=(--loss "$loss" --delay-ms "$delay_ms"); fi
  for site in a b; do
    if [[ $site == a ]]; then me=18100 peer=b@127.0.0.1:18101 sip=15060 ports=30000-34999 seed=11
    else me=18101 peer=a@127.0.0.1:18100 sip=15062 ports=35000-39999 seed=12; fi
    rm -f "$out/relay-$site.in"
    mkfifo "$out/relay-$site.in"
    java -cp "$cp_bench" net.hopwise.voip.bench.BenchRelay --name "$site" --bind "127.0.0.1:$me" \
      --neighbour "$peer" --sip "127.0.0.1:$sip" --media-ports "$ports" --route prefix:bob=b --linger 1 \
      --seed "$seed" ${seed_args[@]+"${seed_args[@]}"} < "$out/relay-$site.in" > "$out/relay-$site.out" 2>&1 &
    relay_pids+=($!)
    pids+=($!)
  done
  exec 7> "$out/relay-a.in" 8> "$out/relay-b.in"
  wait_for "$out/relay-a.out" '^READY' 60
  wait_for "$out/relay-b.out" '^READY' 60
}

stop_hopwise() {
  exec 7>&- 8>&-
  local p
  for p in "${relay_pids[@]}"; do wait "$p" || true; done
}

# One call; prints "SYSTEM RUN established=N caller=<summary> callee=<summary>".
call() { # SYSTEM RUN OUTBOUND
  local d="$out/$1-$2" callee_port=15070 caller_port=15080
  agent "$d/callee" $callee_port 43000-43099 $'audio_player aubridge,echo\naudio_source aubridge,echo' \
    "<sip:bob@127.0.0.1:$callee_port>;regint=0;answermode=auto;audio_codecs=opus"
  agent "$d/caller" $caller_port 44000-44099 $'audio_source ausine,440\naudio_player aubridge,sink' \
    "<sip:alice@127.0.0.1:$caller_port>;regint=0;outbound=\"$3\";audio_codecs=opus"
  baresip -f "$d/callee" -t $((talk + 6)) < /dev/null > "$d/callee.log" 2>&1 &
  local callee=$!
  pids+=($callee)
  sleep 1
  baresip -f "$d/caller" -e "/dial sip:bob@127.0.0.1:$callee_port" -t "$talk" < /dev/null > "$d/caller.log" 2>&1 || true
  wait $callee || true
  local a b
  a=$(grep -ao 'EX=BareSip[^ ]*' "$d/caller.log" | head -1 || true)
  b=$(grep -ao 'EX=BareSip[^ ]*' "$d/callee.log" | head -1 || true)
  echo "$1 $2 established=$(grep -c 'Call established' "$d/caller.log" || true) caller=${a:-none} callee=${b:-none}"
}

results="$out/results.txt"
: > "$results"
echo "# baresip-kamailio.sh runs=$runs loss=$loss delay_ms=$delay_ms talk=$talk $(date -u +%FT%TZ)" | tee -a "$results"
for ((r = 1; r <= runs; r++)); do
  start_hopwise
  call hopwise "$r" "sip:127.0.0.1:15060;lr" | tee -a "$results"
  stop_hopwise
  grep -h '^STATE' "$out/relay-a.out" "$out/relay-b.out" | sed 's/^/relay: /' | tee -a "$results"
  pids=()
  source "$bench/kamailio-sites.sh"
  start_kamailio_sites
  call kamailio "$r" "sip:127.0.0.2:5060;lr" | tee -a "$results"
  stop_kamailio_sites | tee -a "$results"
  wait 2>/dev/null || true
  pids=()
done

# The summaries and an E-model MOS (G.711 with PLC, as EModel and calls.sh: delay = RTT/2 + 2 x jitter +
# 20 ms access; the loss the callee saw). The call is opus, more robust to loss than G.711+PLC: the
# MOS compares the two systems on one scale, it is not opus's own.
python3 - "$results" <<'EOF'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r'(\w+) (\d+) established=(\d+) caller=(\S+) callee=(\S+)', line)
    if not m:
        continue
    def parse(s):
        f = dict(kv.split('=', 1) for kv in s.split(';') if '=' in kv)
        if 'PR' not in f:
            return None
        rx_lost = int(f['PL'].split(',')[0])
        jitter = float(f['JI'].split(',')[0])
        return dict(pr=int(f['PR']), lost=rx_lost, loss=100.0 * max(0, rx_lost) / max(1, int(f['PR']) + max(0, rx_lost)),
                    jitter=jitter, rtt=float(f.get('DL', '0') or 0))
    callee, caller = parse(m.group(5)), parse(m.group(4))
    if callee is None:
        print(f"{m.group(1)} run {m.group(2)}: no RTCP summary from the callee (call established: {m.group(3)})")
        continue
    d = callee['rtt'] / 2 + 2 * callee['jitter'] + 20
    ident = 0.024 * d + (0.11 * (d - 177.3) if d > 177.3 else 0)
    ppl = callee['loss']
    r = 93.2 - ident - 95 * ppl / (ppl + 25.1)
    mos = 1 if r < 0 else 4.5 if r > 100 else 1 + 0.035 * r + 7e-6 * r * (r - 60) * (100 - r)
    print(f"{m.group(1):8} run {m.group(2)}: callee received {callee['pr']} lost {callee['lost']} ({ppl:.2f} %),"
          f" jitter {callee['jitter']:.1f} ms, RTT {callee['rtt']:.1f} ms, MOS {mos:.2f}")
    rows.setdefault(m.group(1), []).append((ppl, callee['jitter'], callee['rtt'], mos))
for system, vals in rows.items():
    med = [statistics.median(v[i] for v in vals) for i in range(4)]
    print(f"MEDIAN {system:8} of {len(vals)}: loss {med[0]:.2f} %, jitter {med[1]:.1f} ms, RTT {med[2]:.1f} ms,"
          f" MOS {med[3]:.2f}")
EOF
echo "logs: $out"

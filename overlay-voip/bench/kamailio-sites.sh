# Sourced by calls.sh: two sites, each a Kamailio with its own rtpengine (userspace forwarding,
# --table=-1), chained: caller -> Kamailio a (127.0.0.2) -> Kamailio b (127.0.0.3) -> callee. Each
# rtpengine has an interface towards its phones ("ext", the site's address) and one towards the other
# site ("int", 127.0.0.12 and .13). With LOSS or DELAY_MS set, each site advertises a face of the impairing
# forwarder (127.0.0.14 for a, .15 for b) towards the other, and UdpImpairer carries the media between
# them with the overlay's loss model: the same impairment as the Hopwise relays' overlay link.

rtpengine_start() { # SITE SIP_IP INT_IP INT_ADVERTISED
  local site=$1 ip=$2 int_ip=$3 int_adv=$4
  # Two threads: the machine's cores. Ports from 20000 on each address, clear of SIPp's and the relays'.
  ${relay_sched[@]+"${relay_sched[@]}"} rtpengine --config-file=none --table=-1 --interface="ext/$ip" --interface="int/$int_ip!$int_adv" \
    --listen-ng="$ip:2223" --port-min=20000 --port-max="$rtp_max" --foreground --log-stderr --log-level=4 \
    --num-threads=2 --delete-delay=1 --pidfile="$out/rtpengine-$site.pid" > "$out/rtpengine-$site.out" 2>&1 &
  pids+=($!)
  rtpengine_pids+=($!)
}

kamailio_start() { # SITE SIP_IP NEXT_HOP OFFER_DIRECTIONS ANSWER_DIRECTIONS
  local site=$1 ip=$2 next=$3 offer=$4 answer=$5
  local common="replace-origin replace-session-connection ICE=remove"
  sed -e "s/@SIP_IP@/$ip/" -e "s/@NG_IP@/$ip/" -e "s/@RTPENGINE_FLAGS@/$offer $common/" \
    -e "s/@RTPENGINE_REPLY_FLAGS@/$answer $common/" -e "s|@NEXT_HOP@|$next|" \
    "$bench/kamailio.cfg" > "$out/kamailio-$site.cfg"
  # -DD: stay in the foreground (the script owns the processes); -E: log to stderr.
  ${relay_sched[@]+"${relay_sched[@]}"} kamailio -f "$out/kamailio-$site.cfg" -P "$out/kamailio-$site.pid" -DD -E -Y "$out" > "$out/kamailio-$site.out" 2>&1 &
  pids+=($!)
  kamailio_main_pids+=($!)
}

bound() { # COUNT PATTERN: wait until that many UDP sockets match
  local i
  for ((i = 0; i < 200; i++)); do
    (($(ss -Huln | grep -cE "$2") >= $1)) && return 0
    sleep 0.1
  done
  echo "kamailio-sites.sh: sockets $2 not bound" >&2
  return 1
}

start_kamailio_sites() {
  rtpengine_pids=()
  kamailio_main_pids=()
  local face_a=127.0.0.12 face_b=127.0.0.13
  rtp_max=29999
  if [[ $loss != 0 || $delay_ms != 0 ]]; then
    face_a=127.0.0.14 face_b=127.0.0.15
    # The forwarder needs two sockets per port of the range: keep it to what the lossy runs' few calls use.
    rtp_max=20399
    java -cp "$cp_bench" net.hopwise.voip.bench.UdpImpairer 127.0.0.12 127.0.0.14 127.0.0.13 127.0.0.15 \
      20000 "$rtp_max" "$loss" "$delay_ms" 11 > "$out/impairer.out" 2>&1 &
    impairer_pid=$!
    pids+=($impairer_pid)
    wait_for "$out/impairer.out" '^READY' 60
  fi
  rtpengine_start a 127.0.0.2 127.0.0.12 "$face_a"
  rtpengine_start b 127.0.0.3 127.0.0.13 "$face_b"
  # Kamailio pings its rtpengine at start and leaves it disabled for a minute if it does not answer.
  bound 2 '127\.0\.0\.[23]:2223 '
  kamailio_start a 127.0.0.2 '$du = "sip:127.0.0.3:5060";' "direction=ext direction=int" "direction=int direction=ext"
  kamailio_start b 127.0.0.3 '' "direction=int direction=ext" "direction=ext direction=int"
  bound 2 '127\.0\.0\.[23]:5060 '
  sleep 1
}

# Every process of both sites: the rtpengines and each Kamailio with its worker children.
kamailio_pids() {
  local all=("${rtpengine_pids[@]}") p
  for p in "${kamailio_main_pids[@]}"; do
    all+=("$p")
    all+=($(ps -o pid= --ppid "$p"))
  done
  echo "${all[@]}"
}

stop_kamailio_sites() {
  local p
  for p in "${kamailio_main_pids[@]}" "${rtpengine_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [[ -n ${impairer_pid:-} ]]; then
    kill "$impairer_pid" 2>/dev/null || true
    wait "$impairer_pid" 2>/dev/null || true
    grep -h '^IMPAIRER' "$out/impairer.out" || true
  fi
}

#!/usr/bin/env bash
# Start-up time and resident memory of the admin jar with the demo overlay, beside a bare core node
# (NodeDaemon from the same jar's libraries) as the baseline: what Spring and the service add.
#
#   ./mvnw -q -pl overlay-admin -am package -DskipTests && overlay-admin/bench/startup.sh [runs]
#
# Start-up: from launching the JVM to /actuator/health/readiness answering UP (the demo's links are
# up and routes computed), and Spring's own "Started ... in" figure. Memory: VmRSS 30 s after start.
# Prints a markdown table for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-3}
JAR=$(ls overlay-admin/target/overlay-admin-*.jar | grep -v original | head -1)
PORT=${PORT:-18080}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
unzip -q "$JAR" 'BOOT-INF/lib/*' -d "$WORK"

now_ms() { date +%s%3N; }
rss_mb() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }

admin_rows=()
for run in $(seq 1 "$RUNS"); do
  start=$(now_ms)
  java -jar "$JAR" --server.port="$PORT" > "$WORK/admin.log" 2>&1 &
  pid=$!
  until curl -sf "http://localhost:$PORT/actuator/health/readiness" 2>/dev/null | grep -q '"UP"'; do
    kill -0 "$pid" 2>/dev/null || { cat "$WORK/admin.log"; exit 1; }
    sleep 0.05
  done
  ready=$(( $(now_ms) - start ))
  spring=$(grep -o 'Started AdminApplication in [0-9.]* seconds' "$WORK/admin.log" | grep -o '[0-9.]*' | head -1)
  sleep $(( 30 - ready / 1000 ))
  rss=$(rss_mb "$pid")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  admin_rows+=("$ready $spring $rss")
done

base_rows=()
for run in $(seq 1 "$RUNS"); do
  start=$(now_ms)
  coproc NODE { exec java -cp "$WORK/BOOT-INF/lib/*" net.hopwise.overlay.NodeDaemon --name bench --bind 127.0.0.1:18100 \
      --until-stdin-closes --insecure; }
  pid=$NODE_PID
  read -r line <&"${NODE[0]}"
  [[ $line == READY* ]] || { echo "node daemon said: $line"; exit 1; }
  ready=$(( $(now_ms) - start ))
  sleep $(( 30 - ready / 1000 ))
  rss=$(rss_mb "$pid")
  eval "exec ${NODE[1]}>&-"
  wait "$pid" 2>/dev/null || true
  base_rows+=("$ready $rss")
done

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
a_ready=$(printf '%s\n' "${admin_rows[@]}" | cut -d' ' -f1 | median)
a_spring=$(printf '%s\n' "${admin_rows[@]}" | cut -d' ' -f2 | median)
a_rss=$(printf '%s\n' "${admin_rows[@]}" | cut -d' ' -f3 | median)
b_ready=$(printf '%s\n' "${base_rows[@]}" | cut -d' ' -f1 | median)
b_rss=$(printf '%s\n' "${base_rows[@]}" | cut -d' ' -f2 | median)

echo "| process | start to ready | Spring's \"Started in\" | RSS after 30 s |"
echo "|---|---|---|---|"
echo "| admin jar, demo overlay (5 nodes, traffic, dashboard API) | ${a_ready} ms | ${a_spring} s | ${a_rss} MiB |"
echo "| baseline: bare core node (NodeDaemon), same libraries | ${b_ready} ms | - | ${b_rss} MiB |"
echo
echo "Median of $RUNS runs each; every run: $(printf '%s; ' "${admin_rows[@]}")| baseline: $(printf '%s; ' "${base_rows[@]}")"
echo "$(date -u +%Y-%m-%d), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo),"\
  "$(java -version 2>&1 | head -1), default JVM options"

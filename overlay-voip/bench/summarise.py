#!/usr/bin/env python3
"""Medians of the runs of record: reads the output series.sh appended to a results file and prints,
per configuration, each run's figures and their median (a figure of record is the median of three).
Besides what calls.sh prints, per run: the packets of the captured calls lost on the way to the
callee's application (callee_app_loss: not echoed, so lost on the way or dropped by SIPp's echoing
socket), and over the round trip (round_trip_loss: sent by the caller, not back at its socket). A
direct call has no relay, so its figures are SIPp's own: what relays add is theirs minus direct's.
Usage: overlay-voip/bench/summarise.py overlay-voip/bench/results-*.txt"""
import re
import statistics
import sys

FIELDS = [
    ("ok", r"successful=(\d+)"), ("failed", r"failed=(\d+)"),
    ("pdd_p50", r"^PDD .*? p50=([\d.]+)"), ("pdd_p99", r"^PDD .*? p99=([\d.]+)"),
    ("cpu_cores", r"relay_cpu_cores=([\d.]+)"), ("cpu_per_call_pct", r"cpu_per_call_pct=([\d.]+)"),
    ("uac_cores", r"sipp_uac_cores=([\d.]+)"), ("uas_cores", r"sipp_uas_cores=([\d.]+)"),
    ("drops_other", r"every other socket=(\d+)"),
    ("fwd_loss", r"^RTP forward .*? loss=([\d.]+)%"), ("echo_loss", r"^RTP echo .*? loss=([\d.]+)%"),
    ("fwd_p50_us", r"^RTP forward .*? p50=([\d.]+)"), ("fwd_p99_us", r"^RTP forward .*? p99=([\d.]+)"),
    ("echo_p50_us", r"^RTP echo .*? p50=([\d.]+)"), ("echo_p99_us", r"^RTP echo .*? p99=([\d.]+)"),
    ("jitter_ms", r"^RTP forward .*? jitter_ms=([\d.]+)"),
    ("fwd_mos", r"^RTP forward .*? mos=([\d.]+)"), ("echo_mos", r"^RTP echo .*? mos=([\d.]+)"),
    ("fwd_loss_playout", r"^RTP forward .*? loss_at_playout=([\d.]+)%"),
    ("echo_loss_playout", r"^RTP echo .*? loss_at_playout=([\d.]+)%"),
    ("fwd_mos_playout", r"^RTP forward .*? mos_at_playout=([\d.]+)"),
    ("echo_mos_playout", r"^RTP echo .*? mos_at_playout=([\d.]+)"),
    ("relay_lost", r"^relay: MEDIA .*? lost=(\d+)"), ("relay_late", r"^relay: MEDIA .*? late=(\d+)"),
    ("sched_run_cores", r"^SCHED .*? running=([\d.]+)"), ("sched_wait", r"^SCHED .*? waiting for a core=([\d.]+)"),
    # With SYSCALLS=1: the first relay process's system calls per relayed packet (Hopwise's or rtpengine's).
    ("syscalls_per_packet", r"^SYSCALLS .*? comm=(?:java|rtpengine) .*?per_packet=([\d.]+)"),
    ("fwd_sent", r"^RTP forward .*? sent=(\d+)"), ("echo_sent", r"^RTP echo .*? sent=(\d+)"),
    ("echo_received", r"^RTP echo .*? received=(\d+)"),
    ("uas_socket_drops", r"^DROPS .*?\b40000: (\d+)"),
    # UACS runs: the callers' send phases over the sampled calls (phases.py's first line, the callers').
    ("phases_spread_ms", r"^PHASES .*? spread_ms=([\d.]+)"), ("phases_most_1ms", r"^PHASES .*? most_within_1ms=(\d+)"),
]
# HOPS=1 runs: hops.py's split of each direction's added delay into ingress node and egress node (µs).
for d, tag in (("forward", "fwd"), ("echo", "echo")):
    for node in ("ingress", "egress"):
        for p in ("p50", "p99"):
            FIELDS.append((f"{tag}_{node}_{p}_us", rf"^HOPS {d} .*? {node}_node_us .*?{p}=([\d.]+)"))
DERIVED = [
    ("callee_app_loss", lambda r: 100 * (1 - r["echo_sent"] / r["fwd_sent"])),
    ("round_trip_loss", lambda r: 100 * (1 - r["echo_received"] / r["fwd_sent"])),
]

runs = {}
label = None
for path in sys.argv[1:]:
    for line in open(path):
        m = re.match(r"=== (.*?) run \d", line)
        if m:
            label = m.group(1)
            runs.setdefault(label, []).append({})
            continue
        if label is None:
            continue
        for name, pattern in FIELDS:
            m = re.search(pattern, line)
            if m and name not in runs[label][-1]:
                runs[label][-1][name] = float(m.group(1))

for rs in runs.values():
    for r in rs:
        if "ok" in r:
            r.setdefault("uas_socket_drops", 0.0)
        for name, f in DERIVED:
            if "fwd_sent" in r and "echo_sent" in r and "echo_received" in r and r["fwd_sent"]:
                r[name] = f(r)

for label, rs in runs.items():
    print(f"## {label}: {len(rs)} runs")
    for name in [n for n, _ in FIELDS] + [n for n, _ in DERIVED]:
        values = [r[name] for r in rs if name in r]
        if values:
            print(f"  {name:18} median {statistics.median(values):10.3f}   runs " + ", ".join(f"{v:g}" for v in values))

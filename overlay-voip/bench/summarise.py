#!/usr/bin/env python3
"""Medians of the runs of record: reads the output series.sh appended to a results file and prints,
per configuration, each run's figures and their median (a figure of record is the median of three).
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

for label, rs in runs.items():
    print(f"## {label}: {len(rs)} runs")
    for name, _ in FIELDS:
        values = [r[name] for r in rs if name in r]
        if values:
            print(f"  {name:18} median {statistics.median(values):10.3f}   runs " + ", ".join(f"{v:g}" for v in values))

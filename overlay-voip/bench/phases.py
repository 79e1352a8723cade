#!/usr/bin/env python3
"""When in each 20 ms the sampled calls send: for every captured RTP stream from one port (calls.sh's
probe.pcap, SIPp's SSRC 0xca11 then the call number), the median of its send times modulo the packet
interval, and how far apart the streams' phases lie. Independent phones send at phases spread over the
whole interval; SIPp's uac sends every call's packet within the same millisecond or so, so a relay
receives one call's packet from each of its calls at once every 20 ms, and the last of such a burst
waits for all the others to be forwarded first. Several sender ports (comma-separated: calls.sh's UACS
callers) are read together; a stream is keyed by port, SSRC and its payload's first byte (each caller
process streams a value of its own, so that the callee's echoes of two processes' calls with the same
SSRC are told apart too). With more than one sender port, or streams of more than one mark, it also
prints the most streams whose phases fall within any 1 ms of the interval (a burst's size in streams).
Usage: phases.py probe.pcap SENDER_PORT[,PORT...] [INTERVAL_MS, default 20]"""
import statistics
import sys

from hops import packets


def main():
    path, ports = sys.argv[1], {int(p) for p in sys.argv[2].split(',')}
    interval_ns = int(float(sys.argv[3]) * 1_000_000) if len(sys.argv) > 3 else 20_000_000
    streams = {}
    for t, sport, _, rtp in packets(path):
        if sport not in ports or len(rtp) < 12:
            continue
        key = (sport, int.from_bytes(rtp[8:12], 'big'), rtp[12] if len(rtp) > 12 else None)
        streams.setdefault(key, []).append(t)
    if not streams:
        sys.exit(f'phases.py: no RTP from port {sys.argv[2]} in {path}')
    phases = []
    for times in streams.values():
        middle = times[len(times) // 3:len(times) // 3 + 100]
        # Each send time as an offset from the first one's phase, within half an interval either way, so
        # that a stream sending at the wrap (some times just after a multiple of 20 ms, some just before)
        # has the median of where it sends, not of 0.1 and 19.9.
        ref = middle[0] % interval_ns
        offsets = ((t - ref + interval_ns // 2) % interval_ns - interval_ns // 2 for t in middle)
        phases.append(((ref + statistics.median(offsets)) % interval_ns) / 1e6)
    phases.sort()
    # The smallest arc of the interval's circle that holds every phase.
    gaps = [phases[i + 1] - phases[i] for i in range(len(phases) - 1)]
    gaps.append(phases[0] + interval_ns / 1e6 - phases[-1])
    spread = interval_ns / 1e6 - max(gaps)
    several = len(ports) > 1 or len({k[2] for k in streams}) > 1
    # The most phases within any 1 ms of the circle: how many of the sampled calls send together.
    densest = max(sum(1 for q in phases if (q - p) % (interval_ns / 1e6) < 1) for p in phases)
    print(f"PHASES streams={len(phases)} spread_ms={spread:.2f} of {interval_ns / 1e6:g} "
          + (f"most_within_1ms={densest} " if several else "")
          + f"phases_ms={' '.join(f'{p:.2f}' for p in phases)}")


if __name__ == '__main__':
    main()

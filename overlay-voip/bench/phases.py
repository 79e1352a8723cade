#!/usr/bin/env python3
"""When in each 20 ms the sampled calls send: for every captured RTP stream from one port (calls.sh's
probe.pcap, SIPp's SSRC 0xca11 then the call number), the median of its send times modulo the packet
interval, and how far apart the streams' phases lie. Independent phones send at phases spread over the
whole interval; SIPp's uac sends every call's packet within the same millisecond or so, so a relay
receives one call's packet from each of its calls at once every 20 ms, and the last of such a burst
waits for all the others to be forwarded first.
Usage: phases.py probe.pcap SENDER_PORT [INTERVAL_MS, default 20]"""
import statistics
import sys

from hops import packets


def main():
    path, port = sys.argv[1], int(sys.argv[2])
    interval_ns = int(float(sys.argv[3]) * 1_000_000) if len(sys.argv) > 3 else 20_000_000
    streams = {}
    for t, sport, _, rtp in packets(path):
        if sport != port or len(rtp) < 12:
            continue
        ssrc = int.from_bytes(rtp[8:12], 'big')
        streams.setdefault(ssrc, []).append(t)
    if not streams:
        sys.exit(f'phases.py: no RTP from port {port} in {path}')
    phases = []
    for times in streams.values():
        middle = times[len(times) // 3:len(times) // 3 + 100]
        phases.append(statistics.median(t % interval_ns for t in middle) / 1e6)
    phases.sort()
    # The smallest arc of the interval's circle that holds every phase.
    gaps = [phases[i + 1] - phases[i] for i in range(len(phases) - 1)]
    gaps.append(phases[0] + interval_ns / 1e6 - phases[-1])
    spread = interval_ns / 1e6 - max(gaps)
    print(f"PHASES streams={len(phases)} spread_ms={spread:.2f} of {interval_ns / 1e6:g} "
          f"phases_ms={' '.join(f'{p:.2f}' for p in phases)}")


if __name__ == '__main__':
    main()

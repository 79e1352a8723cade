#!/usr/bin/env python3
"""Where a call's set-up spends its time, relay by relay, from one loopback capture of every SIP leg
and of the overlay link (calls.sh with SIPHOPS=1 writes it: sip-hops.pcap). Each SIP message is found
by its start line and Call-ID wherever it crosses (a phone's leg, Kamailio to Kamailio, or inside an
overlay datagram between two Hopwise relays, plaintext links only), and for the INVITE and for each
response to it (100, 180, 200) the legs are put in the order the message crossed them: the step from
one leg to the next is one relay's time (from its socket's input to its output), or, between two
Hopwise nodes, one node's send plus the other's input. Prints per message and step the median, p90
and p99 over the calls, in microseconds.
Usage: sip_hops.py sip-hops.pcap"""
import re
import statistics
import struct
import sys

START = re.compile(rb'(INVITE sip:|ACK sip:|BYE sip:|SIP/2\.0 (\d{3}) )')
CALL_ID = re.compile(rb'\r\n(?:Call-ID|i):\s*([^\r\n]+)\r\n', re.I)
CSEQ = re.compile(rb'\r\nCSeq:\s*\d+\s+([A-Z]+)\r\n', re.I)


def packets(path):
    with open(path, 'rb') as f:
        header = f.read(24)
        magic, = struct.unpack('<I', header[:4])
        nano = magic == 0xa1b23c4d
        link, = struct.unpack('<I', header[20:24])
        skip = {1: 14, 113: 16, 276: 20}.get(link)
        if skip is None:
            sys.exit(f'sip_hops.py: link type {link} not handled')
        while True:
            h = f.read(16)
            if len(h) < 16:
                return
            sec, frac, incl, _ = struct.unpack('<IIII', h)
            data = f.read(incl)
            t = sec * 1_000_000_000 + (frac if nano else frac * 1000)
            ip = data[skip:]
            if not ip or ip[0] >> 4 != 4 or ip[9] != 17:
                continue
            ihl = (ip[0] & 15) * 4
            src = '.'.join(str(b) for b in ip[12:16])
            dst = '.'.join(str(b) for b in ip[16:20])
            udp = ip[ihl:]
            if len(udp) < 8:
                continue
            sport, dport = struct.unpack('>HH', udp[:4])
            yield t, f'{src}:{sport}>{dst}:{dport}', udp[8:]


def messages(payload):
    """(kind, call-id) of every SIP message in a payload; a coalesced overlay datagram may hold several."""
    starts = [m for m in START.finditer(payload)]
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(payload)
        text = payload[m.start():end]
        cid, cseq = CALL_ID.search(text), CSEQ.search(text)
        if not cid or not cseq or cseq.group(1) != b'INVITE':
            continue
        kind = 'INVITE' if m.group(1).startswith(b'INVITE') else (
            m.group(2).decode() if m.group(2) else None)
        if kind:
            yield kind, cid.group(1).strip()


def main():
    first = {}  # (kind, call-id) -> {leg: first time seen}
    for t, leg, payload in packets(sys.argv[1]):
        for kind, cid in messages(payload):
            first.setdefault((kind, cid), {}).setdefault(leg, t)
    by_kind = {}
    for (kind, _), legs in first.items():
        by_kind.setdefault(kind, []).append(legs)
    for kind in sorted(by_kind, key=lambda k: (k != 'INVITE', k)):
        calls = by_kind[kind]
        # The legs every call's message crossed, in the order it crossed them (median over calls).
        common = set.intersection(*(set(c) for c in calls))
        if len(common) < 2:
            continue
        order = sorted(common, key=lambda leg: statistics.median(c[leg] - min(c.values()) for c in calls))
        for a, b in zip(order, order[1:]):
            d = sorted((c[b] - c[a]) / 1000 for c in calls)
            pct = lambda p: d[min(len(d) - 1, int(p / 100 * len(d)))]
            print(f'SIPHOP {kind:6} {a:>26} -> {b:<26} n={len(d)} us p50={pct(50):.1f} p90={pct(90):.1f}'
                  f' p99={pct(99):.1f} mean={statistics.mean(d):.1f}')


if __name__ == '__main__':
    main()

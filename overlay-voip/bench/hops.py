#!/usr/bin/env python3
"""Where a relayed RTP packet spends its time, hop by hop, from loopback captures (nanosecond pcap):
the phones' legs (calls.sh's probe.pcap) and the overlay link between the two relays (overlay.pcap,
written by calls.sh with HOPS=1). A packet is found on the overlay link by its RTP header inside the
overlay datagram (SIPp's SSRC 0xca11 then the call number, so only plaintext links: with link security
the payload is sealed), and on a loopback GSO capture one captured packet may carry several datagrams.
For each direction it prints the time from the phone's packet reaching the first relay's socket to the
overlay datagram leaving that node (ingress node), and from the overlay datagram to the packet leaving
the second relay for the phone (egress node). Several SIPp callers (comma-separated media ports: calls.sh's
UACS) number their calls from the same SSRC each; a packet is keyed by its payload's first byte too,
which each caller process streams a value of its own for.
Usage: hops.py probe.pcap overlay.pcap CALLER_MEDIA_PORT[,PORT...] CALLEE_MEDIA_PORT NODE_A_PORT NODE_B_PORT"""
import struct
import sys


def packets(path):
    with open(path, 'rb') as f:
        header = f.read(24)
        magic, = struct.unpack('<I', header[:4])
        nano = magic == 0xa1b23c4d
        link, = struct.unpack('<I', header[20:24])
        skip = {1: 14, 113: 16, 276: 20}.get(link)
        if skip is None:
            sys.exit(f'hops.py: link type {link} not handled')
        while True:
            h = f.read(16)
            if len(h) < 16:
                return
            sec, frac, incl, _ = struct.unpack('<IIII', h)
            data = f.read(incl)
            t = sec * 1_000_000_000 + (frac if nano else frac * 1000)
            ip = data[skip:]
            if not ip:
                continue
            if ip[0] >> 4 == 4:
                ihl = (ip[0] & 15) * 4
                if ip[9] != 17:
                    continue
                udp = ip[ihl:]
            elif ip[0] >> 4 == 6:
                if ip[6] != 17:
                    continue
                udp = ip[40:]
            else:
                continue
            if len(udp) < 8:
                continue
            sport, dport = struct.unpack('>HH', udp[:4])
            yield t, sport, dport, udp[8:]


def rtp_key(rtp):
    """(mark, ssrc, seq) of a SIPp RTP packet: the mark is its payload's first byte (None if not captured)."""
    ssrc, = struct.unpack('>I', rtp[8:12])
    seq, = struct.unpack('>H', rtp[2:4])
    return rtp[12] if len(rtp) > 12 else None, ssrc, seq


def rtp_keys(payload):
    """Every key (rtp_key) of a SIPp RTP header inside a payload (overlay datagrams, maybe coalesced)."""
    i = payload.find(b'\xca\x11')
    while i >= 0:
        if i >= 8 and payload[i - 8] & 0xc0 == 0x80 and i + 4 <= len(payload):
            yield rtp_key(payload[i - 8:i + 5])
        i = payload.find(b'\xca\x11', i + 1)


def pct(values, p):
    if not values:
        return float('nan')
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(round(p / 100 * len(values) + 0.5)) - 1))]


def main():
    probe, overlay = sys.argv[1], sys.argv[2]
    callers = {int(p) for p in sys.argv[3].split(',')}
    callee, node_a, node_b = map(int, sys.argv[4:7])
    # direction name -> stage -> {(mark, ssrc, seq): first time seen}
    stages = {d: {s: {} for s in ('phone_out', 'overlay', 'phone_in')} for d in ('forward', 'echo')}
    for t, sport, dport, payload in packets(probe):
        if len(payload) < 12 or payload[8:10] != b'\xca\x11':
            continue
        key = rtp_key(payload)
        if sport in callers:
            stages['forward']['phone_out'].setdefault(key, t)
        elif dport == callee:
            stages['forward']['phone_in'].setdefault(key, t)
        elif sport == callee:
            stages['echo']['phone_out'].setdefault(key, t)
        elif dport in callers:
            stages['echo']['phone_in'].setdefault(key, t)
    for t, sport, dport, payload in packets(overlay):
        direction = 'forward' if (sport, dport) == (node_a, node_b) else 'echo' if (sport, dport) == (node_b, node_a) else None
        if direction:
            for key in rtp_keys(payload):
                stages[direction]['overlay'].setdefault(key, t)
    for d, s in stages.items():
        ingress, egress, total = [], [], []
        for key, t0 in s['phone_out'].items():
            t1, t2 = s['overlay'].get(key), s['phone_in'].get(key)
            if t1 is not None and t2 is not None:
                ingress.append((t1 - t0) / 1000)
                egress.append((t2 - t1) / 1000)
                total.append((t2 - t0) / 1000)
        line = f'HOPS {d} matched={len(total)}'
        for name, v in (('ingress_node', ingress), ('egress_node', egress), ('both', total)):
            line += f' {name}_us p50={pct(v, 50):.1f} p90={pct(v, 90):.1f} p99={pct(v, 99):.1f} p999={pct(v, 99.9):.1f} mean={sum(v) / len(v) if v else float("nan"):.1f}'
        print(line)


if __name__ == '__main__':
    main()

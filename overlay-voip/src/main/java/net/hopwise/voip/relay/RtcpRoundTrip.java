package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;

/**
 * A round-trip time read from the phones' own RTCP timing, as RFC 3550 section 6.4.1 has a sender
 * compute it, but on the relay's clock: the relay notes when it passed a sender report one way (its
 * NTP timestamp's middle 32 bits are what the answer quotes as LSR), and when a reception report
 * quoting that LSR comes back the other way, the round trip is the time between the two less the
 * answering phone's own holding time (DLSR). One instance per direction of a stream:
 * <ul>
 * <li>reports passed to the local phone, answered by it: the access leg, relay to phone and back;</li>
 * <li>reports the local phone sent over the overlay, answered by the far phone: relay to far phone
 *     and back, across the overlay and the far access leg.</li>
 * </ul>
 * The two together are the round trip the local phone itself computes from the far phone's reports.
 * Only reads the packet (which the relay forwards unchanged); any bytes are safe. Not thread-safe:
 * the relay's loop.
 */
final class RtcpRoundTrip {
    private static final int SR = 200;
    private static final int RR = 201;
    private static final int HEADER = 8;
    private static final int SENDER_INFO = 20;
    private static final int BLOCK = 24;
    /** How many sender reports are remembered: a reception report quotes the latest one it received. */
    private static final int REMEMBERED = 4;

    private final long[] lsr = new long[REMEMBERED];
    private final long[] passedAt = new long[REMEMBERED];
    private final boolean[] used = new boolean[REMEMBERED];
    private int next;
    private long lastRttNanos = -1;
    private long samples;

    /** A compound RTCP packet going one way: remembers its sender report, if it has one. */
    void passedOut(ByteBuf packet, long now) {
        int at = packet.readerIndex();
        int end = packet.writerIndex();
        while (end - at >= HEADER) {
            int first = packet.getUnsignedByte(at);
            int length = (packet.getUnsignedShort(at + 2) + 1) * 4;
            if ((first >> 6) != 2 || length > end - at) {
                return;
            }
            if (packet.getUnsignedByte(at + 1) == SR && length >= HEADER + SENDER_INFO) {
                long msw = packet.getUnsignedInt(at + 8);
                long lsw = packet.getUnsignedInt(at + 12);
                lsr[next] = ((msw & 0xffff) << 16) | (lsw >>> 16);
                passedAt[next] = now;
                used[next] = true;
                next = (next + 1) % REMEMBERED;
                return;
            }
            at += length;
        }
    }

    /** A compound RTCP packet coming back the other way: a round trip when a block quotes a remembered report. */
    void cameBack(ByteBuf packet, long now) {
        int at = packet.readerIndex();
        int end = packet.writerIndex();
        while (end - at >= HEADER) {
            int first = packet.getUnsignedByte(at);
            int type = packet.getUnsignedByte(at + 1);
            int length = (packet.getUnsignedShort(at + 2) + 1) * 4;
            if ((first >> 6) != 2 || length > end - at) {
                return;
            }
            int count = first & 0x1f;
            int blocks = type == SR ? at + HEADER + SENDER_INFO : at + HEADER;
            for (int i = 0; (type == SR || type == RR) && i < count && blocks + (i + 1) * BLOCK <= at + length; i++) {
                int block = blocks + i * BLOCK;
                long quoted = packet.getUnsignedInt(block + 16);
                long dlsr = packet.getUnsignedInt(block + 20);
                if (quoted != 0 && match(quoted, dlsr, now)) {
                    return;
                }
            }
            at += length;
        }
    }

    private boolean match(long quoted, long dlsr, long now) {
        for (int k = 0; k < REMEMBERED; k++) {
            if (used[k] && lsr[k] == quoted) {
                // DLSR is in units of 1/65536 s.
                long rtt = now - passedAt[k] - dlsr * 1_000_000_000L / 65536;
                if (rtt >= 0) {
                    lastRttNanos = rtt;
                    samples++;
                }
                return true;
            }
        }
        return false;
    }

    /** The last round trip in milliseconds, or -1 before any. */
    double lastMs() {
        return lastRttNanos < 0 ? -1 : lastRttNanos / 1e6;
    }

    long samples() {
        return samples;
    }
}

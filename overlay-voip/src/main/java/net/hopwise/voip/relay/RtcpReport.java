package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;

/**
 * What a phone last said, in an RFC 3550 sender or receiver report (section 6.4), about the media it
 * receives from the relay: the end-to-end view, access leg included, beside the relay's own counts.
 * {@link #read} is total: any bytes give the previous report or a new one, never an exception, and the
 * packet is only read (the relay forwards it unchanged).
 *
 * @param reports report blocks read so far on this stream
 * @param fractionLostPercent loss over the phone's last report interval, in percent
 * @param cumulativeLost packets the phone counts as lost since the stream began (may be negative with
 *     duplicates, RFC 3550 section 6.4.1)
 * @param jitterMs the phone's interarrival jitter in milliseconds, read at the clock rate of the codec
 *     the phone receives
 */
public record RtcpReport(long reports, double fractionLostPercent, long cumulativeLost, double jitterMs) {
    private static final int SR = 200;
    private static final int RR = 201;
    private static final int HEADER = 8;
    private static final int SENDER_INFO = 20;
    private static final int BLOCK = 24;

    /**
     * Reads the first report block of a compound RTCP packet (the block about the media the phone
     * receives from the relay, since the phone sees one source there).
     *
     * @param previous the stream's report so far, or null
     * @param clockRate the RTP clock rate of the media the phone receives, in which it counts its jitter
     * @return the new report, or {@code previous} when the packet holds no readable report block
     */
    static RtcpReport read(ByteBuf packet, RtcpReport previous, int clockRate) {
        int at = packet.readerIndex();
        int end = packet.writerIndex();
        while (end - at >= HEADER) {
            int first = packet.getUnsignedByte(at);
            int type = packet.getUnsignedByte(at + 1);
            int length = (packet.getUnsignedShort(at + 2) + 1) * 4;
            if ((first >> 6) != 2 || length > end - at) {
                // Not RTCP version 2, or a length past the datagram: nothing in it can be trusted.
                return previous;
            }
            int count = first & 0x1f;
            int blocks = type == SR ? at + HEADER + SENDER_INFO : at + HEADER;
            if ((type == SR || type == RR) && count > 0 && blocks + BLOCK <= at + length) {
                int fraction = packet.getUnsignedByte(blocks + 4);
                // 24-bit two's complement (RFC 3550 appendix A.3 clamps it to that range).
                int cumulative = packet.getUnsignedMedium(blocks + 5);
                if ((cumulative & 0x800000) != 0) {
                    cumulative -= 1 << 24;
                }
                long jitter = packet.getUnsignedInt(blocks + 12);
                long n = previous == null ? 1 : previous.reports() + 1;
                return new RtcpReport(n, 100.0 * fraction / 256, cumulative, jitter * 1000.0 / clockRate);
            }
            at += length;
        }
        return previous;
    }

    /**
     * The E-model MOS from the phone's own view: its last interval's loss and its jitter (a jitter
     * buffer of twice that), on top of a one-way delay the relay supplies, for {@code codec}.
     */
    public double mos(EModel.Codec codec, double oneWayDelayMs) {
        return EModel.mos(rating(codec, oneWayDelayMs));
    }

    /** The E-model R behind {@link #mos}. */
    public double rating(EModel.Codec codec, double oneWayDelayMs) {
        return EModel.rating(codec, oneWayDelayMs + 2 * jitterMs, fractionLostPercent, 1);
    }
}

package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A SIP message as one relay hands it to another over the overlay: the message bytes unchanged,
 * behind a short header that carries, per m= line of the SDP the message holds, the overlay port
 * where the sending relay takes that stream's RTP and RTCP (0 for a rejected stream or no SDP).
 * The ports travel beside the SIP message rather than inside it, so nothing relay-specific can
 * leak to a phone.
 *
 * <pre>
 * 'H' 0x01  count(u8)  port(u16) x count  SIP message...
 * </pre>
 */
public final class RelayEnvelope {
    static final int MAGIC = 'H';
    static final int VERSION = 1;
    /** More m= lines than any call the relay carries; a larger count marks a broken envelope. */
    static final int MAX_STREAMS = 32;

    private RelayEnvelope() {}

    /** The envelope of {@code sip} (not consumed) with {@code ports}, in a new buffer the caller owns. */
    public static ByteBuf encode(ByteBuf sip, int[] ports, ByteBufAllocator alloc) {
        int n = ports == null ? 0 : ports.length;
        if (n > MAX_STREAMS) {
            throw new IllegalArgumentException("too many streams: " + n);
        }
        ByteBuf out = alloc.buffer(3 + 2 * n + sip.readableBytes());
        out.writeByte(MAGIC).writeByte(VERSION).writeByte(n);
        for (int i = 0; i < n; i++) {
            out.writeShort(ports[i]);
        }
        out.writeBytes(sip, sip.readerIndex(), sip.readableBytes());
        return out;
    }

    /**
     * Reads the header of {@code envelope}, moving its reader index to the SIP message; null when the
     * header is malformed (the caller drops and counts it).
     */
    public static int[] decode(ByteBuf envelope) {
        if (envelope.readableBytes() < 3) {
            return null;
        }
        int at = envelope.readerIndex();
        if (envelope.getUnsignedByte(at) != MAGIC || envelope.getUnsignedByte(at + 1) != VERSION) {
            return null;
        }
        int n = envelope.getUnsignedByte(at + 2);
        if (n > MAX_STREAMS || envelope.readableBytes() < 3 + 2 * n) {
            return null;
        }
        int[] ports = new int[n];
        for (int i = 0; i < n; i++) {
            ports[i] = envelope.getUnsignedShort(at + 3 + 2 * i);
        }
        envelope.readerIndex(at + 3 + 2 * n);
        return ports;
    }
}

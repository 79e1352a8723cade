package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import net.hopwise.overlay.session.ReliableSessionReceiver;
import net.hopwise.overlay.session.SessionEndpoint;
import net.hopwise.overlay.session.SessionHeader;
import net.hopwise.overlay.wire.HeaderBytes;

/**
 * Builds the routed packets of reliable sessions: route and session headers, with the acknowledgement
 * of the other direction riding along, assembled in one scratch array and copied once, in front of
 * the payload where the session keeps it when it can, with the link headroom free in front so that
 * the first link writes its header there instead of copying the packet.
 */
final class SessionPacketBuilder {
    private final ByteBufAllocator allocator;
    private final int linkHeadroom;
    /** Where the headers of each session packet are assembled before one copy into its buffer. */
    private final HeaderBytes headers = new HeaderBytes(256);

    SessionPacketBuilder(ByteBufAllocator allocator, int linkHeadroom) {
        this.allocator = allocator;
        this.linkHeadroom = linkHeadroom;
    }

    /**
     * A routed packet of a session in a buffer of its own, with the acknowledgement of the other
     * direction when there is one, and the link headroom in front of it.
     */
    ByteBuf packet(SessionEndpoint s, int kind, int flags, int ackInterval, long incarnation,
            int sequence, ByteBuf payload) {
        int length = payload == null ? 0 : payload.readableBytes();
        ByteBuf p = allocator.ioBuffer(linkHeadroom + SessionHeader.PAYLOAD_OFFSET + length);
        p.setIndex(linkHeadroom, linkHeadroom);
        writeSessionHeaders(headers.clear(), s, kind, flags, ackInterval, incarnation, sequence);
        headers.appendTo(p);
        if (length > 0) {
            p.writeBytes(payload, payload.readerIndex(), length);
        }
        return p;
    }

    /**
     * A session data packet built around its payload where the session keeps it: the headers go into
     * the headroom in front of the payload, and the packet is a view of the same buffer with a
     * reference of its own. Only for a first transmission: nothing else has used that headroom yet.
     */
    ByteBuf inPlace(SessionEndpoint s, int flags, int ackInterval, long incarnation,
            int sequence, ByteBuf payload) {
        int start = payload.readerIndex() - SessionHeader.PAYLOAD_OFFSET;
        writeSessionHeaders(headers.clear(), s, SessionHeader.KIND_DATA, flags, ackInterval, incarnation, sequence);
        headers.copyTo(payload, start);
        ByteBuf p = payload.retainedDuplicate();
        p.readerIndex(start);
        return p;
    }

    private void writeSessionHeaders(HeaderBytes h, SessionEndpoint s, int kind, int flags, int ackInterval,
            long incarnation, int sequence) {
        h.putBytes(s.routeHeader());
        ReliableSessionReceiver rx = s.receiver();
        long ackIncarnation = 0;
        int cumulative = 0;
        int window = 0;
        int echo = 0;
        if (rx.started()) {
            flags |= SessionHeader.FLAG_ACK;
            ackIncarnation = rx.incarnation();
            cumulative = rx.cumulative();
            window = rx.advertisedWindow();
            echo = rx.ackSent();
        }
        SessionHeader.write(h, kind, flags, ackInterval, incarnation, sequence, ackIncarnation, cumulative, window,
                echo);
    }
}

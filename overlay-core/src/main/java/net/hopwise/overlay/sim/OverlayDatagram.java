package net.hopwise.overlay.sim;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;

/** A datagram a node engine transmitted, carried to the engine at the far end. */
final class OverlayDatagram extends Packet {
    /** IPv4 and UDP headers, which a real link carries too and which serialisation must count. */
    static final int IP_UDP_HEADER_BYTES = 28;

    private final InetSocketAddress source;
    private final ByteBuf datagram;

    OverlayDatagram(InetSocketAddress source, ByteBuf datagram, long flow) {
        super(datagram.readableBytes() + IP_UDP_HEADER_BYTES, flow);
        this.source = source;
        this.datagram = datagram;
    }

    @Override
    protected void arrive(SimLink via, long nowNanos) {
        via.to().receiveDatagram(source, datagram, nowNanos);
    }

    @Override
    protected void discard() {
        datagram.release();
    }
}

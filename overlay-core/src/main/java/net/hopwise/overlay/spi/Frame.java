package net.hopwise.overlay.spi;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * A received datagram on its way through a node's stages: a flyweight, one per node, filled by the
 * frame stage for each datagram and reused for the next, so that no object is made per packet.
 *
 * <p>By the time a stage sees it the header is sound (magic, version, length), the sender is a
 * configured neighbour and the datagram came from where that neighbour is (hellos excepted: they are
 * what moves a neighbour). The datagram belongs to the caller of the chain: a stage that keeps or
 * forwards its bytes takes a reference of its own ({@code retain}, {@code retainedSlice}).
 */
public final class Frame {
    private int type;
    private LinkView link;
    private ByteBuf datagram;
    private InetSocketAddress sender;
    private long nowNanos;
    /** The body view, made on first use and shared by the stages this frame passes. */
    private ByteBuf body;

    /** Fills the holder for the next datagram; for the frame stage. */
    public Frame set(int type, LinkView link, ByteBuf datagram, InetSocketAddress sender, long nowNanos) {
        this.type = type;
        this.link = link;
        this.datagram = datagram;
        this.sender = sender;
        this.nowNanos = nowNanos;
        this.body = null;
        return this;
    }

    /** Drops the references to the last datagram once the chain is done with it. */
    public void clear() {
        link = null;
        datagram = null;
        sender = null;
        body = null;
    }

    /** The header's packet type code: a {@link PacketType} code or one a module registered. */
    public int type() {
        return type;
    }

    /** The core packet type, or null for a module's. */
    public PacketType packetType() {
        return PacketType.ofCode(type);
    }

    /** The link it arrived on. */
    public LinkView link() {
        return link;
    }

    /** The whole datagram, header included. */
    public ByteBuf datagram() {
        return datagram;
    }

    /**
     * A view of the body only (no reference of its own), from its first byte: one view per frame, made
     * on first use and reset to the whole body on each call, so a stage may read it with relative reads
     * but must not keep it or change its bytes for the stages after it.
     */
    public ByteBuf body() {
        if (body == null) {
            body = WireHeader.body(datagram);
        } else {
            body.setIndex(0, body.capacity());
        }
        return body;
    }

    /** The header's flags. */
    public int flags() {
        return WireHeader.flags(datagram);
    }

    /** The link sequence number the previous hop stamped. */
    public long linkSequence() {
        return WireHeader.linkSequence(datagram);
    }

    /** The UDP address it came from; null where the transport has none (a simulated wire may). */
    public InetSocketAddress sender() {
        return sender;
    }

    /** The node's clock when the datagram arrived. */
    public long nowNanos() {
        return nowNanos;
    }
}

package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * The first stage: turns a received datagram into a {@link Frame} for the stages above, or drops it
 * with its reason counted. It checks the header (magic, version, type, length), that the sender is a
 * configured neighbour and the datagram is meant for this node, and that it came from where that
 * neighbour is: only a hello may come from elsewhere, since a hello that proves it is fresh is what
 * moves a neighbour; anything else from elsewhere would let a third party keep a dead link alive or
 * feed it data. A module's type passes only once a module claimed it.
 */
final class FrameStage implements Stage {
    static final String NAME = "frame";

    private final NodeContext node;
    private final NodeCounters counters;
    /** The one frame of this node, refilled for each datagram. */
    private final Frame frame = new Frame();
    private final boolean[] moduleTypes = new boolean[256];
    private boolean closed;

    FrameStage(NodeContext node) {
        this.node = node;
        this.counters = node.counters();
    }

    void claim(int type) {
        moduleTypes[type] = true;
    }

    boolean claimed(int type) {
        return moduleTypes[type];
    }

    /**
     * Checks one received datagram: the frame to pass up, or null when it was dropped (counted). The
     * caller keeps ownership of the datagram, and clears the frame when the chain is done with it.
     */
    Frame accept(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
        if (closed) {
            return null; // a read that raced with stop: whatever it would create could never be released
        }
        node.advance(nowNanos);
        counters.add(NodeCounters.PACKETS_RECEIVED, 1);
        counters.add(NodeCounters.BYTES_RECEIVED, datagram.readableBytes());
        DropReason bad = WireHeader.check(datagram);
        if (bad != null) {
            counters.drop(bad);
            return null;
        }
        int type = WireHeader.typeCode(datagram);
        if (WireHeader.isModuleType(type) && !moduleTypes[type]) {
            counters.drop(DropReason.UNKNOWN_TYPE);
            return null;
        }
        long receiver = WireHeader.receiver(datagram);
        Neighbour n = node.neighbour(WireHeader.sender(datagram));
        if (n == null || (receiver != 0 && receiver != node.selfId())) {
            counters.drop(DropReason.NOT_A_NEIGHBOUR);
            return null;
        }
        if (type != PacketType.HELLO.code() && from != null && !from.equals(n.address)) {
            counters.drop(DropReason.WRONG_ADDRESS);
            return null;
        }
        n.count(Neighbour.PACKETS_RECEIVED, 1);
        n.count(Neighbour.BYTES_RECEIVED, datagram.readableBytes());
        long now = node.now();
        if (from == null || from.equals(n.address)) {
            n.lastHeardNanos = now;
        }
        if (moduleTypes[type]) {
            // The core counts the link sequence of its own types where it handles them; a module's
            // packets count towards the link's loss measurement here.
            n.monitor.onPacketReceived(WireHeader.linkSequence(datagram), now);
        }
        return frame.set(type, n, datagram, from, now);
    }

    @Override
    public void close() {
        closed = true;
    }
}

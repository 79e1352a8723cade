package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import net.hopwise.overlay.link.LinkStatistics;
import net.hopwise.overlay.realtime.RealTimeCodec;
import net.hopwise.overlay.realtime.RealTimeLinkReceiver;
import net.hopwise.overlay.realtime.RealTimeLinkSender;
import net.hopwise.overlay.spi.RealTimeReceiver;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.WireHeader;

/**
 * The real-time header in front of a module's body on a real-time channel:
 *
 * <pre>
 * 0  u32 real-time link sequence (as in every real-time packet, stamped per link)
 * 4  i32 microseconds left before the sender's deadline when the packet left (re-stamped on a resend)
 * 8  the module's body
 * </pre>
 *
 * <p>The deadline travels as time left, not as an instant, so that nodes whose clocks differ still
 * agree on it: each receiver takes off the link's one-way delay, estimated as half its smoothed round
 * trip.
 *
 * <p>The packets share each link's real-time channel (its numbering, history, NACKs and token bucket)
 * with the unicast flows of the {@link RealTimeStage} that owns this.
 */
final class ModuleRealTime {
    static final int HEADER = 8;
    private static final int OFFSET_REMAINING = 4;

    private final NodeContext node;
    private final RealTimeStage stage;
    private final ByteBufAllocator allocator;
    private final NodeCounters counters;
    /** The receivers of the modules' real-time types, by code; none until the node is built. */
    private RealTimeReceiver[] receivers = new RealTimeReceiver[256];

    ModuleRealTime(NodeContext node, RealTimeStage stage, ByteBufAllocator allocator, NodeCounters counters) {
        this.node = node;
        this.stage = stage;
        this.allocator = allocator;
        this.counters = counters;
    }

    /** Takes the receivers the modules registered, once the node is built. */
    void receivers(RealTimeReceiver[] receivers) {
        this.receivers = receivers;
    }

    boolean takes(int type) {
        return type >= 0 && type < receivers.length && receivers[type] != null;
    }

    /** @throws IllegalArgumentException when {@code body} does not fit a real-time datagram of this node */
    void requireFits(String module, ByteBuf body) {
        if (body.readableBytes() > node.maxBody() - HEADER) {
            throw new IllegalArgumentException("module " + module + ": a real-time body of " + body.readableBytes()
                    + " bytes exceeds the " + (node.maxBody() - HEADER) + " a real-time datagram of this node carries");
        }
    }

    /**
     * Sends a module's body (that fits) on the real-time channel to {@code via}, resendable until
     * {@code deadlineNanos} less the link's one-way delay. The caller keeps ownership of {@code body}.
     */
    void send(Neighbour via, int type, ByteBuf body, long deadlineNanos) {
        int length = body.readableBytes();
        ByteBuf packet = allocator.ioBuffer(WireHeader.LENGTH + HEADER + length);
        WireHeader.write(packet, type, 0, HEADER + length, node.selfId(), via.id().value(), via.takeLinkSequence());
        writeHeader(packet, until(deadlineNanos, node.now()));
        packet.writeBytes(body, body.readerIndex(), length);
        RealTimeLinkSender<ByteBuf> sender = stage.realTimeChannelOf(via).sender;
        RealTimeCodec.setLinkSequence(WireHeader.body(packet), sender.nextSequence());
        long oneWay = oneWayNanos(via);
        long resendUntil = deadlineNanos < Long.MIN_VALUE + oneWay ? Long.MIN_VALUE : deadlineNanos - oneWay;
        sender.sent(packet.retainedDuplicate(), node.now(), resendUntil);
        node.transmit(via, packet);
    }

    /** A module's real-time packet from a neighbour: deduplicated, gaps asked for, handed to its receiver. */
    void onData(Neighbour from, int type, ByteBuf body) {
        if (body.readableBytes() < HEADER) {
            counters.drop(DropReason.MALFORMED);
            return;
        }
        // The frame stage already counted the link sequence of a module's type for the link's loss.
        RealTimeLinkReceiver receiver = stage.realTimeChannelOf(from).receiver;
        if (!receiver.onPacket(RealTimeCodec.linkSequence(body))) {
            counters.drop(DropReason.DUPLICATE);
            return;
        }
        long deadline = node.now() + remainingNanos(body) - oneWayNanos(from);
        ByteBuf moduleBody = body.slice(body.readerIndex() + HEADER, body.readableBytes() - HEADER);
        receivers[type].onRealTime(from, moduleBody, deadline, receiver.lastFilledGap());
    }

    /** Writes the header; the link sequence is stamped when the channel numbers the packet. */
    static void writeHeader(ByteBuf out, long remainingNanos) {
        out.writeInt(0);
        out.writeInt(micros(remainingNanos));
    }

    /** {@code deadline - now}, saturated rather than wrapped for deadlines at the ends of the range. */
    static long until(long deadlineNanos, long nowNanos) {
        long left = deadlineNanos - nowNanos;
        if (((deadlineNanos ^ nowNanos) & (deadlineNanos ^ left)) < 0) {
            return deadlineNanos > nowNanos ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return left;
    }

    static long remainingNanos(ByteBuf body) {
        return body.getInt(body.readerIndex() + OFFSET_REMAINING) * 1000L;
    }

    /** Shortens the time left of a held packet by the time it was held. */
    static void age(ByteBuf body, long heldNanos) {
        int at = body.readerIndex() + OFFSET_REMAINING;
        body.setInt(at, micros(body.getInt(at) * 1000L - heldNanos));
    }

    /** Half the link's smoothed round trip; 0 before its first measurement. */
    static long oneWayNanos(Neighbour link) {
        LinkStatistics s = link.statistics();
        return s == null ? 0 : s.srttNanos() / 2;
    }

    private static int micros(long nanos) {
        // Saturates: a deadline further than 35 minutes away is as good as none.
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, nanos / 1000));
    }
}

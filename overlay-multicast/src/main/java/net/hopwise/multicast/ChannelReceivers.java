package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;

/**
 * The receiving ends of the neighbours' link channels on this node: each channel datagram goes up
 * once, and each batch ends with one acknowledgement per channel that received. Kept whether or not
 * this node runs flow control itself, so that its neighbours' channels always drain. Only on the
 * node's thread.
 */
final class ChannelReceivers {
    /** The cost updates riding on channel packets, both ways: flow control's, when the node runs it. */
    interface Riders {
        /** Updates that rode in on a packet from {@code from} (back to back, without their length); false if malformed. */
        boolean arrived(LinkView from, ByteBuf updates, long nowNanos);

        /** @return updates to ride on an acknowledgement of {@code bodyBytes} to {@code to}, or null */
        ByteBuf take(NodeId to, int bodyBytes);
    }

    private final ModuleContext context;
    private final DropCounter malformed;
    private final DropCounter duplicate;
    private final DropCounter outOfWindow;
    private final int maxAcks;
    private final int minBody;
    private final int ackType;
    private final Map<NodeId, ChannelReceiver> byNeighbour = new HashMap<>();
    private final List<NodeId> owing = new ArrayList<>();
    private Riders riders;

    ChannelReceivers(ModuleContext context, DropCounter malformed) {
        this(context, malformed, MulticastPacket.HEADER, ChannelAck.TYPE, context.dropReason("multicast_channel_duplicate"),
                context.dropReason("multicast_channel_window"));
    }

    /** From now on cost updates ride on this node's acknowledgements, and those riding on data reach {@code r}. */
    void riders(Riders r) {
        this.riders = r;
    }

    /**
     * @param minBody the shortest packet a channel of this kind carries after its header
     * @param ackType the packet type its acknowledgements go back as
     */
    ChannelReceivers(ModuleContext context, DropCounter malformed, int minBody, int ackType, DropCounter duplicate,
            DropCounter outOfWindow) {
        this.context = context;
        this.malformed = malformed;
        this.minBody = minBody;
        this.ackType = ackType;
        this.duplicate = duplicate;
        this.outOfWindow = outOfWindow;
        this.maxAcks = ChannelAck.capacity(context.maxBody());
    }

    /**
     * A channel datagram from a neighbour.
     *
     * @return the group datagram it carries (a view without a reference of its own) when it is new,
     *     else null (a duplicate or malformed one, counted)
     */
    ByteBuf accept(LinkView from, ByteBuf body) {
        if (body.readableBytes() < ChannelAck.DATA_HEADER + minBody) {
            malformed.increment();
            return null;
        }
        int at = body.readerIndex();
        int word = body.getInt(at);
        int header = ChannelAck.DATA_HEADER;
        if ((word & ChannelAck.DATA_CARRIED) != 0) {
            int length = body.getUnsignedShort(at + header);
            header += ChannelAck.CARRIED_HEADER + length;
            if (body.readableBytes() < header + minBody) {
                malformed.increment();
                return null;
            }
            // Malformed updates are counted and dropped; the packet they rode on is still good.
            if (riders != null && !riders.arrived(from,
                    body.slice(at + ChannelAck.DATA_HEADER + ChannelAck.CARRIED_HEADER, length), context.nowNanos())) {
                malformed.increment();
            }
        }
        ChannelReceiver r = byNeighbour.get(from.id());
        if (r == null) {
            // One per configured neighbour at most: the frame stage admits only those.
            r = new ChannelReceiver(maxAcks);
            byNeighbour.put(from.id(), r);
        }
        ChannelReceiver.Verdict v = r.accept(word & ~ChannelAck.DATA_CARRIED, body.getInt(at + 4));
        if (!owing.contains(from.id())) {
            owing.add(from.id());
        }
        if (v == ChannelReceiver.Verdict.DUPLICATE) {
            duplicate.increment();
            return null;
        }
        if (v == ChannelReceiver.Verdict.OUT_OF_WINDOW) {
            outOfWindow.increment();
            return null;
        }
        return body.slice(at + header, body.readableBytes() - header);
    }

    /**
     * Sends the acknowledgements the batch owes. One the node refuses (its socket back-pressured) is
     * owed again at the next flush: lost, it left the sender's whole window to its retransmission
     * timer, 200 ms at least, since nothing else would have acknowledged it.
     */
    void flush() {
        List<NodeId> refused = null;
        for (NodeId n : owing) {
            ChannelReceiver r = byNeighbour.get(n);
            LinkView link = context.link(n);
            ChannelAck ack = r == null ? null : r.takeAck();
            if (ack == null) {
                continue;
            }
            if (link == null) {
                byNeighbour.remove(n); // the neighbour went: so does its channel's state
                continue;
            }
            ByteBuf carried = riders == null ? null : riders.take(n, ack.size());
            if (!context.send(link, ackType, ack.encode(context.allocator(), carried))) {
                r.owe();
                if (refused == null) {
                    refused = new ArrayList<>();
                }
                refused.add(n);
            }
        }
        owing.clear();
        if (refused != null) {
            owing.addAll(refused);
        }
    }

    /** Whether an acknowledgement the node refused is still owed. */
    boolean owing() {
        return !owing.isEmpty();
    }
}

package net.hopwise.overlay.sim;

import io.netty.util.collection.LongObjectHashMap;
import java.util.ArrayDeque;

/** Deficit round robin over flows, as described by {@link QueueDiscipline.FairQueue}. */
final class DeficitRoundRobinQueue implements PacketQueue {
    private final LongObjectHashMap<FlowQueue> flows = new LongObjectHashMap<>();
    /** Backlogged flows in round order; a flow is here exactly when it holds packets. */
    private final ArrayDeque<FlowQueue> active = new ArrayDeque<>();
    private final int limit;
    private final int quantum;
    private int size;

    DeficitRoundRobinQueue(int limit, int quantum) {
        this.limit = limit;
        this.quantum = quantum;
    }

    @Override
    public Packet offer(Packet packet, long nowNanos) {
        FlowQueue flow = flows.get(packet.flow());
        if (flow == null) {
            flow = new FlowQueue(packet.flow());
            flows.put(packet.flow(), flow);
        }
        if (flow.packets.isEmpty()) {
            flow.deficit = 0;
            active.addLast(flow);
        }
        flow.packets.addLast(packet);
        size++;
        if (size <= limit) {
            return null;
        }
        // Over the limit: the longest flow (the earliest in round order among equals) loses its tail.
        FlowQueue longest = null;
        for (FlowQueue f : active) {
            if (longest == null || f.packets.size() > longest.packets.size()) {
                longest = f;
            }
        }
        Packet dropped = longest.packets.pollLast();
        size--;
        if (longest.packets.isEmpty()) {
            active.remove(longest);
            flows.remove(longest.id);
        }
        return dropped;
    }

    @Override
    public Packet poll(long nowNanos) {
        while (!active.isEmpty()) {
            FlowQueue flow = active.peekFirst();
            Packet head = flow.packets.peekFirst();
            if (flow.deficit < head.sizeBytes()) {
                flow.deficit += quantum;
                active.addLast(active.pollFirst());
                continue;
            }
            flow.deficit -= head.sizeBytes();
            flow.packets.pollFirst();
            size--;
            if (flow.packets.isEmpty()) {
                active.pollFirst();
                flows.remove(flow.id);
            }
            return head;
        }
        return null;
    }

    @Override
    public int size() {
        return size;
    }

    int flowCount() {
        return flows.size();
    }

    private static final class FlowQueue {
        final long id;
        final ArrayDeque<Packet> packets = new ArrayDeque<>();
        int deficit;

        FlowQueue(long id) {
            this.id = id;
        }
    }
}

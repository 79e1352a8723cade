package net.hopwise.overlay.sim;

import java.util.ArrayDeque;

/** First in, first out, with a limit. */
final class DropTailQueue implements PacketQueue {
    private final ArrayDeque<Packet> packets = new ArrayDeque<>();
    private final int limit;

    DropTailQueue(int limit) {
        this.limit = limit;
    }

    @Override
    public Packet offer(Packet packet, long nowNanos) {
        if (packets.size() >= limit) {
            return packet;
        }
        packets.addLast(packet);
        return null;
    }

    @Override
    public Packet poll(long nowNanos) {
        return packets.pollFirst();
    }

    @Override
    public int size() {
        return packets.size();
    }
}

package net.hopwise.multicast.layered;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Layered data for one outgoing link, paced at the link's rate and shared among sessions by
 * deficit round robin (Shreedhar and Varghese): each backlogged session in turn may send up to one
 * quantum of bytes more than it has sent, so sessions that keep a queue get equal byte rates
 * whatever they offer, and a session offering less than its share loses nothing. Each session's
 * queue is bounded, so a session that overruns its share loses its own packets (a counted drop),
 * not another's: the per-flow fair queuing that PLM assumes of routers, on the overlay hops.
 *
 * <p>Sans-IO: inputs carry {@code nowNanos}, {@link #drain} hands what is due to the caller's
 * sink, {@link #nextDeadlineNanos} says when the next packet is. Buffers handed in are owned until
 * sent, dropped or {@link #clear}ed. Only on the node's thread.
 */
final class FairLinkQueue {
    /**
     * A quantum well under any datagram: each backlogged session then sends at most one packet a
     * turn, so a bunch's packets leave with one of every other backlogged session's between them and
     * a pair at the receiver reads the session's share, as under the per-packet fair queuing PLM
     * assumes. A quantum of one largest datagram (1500 bytes) let a session send two or three
     * 512-byte packets a turn: a pair left back to back in one turn (reading the whole link) or
     * straddled two (reading a seventh of it with three sessions), and ERA's receivers, which take
     * the lowest pair of an interval, sat at half their share and jumped. Sessions with larger
     * packets wait more turns for their credit, so byte rates stay equal; a turn costs one addition.
     */
    static final int QUANTUM_BYTES = 64;

    private final long rateBitsPerSecond;
    private final int packetsPerSession;
    private final Map<Object, Flow> flows = new HashMap<>();
    /** Backlogged sessions in their round-robin order. */
    private final ArrayDeque<Flow> active = new ArrayDeque<>();
    /** When the link has sent everything handed to it so far. */
    private long busyUntilNanos = Long.MIN_VALUE;
    private long sent;
    private long dropped;

    private static final class Flow {
        final ArrayDeque<ByteBuf> packets = new ArrayDeque<>();
        long deficit;
    }

    FairLinkQueue(long rateBitsPerSecond, int packetsPerSession) {
        if (rateBitsPerSecond <= 0 || packetsPerSession < 1) {
            throw new IllegalArgumentException("rate and packets per session must be positive, got "
                    + rateBitsPerSecond + " and " + packetsPerSession);
        }
        this.rateBitsPerSecond = rateBitsPerSecond;
        this.packetsPerSession = packetsPerSession;
    }

    /**
     * Queues {@code packet} (taken) for {@code session}, or releases it when that session's queue
     * is full.
     *
     * @return false when it was dropped
     */
    boolean offer(Object session, ByteBuf packet) {
        Flow f = flows.computeIfAbsent(session, k -> new Flow());
        if (f.packets.size() >= packetsPerSession) {
            packet.release();
            dropped++;
            return false;
        }
        if (f.packets.isEmpty()) {
            // A session that was idle starts its turn afresh: credit does not pile up while idle.
            f.deficit = 0;
            active.addLast(f);
        }
        f.packets.addLast(packet);
        return true;
    }

    /** Hands {@code sink} every packet whose turn has come by {@code nowNanos}, each as the link frees. */
    void drain(long nowNanos, Consumer<ByteBuf> sink) {
        while (!active.isEmpty() && busyUntilNanos <= nowNanos) {
            Flow f = active.peekFirst();
            ByteBuf head = f.packets.peekFirst();
            if (f.deficit < head.readableBytes()) {
                f.deficit += QUANTUM_BYTES;
                active.addLast(active.pollFirst());
                continue;
            }
            f.packets.pollFirst();
            f.deficit -= head.readableBytes();
            if (f.packets.isEmpty()) {
                active.pollFirst();
                f.deficit = 0;
            }
            // The link starts this packet when it is free, and not before the packet is due.
            long start = Math.max(busyUntilNanos, nowNanos);
            busyUntilNanos = start + head.readableBytes() * 8L * 1_000_000_000L / rateBitsPerSecond;
            sent++;
            sink.accept(head);
        }
        if (active.isEmpty()) {
            flows.values().removeIf(f -> f.packets.isEmpty());
        }
    }

    /** When the next packet may go, or {@link Long#MAX_VALUE} when nothing waits. */
    long nextDeadlineNanos() {
        return active.isEmpty() ? Long.MAX_VALUE : busyUntilNanos;
    }

    /** Packets waiting now, all sessions. */
    int queued() {
        int n = 0;
        for (Flow f : active) {
            n += f.packets.size();
        }
        return n;
    }

    long sent() {
        return sent;
    }

    long dropped() {
        return dropped;
    }

    /** Releases every packet still waiting (the link went, or the node stops). */
    void clear() {
        for (Flow f : flows.values()) {
            for (ByteBuf b : f.packets) {
                b.release();
            }
            f.packets.clear();
        }
        flows.clear();
        active.clear();
    }
}

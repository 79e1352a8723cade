package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import net.hopwise.overlay.NodeId;

/**
 * One reliable stream at one node: the last {@code capacity} packets by sequence (the source's send
 * cache, a relay's repair cache, a member's reordering room), the gaps this node will ask its parent
 * for, the children waiting for a repair, how far each child's subtree has received, and a member
 * node's delivery point. Sans-IO; only on the node's thread. Counters are volatile so that other
 * threads read them whole.
 */
final class ReliableStream {
    enum Insert { NEW, DUPLICATE, OLD }

    /** A gap: when to ask for it next, and whether it was asked for already (a retry, not a back-off). */
    private static final class Gap {
        long at;
        boolean asked;

        Gap(long at) {
            this.at = at;
        }
    }

    final StreamKey key;
    final boolean source;
    private final int capacity;
    private final ByteBuf[] ring;
    /** When each held packet last went to this node's children (as new or as a repair). */
    private final long[] sentNanos;
    private final TreeMap<Long, Gap> gaps = new TreeMap<>();
    private final Map<Long, Set<NodeId>> pending = new HashMap<>();
    /** Per child: the watermark it reported and when it was heard. */
    private final Map<NodeId, long[]> childAcks = new HashMap<>();
    int epoch;
    boolean started;
    /** Sequences below it are not held here (evicted, or before this node's start). */
    volatile long low;
    /** One past the highest sequence seen. */
    volatile long high;
    boolean delivering;
    volatile long next;
    /** The source's: where a member node new to the stream starts; the members it was computed for. */
    long horizon;
    Set<NodeId> horizonMembers = Set.of();
    volatile long ackFloor;
    long lastSendNanos;
    long nextHeartbeatNanos;
    long nextAckNanos;
    volatile long lastAckSent = -1;
    int acksSkipped;
    long lastHeardNanos;

    volatile long received;
    volatile long duplicates;
    volatile long deliveredMessages;
    volatile long gapsSeen;
    volatile long nacksSent;
    volatile long nacksReceived;
    volatile long nacksSuppressed;
    volatile long repairsSent;
    volatile long squelches;
    volatile long membersDropped;

    ReliableStream(StreamKey key, boolean source, int capacity, int epoch, long nowNanos) {
        this.key = key;
        this.source = source;
        this.capacity = capacity;
        this.ring = new ByteBuf[capacity];
        this.sentNanos = new long[capacity];
        this.epoch = epoch;
        this.started = source;
        this.lastHeardNanos = nowNanos;
    }

    /** Starts the stream anew at {@code start} (a new epoch, or this node's first packet of it). */
    void restart(int newEpoch, long start) {
        clear();
        epoch = newEpoch;
        started = true;
        low = start;
        high = start;
        next = start;
        delivering = false;
    }

    private int slot(long sequence) {
        return (int) (sequence % capacity);
    }

    ByteBuf get(long sequence) {
        return sequence >= low && sequence < high ? ring[slot(sequence)] : null;
    }

    long sentAt(long sequence) {
        return sentNanos[slot(sequence)];
    }

    void markSent(long sequence, long nowNanos) {
        sentNanos[slot(sequence)] = nowNanos;
    }

    /**
     * Holds a packet (takes {@code packet}). Sequences the ring must give up to make room are
     * forgotten, gaps and all; {@link #overrun} tells whether that passed a member's delivery point.
     */
    Insert insert(long sequence, ByteBuf packet, long nowNanos, long backoffNanos, SplittableRandom random) {
        if (sequence < low) {
            packet.release();
            return Insert.OLD;
        }
        if (sequence < high) {
            if (ring[slot(sequence)] != null) {
                packet.release();
                return Insert.DUPLICATE;
            }
            gaps.remove(sequence);
        } else {
            if (sequence - low >= capacity) {
                evictBelow(sequence - capacity + 1);
            }
            for (long s = Math.max(high, low); s < sequence; s++) {
                addGap(s, nowNanos, backoffNanos, random);
            }
            high = sequence + 1;
        }
        ring[slot(sequence)] = packet;
        sentNanos[slot(sequence)] = Long.MIN_VALUE;
        return Insert.NEW;
    }

    /** The source's own packet: always the next sequence. */
    void append(ByteBuf packet, long nowNanos) {
        if (high - low >= capacity) {
            evictBelow(high - capacity + 1);
        }
        ring[slot(high)] = packet;
        sentNanos[slot(high)] = nowNanos;
        high++;
    }

    private boolean overrun;

    /** Whether an eviction passed this member's delivery point since the last call. */
    boolean takeOverrun() {
        boolean o = overrun;
        overrun = false;
        return o;
    }

    private void evictBelow(long newLow) {
        for (long s = low; s < Math.min(newLow, high); s++) {
            ByteBuf b = ring[slot(s)];
            if (b != null) {
                b.release();
                ring[slot(s)] = null;
            }
        }
        gaps.headMap(newLow).clear();
        if (delivering && next < newLow) {
            overrun = true;
            next = newLow;
        }
        low = newLow;
        high = Math.max(high, low);
    }

    /** Learns (from a heartbeat or a child) that the stream reached {@code upTo}: the rest are gaps. */
    void extendTo(long upTo, long nowNanos, long backoffNanos, SplittableRandom random) {
        if (upTo <= high || upTo - low > 2L * capacity) {
            return;
        }
        if (upTo - low > capacity) {
            evictBelow(upTo - capacity);
        }
        for (long s = high; s < upTo; s++) {
            addGap(s, nowNanos, backoffNanos, random);
        }
        high = upTo;
    }

    private void addGap(long sequence, long nowNanos, long backoffNanos, SplittableRandom random) {
        // NORM's random back-off: of the nodes that saw one loss, the first to ask gets the repair down
        // to the others before their timers run out.
        gaps.put(sequence, new Gap(nowNanos + (backoffNanos <= 0 ? 0 : random.nextLong(backoffNanos + 1))));
        gapsSeen++;
    }

    boolean missing(long sequence) {
        return gaps.containsKey(sequence);
    }

    /** A child asked for a gap this node has too: ask at once unless this node already did. */
    boolean askNow(long sequence, long nowNanos) {
        Gap g = gaps.get(sequence);
        if (g == null || g.asked) {
            return false;
        }
        g.at = Math.min(g.at, nowNanos);
        return true;
    }

    /** Gaps due now as ranges of (first, count), at most {@code max}; each is asked again after {@code retryNanos}. */
    List<long[]> dueGaps(long nowNanos, long retryNanos, int max) {
        List<long[]> ranges = new ArrayList<>();
        for (Map.Entry<Long, Gap> e : gaps.entrySet()) {
            Gap g = e.getValue();
            if (g.at > nowNanos) {
                continue;
            }
            long s = e.getKey();
            long[] last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (last != null && last[0] + last[1] == s && last[1] < 0xFFFF) {
                last[1]++;
            } else if (ranges.size() < max) {
                ranges.add(new long[] {s, 1});
            } else {
                break;
            }
            g.at = nowNanos + retryNanos;
            g.asked = true;
        }
        return ranges;
    }

    long nextGapNanos() {
        long at = Long.MAX_VALUE;
        for (Gap g : gaps.values()) {
            at = Math.min(at, g.at);
        }
        return at;
    }

    int gapCount() {
        return gaps.size();
    }

    /** Gives up every gap below {@code oldest} (the source no longer holds them). */
    void forgetBelow(long oldest) {
        gaps.headMap(oldest).clear();
        pending.keySet().removeIf(s -> s < oldest);
    }

    /** Remembers that {@code child} waits for {@code sequence}; bounded by the cache's size. */
    void addPending(long sequence, NodeId child) {
        Set<NodeId> set = pending.get(sequence);
        if (set == null) {
            if (pending.size() >= capacity) {
                return;
            }
            set = new HashSet<>(2);
            pending.put(sequence, set);
        }
        set.add(child);
    }

    /** The children waiting for {@code sequence}, now served. */
    Set<NodeId> takePending(long sequence) {
        Set<NodeId> set = pending.remove(sequence);
        return set == null ? Set.of() : set;
    }

    // ---------------------------------------------------------------- delivery at a member node

    /** The messages now complete at the delivery point, in order; each as its packets' bodies. */
    List<List<ByteBuf>> deliverable() {
        List<List<ByteBuf>> out = null;
        while (delivering && next < high) {
            ByteBuf first = ring[slot(next)];
            if (first == null || next < low) {
                break;
            }
            ReliablePacket p = ReliablePacket.decode(first);
            if (p.fragment() != 0) {
                next++; // joined in the middle of a message: start at the next one
                continue;
            }
            int n = p.fragments();
            List<ByteBuf> parts = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ByteBuf b = get(next + i);
                if (b == null) {
                    return out == null ? List.of() : out;
                }
                parts.add(b);
            }
            next += n;
            if (out == null) {
                out = new ArrayList<>();
            }
            out.add(parts);
        }
        return out == null ? List.of() : out;
    }

    /** The first sequence this node lacks: everything below it arrived (or is before its start). */
    long contiguous() {
        return gaps.isEmpty() ? high : Math.min(high, gaps.firstKey());
    }

    // ---------------------------------------------------------------- acknowledgements

    void onChildAck(NodeId child, long watermark, long nowNanos) {
        childAcks.put(child, new long[] {watermark, nowNanos});
    }

    /**
     * How far this node's subtree has received: the least of its own point (a member's delivery, a
     * relay's contiguous arrivals) and its current children's reports. A child not heard yet stands at
     * {@code floor}; one silent for {@code timeoutNanos} no longer counts.
     */
    long watermark(List<NodeId> children, boolean member, long floor, long nowNanos, long timeoutNanos) {
        childAcks.keySet().retainAll(children);
        long w = Long.MAX_VALUE;
        for (NodeId c : children) {
            long[] a = childAcks.computeIfAbsent(c, k -> new long[] {floor, nowNanos});
            if (nowNanos - a[1] <= timeoutNanos) {
                w = Math.min(w, a[0]);
            }
        }
        long own = source ? high : member && delivering ? next : contiguous();
        if (member || w == Long.MAX_VALUE) {
            w = Math.min(w, own);
        }
        return w;
    }

    /** Whether a member lacks a packet below {@code bound} that it has not delivered yet. */
    boolean lacksBelow(long bound) {
        for (long s = Math.max(next, low); s < Math.min(bound, high); s++) {
            if (ring[slot(s)] == null) {
                return true;
            }
        }
        return delivering && next < Math.min(bound, low);
    }

    int held() {
        int n = 0;
        for (long s = low; s < high; s++) {
            if (ring[slot(s)] != null) {
                n++;
            }
        }
        return n;
    }

    /** Releases every held packet. */
    void clear() {
        for (int i = 0; i < capacity; i++) {
            if (ring[i] != null) {
                ring[i].release();
                ring[i] = null;
            }
        }
        gaps.clear();
        pending.clear();
        childAcks.clear();
    }
}

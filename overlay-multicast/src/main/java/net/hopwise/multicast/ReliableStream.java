package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
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
 *
 * <p>About 480 lines, over the house's 400: the cache, the gaps, the waiting children and the subtree
 * acknowledgements are indexed by the same sequence window and move together at each packet and
 * acknowledgement; apart, each would have to keep the window's bounds in step with the others.
 */
final class ReliableStream {
    enum Insert { NEW, DUPLICATE, OLD }

    /** A gap: when to ask for it next, and whether it was asked for already (a retry, not a back-off). */
    private static final class Gap {
        final long born;
        long at;
        boolean asked;

        Gap(long born, long at) {
            this.born = born;
            this.at = at;
        }
    }

    final StreamKey key;
    final boolean source;
    private final int capacity;
    private final ByteBuf[] ring;
    /** What the ring pins of the buffers its packets were read into. */
    private final ReadPins pins;
    /** When each held packet last went to this node's children (as new or as a repair). */
    private final long[] sentNanos;
    /** When each held packet was last resent to one child, and to which. */
    private final long[] repairedNanos;
    private final NodeId[] repairedTo;
    /** When a gap this node had asked for was last filled: retries wait while repairs keep coming. */
    private long lastRepairNanos = Long.MIN_VALUE;
    /** When any gap was last filled: repairs that someone upstream asked for are coming down. */
    private long lastFillNanos = Long.MIN_VALUE;
    private final long retry;
    private final TreeMap<Long, Gap> gaps = new TreeMap<>();
    private final Map<Long, Set<NodeId>> pending = new HashMap<>();
    private final SubtreeAcks acks = new SubtreeAcks();
    final ChildFeeds feeds = new ChildFeeds();
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
    /** A member node's own point when it last looked whether to acknowledge early. */
    long ackCheckedAt = Long.MIN_VALUE;
    int acksSkipped;
    long lastHeardNanos;
    /** When a packet last arrived new: while they keep coming, a heartbeat's news of more is no gap yet. */
    long lastDataNanos = Long.MIN_VALUE;
    /** Hops from the source: the back-off before asking grows with it. */
    int depth = 1;

    volatile long received;
    volatile long duplicates;
    volatile long deliveredMessages;
    volatile long gapsSeen;
    volatile long nacksSent;
    volatile long nacksReceived;
    volatile long sequencesAsked;
    volatile long sequencesAskedOfIt;
    volatile long nacksSuppressed;
    volatile long repairsSent;
    volatile long squelches;
    volatile long membersDropped;

    ReliableStream(StreamKey key, boolean source, int capacity, long retryNanos, int epoch, long nowNanos) {
        this.key = key;
        this.retry = retryNanos;
        this.source = source;
        this.capacity = capacity;
        this.ring = new ByteBuf[capacity];
        this.pins = new ReadPins(capacity);
        this.sentNanos = new long[capacity];
        this.repairedNanos = new long[capacity];
        this.repairedTo = new NodeId[capacity];
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
     * Whether a child's request for a held packet is to be answered: not when the packet went to it
     * less than {@code holdoffNanos} ago, as a repair of its own or to all children.
     */
    boolean shouldRepair(long sequence, NodeId child, long nowNanos, long holdoffNanos, long repairHoldoffNanos) {
        int i = slot(sequence);
        if (nowNanos - sentNanos[i] < holdoffNanos) {
            return false;
        }
        // A repair handed to the child's channel arrives unless the link goes (and the child with it
        // gets another parent): ask again only after the retry's worth of time.
        if (child.equals(repairedTo[i]) && nowNanos - repairedNanos[i] < repairHoldoffNanos) {
            return false;
        }
        repairedTo[i] = child;
        repairedNanos[i] = nowNanos;
        return true;
    }

    /**
     * Holds a packet (takes {@code packet}). Sequences the ring must give up to make room are
     * forgotten, gaps and all; {@link #overrun} tells whether that passed a member's delivery point.
     */
    Insert insert(long sequence, ByteBuf packet, long nowNanos, long backoffNanos, SplittableRandom random) {
        Insert result = admit(sequence, nowNanos, backoffNanos, random);
        if (result != Insert.NEW) {
            packet.release();
            return result;
        }
        place(sequence, packet);
        return Insert.NEW;
    }

    /**
     * Holds a received packet ({@code received} is a view without a reference of its own) when it is
     * new: as a view of the buffer it was read into while the stream's count of such buffers stays
     * within {@code pinBudget} bytes, else as a copy (see {@link ReadPins}).
     */
    Insert receive(long sequence, ByteBuf received, ByteBufAllocator allocator, long pinBudget, long nowNanos,
            long backoffNanos, SplittableRandom random) {
        Insert result = admit(sequence, nowNanos, backoffNanos, random);
        if (result == Insert.NEW) {
            place(sequence, pins.keep(sequence, received, pinBudget, this::holds, allocator));
        }
        return result;
    }

    /** Bytes of read buffers the ring holds views of, as {@link ReadPins} counts them. */
    long pinnedBytes() {
        return pins.pinned();
    }

    private boolean holds(long sequence) {
        return sequence >= low && sequence < high && ring[slot(sequence)] != null;
    }

    /** Whether a packet is new, old or a duplicate; for a new one, the gaps and the room it makes. */
    private Insert admit(long sequence, long nowNanos, long backoffNanos, SplittableRandom random) {
        if (sequence < low) {
            return Insert.OLD;
        }
        if (sequence < high) {
            if (ring[slot(sequence)] != null) {
                return Insert.DUPLICATE;
            }
            Gap filled = gaps.remove(sequence);
            if (filled != null) {
                lastFillNanos = nowNanos;
                if (filled.asked) {
                    lastRepairNanos = nowNanos;
                }
            }
        } else {
            if (sequence - low >= capacity) {
                evictBelow(sequence - capacity + 1);
            }
            for (long s = Math.max(high, low); s < sequence; s++) {
                addGap(s, nowNanos, backoffNanos, random);
            }
            high = sequence + 1;
        }
        return Insert.NEW;
    }

    private void place(long sequence, ByteBuf packet) {
        ring[slot(sequence)] = packet;
        sentNanos[slot(sequence)] = Long.MIN_VALUE;
        repairedTo[slot(sequence)] = null;
    }

    /** The source's own packet: always the next sequence. */
    void append(ByteBuf packet, long nowNanos) {
        if (high - low >= capacity) {
            evictBelow(high - capacity + 1);
        }
        ring[slot(high)] = packet;
        sentNanos[slot(high)] = nowNanos;
        repairedTo[slot(high)] = null;
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
                pins.released(s);
            }
        }
        if (!gaps.isEmpty()) {
            gaps.headMap(newLow).clear();
        }
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
        // A node waits a back-off per hop from the source, and a quarter of one at random (NORM's
        // random back-off): a relay that lost a packet asks before the nodes below it, whose timers
        // its repair then finds still running, and siblings spread their requests.
        long wait = backoffNanos <= 0 ? 0 : depth * backoffNanos + random.nextLong(backoffNanos / 4 + 1);
        gaps.put(sequence, new Gap(nowNanos, nowNanos + wait));
        gapsSeen++;
    }

    /**
     * A child asks for a sequence below this relay's start: the relay takes it (and those up to its
     * start) as its own gaps, so that one request goes upstream for all its children.
     *
     * @return false when it is too far below to hold
     */
    boolean extendDown(long sequence, long nowNanos) {
        if (sequence >= low || high - sequence > capacity || delivering) {
            return false;
        }
        for (long s = sequence; s < low; s++) {
            gaps.put(s, new Gap(nowNanos, nowNanos));
            gapsSeen++;
        }
        low = sequence;
        return true;
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

    /** Gaps due now as ranges of (first, count), at most {@code max}; each is asked again after the retry interval. */
    List<long[]> dueGaps(long nowNanos, int max) {
        long retryNanos = retry;
        // Gaps due a little later go with the ones due now: one NACK for a burst, not one per gap.
        long horizonNanos = nowNanos + retryNanos / 4;
        List<long[]> ranges = new ArrayList<>();
        for (Map.Entry<Long, Gap> e : gaps.entrySet()) {
            Gap g = e.getValue();
            if (g.at > horizonNanos || g.asked && lastRepairNanos > nowNanos - retryNanos || held(g, nowNanos)) {
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

    /**
     * Whether a gap not asked for yet waits because other gaps are being filled now: a node above
     * asked for the burst, and its repairs are on their way. For at most a retry interval.
     */
    private boolean held(Gap g, long nowNanos) {
        return !g.asked && lastFillNanos > nowNanos - retry / 4 && nowNanos - g.born < retry;
    }

    /** When the next gap is due, by the rules of {@link #dueGaps}. */
    long nextGapNanos(long nowNanos) {
        long at = Long.MAX_VALUE;
        for (Gap g : gaps.values()) {
            long due = g.at;
            if (g.asked && lastRepairNanos > nowNanos - retry) {
                due = Math.max(due, lastRepairNanos + retry);
            } else if (held(g, nowNanos)) {
                due = Math.max(due, Math.min(lastFillNanos + retry / 4, g.born + retry));
            }
            at = Math.min(at, due);
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

    /**
     * The number of packets of the message at the delivery point when all of them are here, else 0. A
     * message this node joined in the middle of is passed over. Delivering it moves {@link #next} on.
     */
    int nextMessage() {
        while (delivering && next < high && next >= low) {
            ByteBuf first = ring[slot(next)];
            if (first == null) {
                return 0;
            }
            if (ReliablePacket.fragmentIndex(first) != 0) {
                next++; // joined in the middle of a message: start at the next one
                continue;
            }
            int n = ReliablePacket.fragmentCount(first);
            for (int i = 1; i < n; i++) {
                if (get(next + i) == null) {
                    return 0;
                }
            }
            return n;
        }
        return 0;
    }

    /** The first sequence this node lacks: everything below it arrived (or is before its start). */
    long contiguous() {
        return gaps.isEmpty() ? high : Math.min(high, gaps.firstKey());
    }

    // ---------------------------------------------------------------- acknowledgements

    void onChildAck(NodeId child, long watermark, long nowNanos) {
        acks.onChildAck(child, watermark, nowNanos);
    }

    /** How far this node's subtree has received; see {@link SubtreeAcks#watermark}. */
    long watermark(List<NodeId> children, boolean member, long floor, long nowNanos, long timeoutNanos) {
        long own = source ? high : member && delivering ? next : contiguous();
        return acks.watermark(children, member, own, floor, nowNanos, timeoutNanos);
    }

    /** Whether a member lacks a packet below {@code bound} that it has not delivered yet. */
    boolean lacksBelow(long bound) {
        if (!delivering || bound <= next) {
            return false;
        }
        if (bound - next > capacity) {
            return true; // more than the cache holds: some of them are gone
        }
        for (long s = next; s < bound; s++) {
            if (s < low || s >= high || ring[slot(s)] == null) {
                return true;
            }
        }
        return false;
    }

    /** Releases every held packet. */
    void clear() {
        for (int i = 0; i < capacity; i++) {
            if (ring[i] != null) {
                ring[i].release();
                ring[i] = null;
            }
        }
        pins.clear();
        gaps.clear();
        pending.clear();
        acks.clear();
        feeds.clear();
    }
}

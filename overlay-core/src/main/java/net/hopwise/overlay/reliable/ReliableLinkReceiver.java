package net.hopwise.overlay.reliable;

import io.netty.buffer.ByteBuf;
import net.hopwise.overlay.wire.HeaderBytes;

/**
 * The receiving half of one link's reliable channel: which link-reliable sequence numbers arrived,
 * so that duplicates are dropped and every packet is acknowledged. It keeps no packets: a new packet
 * is forwarded or delivered at once, out of order (order is the edges' business), so its memory is
 * one bit per sequence number of the sender's window.
 *
 * <p>A packet is classified first ({@link #classify}) and marked received only once the node has
 * taken it ({@link #accept}): a packet the node refuses (its next link's queue is full) stays
 * unacknowledged and the previous hop sends it again. Sans-IO, single-threaded.
 */
public final class ReliableLinkReceiver {
    /** What an arriving packet is. */
    public enum Arrival {
        /** Not seen before: take it, then {@link #accept}. */
        NEW,
        /** Already received: drop it, but acknowledge again (the acknowledgement was lost). */
        DUPLICATE,
        /** Beyond the window the sender may use: a broken or hostile sender; drop it. */
        OUT_OF_WINDOW,
        /** From an older epoch of the sender (before its link was reset): drop it. */
        STALE
    }

    private final int window;
    private final int mask;
    private final long[] received;
    private final int maxBlocks;
    private long epoch;
    /** Next sequence number expected: all below it arrived. */
    private long cumulative;
    /** One past the highest sequence number received. */
    private long highest;
    private long pendingSequence = -1;
    /** The last sequence number that arrived (new or again), if above the cumulative point: -1 otherwise. */
    private long latest = -1;
    /** When the acknowledgement owed must leave: {@link Long#MIN_VALUE} at once, MAX_VALUE when none is owed. */
    private long ackDeadline = Long.MAX_VALUE;
    private long duplicates;
    private final int[] blocks;

    public ReliableLinkReceiver(ReliableLinkConfig config) {
        this.window = config.sendWindow();
        this.mask = window - 1;
        this.received = new long[(window + 63) / 64];
        this.maxBlocks = config.sackBlocks();
        this.blocks = new int[Math.max(2, maxBlocks * 2)];
    }

    /**
     * Classifies a packet of the sender's {@code epoch} with wire sequence number {@code sequence}.
     * A newer epoch means the sender started afresh: the receiver follows it. {@code senderBase} is
     * the sender's lowest unacknowledged number; a receiver behind it (it lost its state) catches up.
     */
    public Arrival classify(long epoch, int sequence, int senderBase) {
        if (epoch != this.epoch) {
            if (Long.compareUnsigned(epoch, this.epoch) < 0) {
                return Arrival.STALE;
            }
            this.epoch = epoch;
            cumulative = senderBase & 0xFFFF_FFFFL;
            highest = cumulative;
            latest = -1;
            java.util.Arrays.fill(received, 0);
        }
        long base = cumulative + (senderBase - (int) cumulative);
        if (base > cumulative && base <= cumulative + window) {
            // The sender had everything below its base acknowledged, by a state this receiver lost.
            while (cumulative < base) {
                clear(cumulative);
                cumulative++;
            }
            highest = Math.max(highest, cumulative);
            while (cumulative < highest && isSet(cumulative)) {
                clear(cumulative);
                cumulative++;
            }
        }
        long seq = cumulative + (sequence - (int) cumulative);
        if (seq < cumulative || (seq < highest && isSet(seq))) {
            latest = seq;
            duplicates++;
            ackDeadline = Long.MIN_VALUE;
            return Arrival.DUPLICATE;
        }
        if (seq >= cumulative + window) {
            return Arrival.OUT_OF_WINDOW;
        }
        pendingSequence = seq;
        return Arrival.NEW;
    }

    /** Marks the packet just classified {@link Arrival#NEW} as received; its acknowledgement is owed at once. */
    public void accept() {
        accept(Long.MIN_VALUE);
    }

    /**
     * Marks the packet just classified {@link Arrival#NEW} as received, with its acknowledgement owed
     * by {@code ackByNanos} at the latest (sooner if another packet needs one, or any datagram to the
     * sender carries it). For packets the sender does not wait on: it keeps them a little longer.
     */
    public void accept(long ackByNanos) {
        long seq = pendingSequence;
        if (seq < 0) {
            throw new IllegalStateException("accept without a new packet classified");
        }
        pendingSequence = -1;
        latest = seq;
        ackDeadline = Math.min(ackDeadline, ackByNanos);
        set(seq);
        highest = Math.max(highest, seq + 1);
        while (cumulative < highest && isSet(cumulative)) {
            clear(cumulative);
            cumulative++;
        }
    }

    /** Forgets the packet just classified; the node refused it and the sender will send it again. */
    public void refuse() {
        pendingSequence = -1;
        ackDeadline = Long.MIN_VALUE;
    }

    /** Whether an acknowledgement is owed to the sender, now or later. */
    public boolean ackPending() {
        return ackDeadline != Long.MAX_VALUE;
    }

    /** Whether the acknowledgement owed must leave by {@code nowNanos}. */
    public boolean ackDue(long nowNanos) {
        return ackDeadline <= nowNanos;
    }

    /** When the acknowledgement owed must leave: MIN_VALUE at once, MAX_VALUE when none is owed. */
    public long ackDeadline() {
        return ackDeadline;
    }

    /** Writes the acknowledgement state (see {@link ReliableLinkCodec}) and clears the debt. */
    public void writeAck(ByteBuf out) {
        HeaderBytes h = new HeaderBytes(ackLength());
        writeAck(h, maxBlocks);
        h.appendTo(out);
    }

    /**
     * As {@link #writeAck(ByteBuf)} with at most {@code limit} blocks (to fit a full datagram), into the
     * scratch where a data packet's headers are assembled.
     */
    public void writeAck(HeaderBytes out, int limit) {
        int n = collectBlocks(limit);
        ReliableLinkCodec.writeAck(out, epoch, (int) cumulative, blocks, n);
        ackDeadline = Long.MAX_VALUE;
    }

    /**
     * Fills {@link #blocks} with the runs received beyond the cumulative point, lowest first; returns
     * how many. When there are more runs than blocks, the run of the latest arrival goes first in
     * place of the highest one kept, as RFC 2018 has it: the sender then learns of every packet that
     * arrives, even one beyond the runs the blocks can name (otherwise its timers would resend it
     * again and again), while the lowest runs still reveal the holes to fill first.
     */
    private int collectBlocks(int limit) {
        int most = Math.max(0, Math.min(limit, maxBlocks));
        int n = 0;
        long s = cumulative + 1;
        while (s < highest && n < most) {
            while (s < highest && !isSet(s)) {
                s++;
            }
            if (s >= highest) {
                break;
            }
            long start = s;
            while (s < highest && isSet(s)) {
                s++;
            }
            blocks[2 * n] = (int) start;
            blocks[2 * n + 1] = (int) s;
            n++;
        }
        if (n == most && n > 0 && latest >= s && latest < highest && isSet(latest)) {
            long start = latest;
            while (start > s && isSet(start - 1)) {
                start--;
            }
            long end = latest + 1;
            while (end < highest && isSet(end)) {
                end++;
            }
            System.arraycopy(blocks, 0, blocks, 2, 2 * (n - 1));
            blocks[0] = (int) start;
            blocks[1] = (int) end;
        }
        return n;
    }

    /** Most bytes {@link #writeAck} writes. */
    public int ackLength() {
        return ReliableLinkCodec.ackLength(maxBlocks);
    }

    public long epoch() {
        return epoch;
    }

    public long cumulative() {
        return cumulative;
    }

    public long duplicates() {
        return duplicates;
    }

    private boolean isSet(long seq) {
        int i = (int) (seq & mask);
        return (received[i >>> 6] & (1L << (i & 63))) != 0;
    }

    private void set(long seq) {
        int i = (int) (seq & mask);
        received[i >>> 6] |= 1L << (i & 63);
    }

    private void clear(long seq) {
        int i = (int) (seq & mask);
        received[i >>> 6] &= ~(1L << (i & 63));
    }
}

package net.hopwise.overlay.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.ByteBufAllocator;
import net.hopwise.overlay.reliable.Rings;

/**
 * The receiving edge of one reliable session: puts packets back in order, drops duplicates,
 * reassembles messages and hands each to the application exactly once, in order.
 *
 * <p>Memory is bounded by the receive window: packets more than
 * {@link SessionConfig#receiveWindow()} beyond the first one not yet delivered are dropped (a
 * sender that honours the advertised window never sends them). The window advertised is what is
 * left of it, so an application that stops taking messages ({@link #suspend}) stops the sender.
 *
 * <p>Acknowledgements are sparse: one when the sender's requested interval of packets has arrived,
 * at once when a packet carries congestion mark 2 or 3 (the sender must slow down within an RTT) or
 * arrives twice (the sender resent it), and otherwise within {@link SessionConfig#ackDelay()}.
 *
 * <p>Sans-IO and single-threaded.
 */
public final class ReliableSessionReceiver {
    /** What an arriving packet is. */
    public enum Arrival { NEW, DUPLICATE, OUT_OF_WINDOW, STALE }

    /** Where complete messages go, in order. */
    @FunctionalInterface
    public interface Output {
        /** One complete message; valid only during the call. */
        void deliver(ByteBuf message);
    }

    /** Packets the receiver may hold (the configured receive window). */
    private final int capacity;
    /** Slots allocated: they start small and double when packets arrive further ahead. */
    private int slotCount;
    private int mask;
    private ByteBuf[] slots;
    private boolean[] endOfMessage;
    private final long ackDelay;
    private final ByteBufAllocator allocator;
    private final Output output;

    private long incarnation;
    /** First packet not yet delivered. */
    private long base;
    /** First packet not yet received: everything from base below it is here. */
    private long expected;
    private int held;
    private int maxHeld;
    private boolean suspended;
    private int sinceAck;
    private int ackInterval = 1;
    private int mark;
    private long ackDeadline = Long.MAX_VALUE;
    private long lastAdvertised;

    private long packetsReceived;
    private long duplicates;
    private long outOfWindow;
    private long messagesDelivered;

    public ReliableSessionReceiver(SessionConfig config, ByteBufAllocator allocator, Output output) {
        this.capacity = config.receiveWindow();
        this.slotCount = Math.min(capacity, Rings.INITIAL_SLOTS);
        this.mask = slotCount - 1;
        this.slots = new ByteBuf[slotCount];
        this.endOfMessage = new boolean[slotCount];
        this.ackDelay = config.ackDelay().toNanos();
        this.allocator = allocator;
        this.output = output;
        this.lastAdvertised = capacity;
    }

    /**
     * Takes one data packet; {@code payload} is retained when kept. Delivers what became complete
     * and in order, unless delivery is suspended.
     */
    public Arrival onData(long streamIncarnation, int sequence, ByteBuf payload, boolean last, int packetMark,
            int requestedInterval, long nowNanos) {
        if (streamIncarnation != incarnation) {
            if (streamIncarnation < incarnation) {
                return Arrival.STALE;
            }
            // The sending edge opened the session afresh: its old stream is over.
            releaseAll();
            incarnation = streamIncarnation;
            base = 0;
            expected = 0;
        }
        long seq = expected + (sequence - (int) expected);
        ackInterval = Math.max(1, requestedInterval);
        if (seq < expected || (seq < base + slotCount && slots[(int) (seq & mask)] != null)) {
            duplicates++;
            ackDeadline = nowNanos;
            return Arrival.DUPLICATE;
        }
        if (seq >= base + capacity) {
            outOfWindow++;
            ackDeadline = nowNanos;
            return Arrival.OUT_OF_WINDOW;
        }
        packetsReceived++;
        while (seq >= base + slotCount) {
            grow();
        }
        int i = (int) (seq & mask);
        slots[i] = payload.retain();
        endOfMessage[i] = last;
        held++;
        maxHeld = Math.max(maxHeld, held);
        while (expected < base + slotCount && slots[(int) (expected & mask)] != null) {
            expected++;
        }
        mark = Math.max(mark, packetMark);
        sinceAck++;
        if (packetMark >= 2 || sinceAck >= ackInterval) {
            ackDeadline = nowNanos;
        } else if (ackDeadline == Long.MAX_VALUE) {
            ackDeadline = nowNanos + ackDelay;
        }
        deliverReady(nowNanos);
        return Arrival.NEW;
    }

    /** Hands complete in-order messages to the application while it takes them. */
    public void deliverReady(long nowNanos) {
        while (!suspended && base < expected) {
            long end = base;
            while (end < expected && !endOfMessage[(int) (end & mask)]) {
                end++;
            }
            if (end == expected) {
                return; // the rest of this message has not arrived
            }
            ByteBuf message;
            if (end == base) {
                message = slots[(int) (base & mask)];
            } else {
                CompositeByteBuf composite = allocator.compositeBuffer((int) (end - base + 1));
                for (long s = base; s <= end; s++) {
                    composite.addComponent(true, slots[(int) (s & mask)]);
                }
                message = composite;
            }
            for (long s = base; s <= end; s++) {
                slots[(int) (s & mask)] = null;
            }
            held -= (int) (end - base + 1);
            base = end + 1;
            messagesDelivered++;
            try {
                output.deliver(message);
            } finally {
                message.release();
            }
        }
        // A window reopened by the application is news the sender may be waiting for.
        if (advertisedWindow() >= lastAdvertised + capacity / 4 || lastAdvertised == 0 && advertisedWindow() > 0) {
            ackDeadline = Math.min(ackDeadline, nowNanos);
        }
    }

    /**
     * Doubles the slot arrays, keeping every held packet at its sequence number's new slot: a
     * session that never receives much ahead of what it delivered (most of them) keeps small arrays.
     */
    private void grow() {
        int bigger = Math.min(capacity, slotCount * 2);
        slots = Rings.grown(slots, mask, bigger, base, base + slotCount);
        endOfMessage = Rings.grown(endOfMessage, mask, bigger, base, base + slotCount);
        slotCount = bigger;
        mask = bigger - 1;
    }

    /** Slot arrays allocated now (at most the receive window). */
    public int slots() {
        return slotCount;
    }

    /** Stops handing messages to the application; they stay here and the window closes. */
    public void suspend() {
        suspended = true;
    }

    /** Resumes delivery (and tells the sender the window reopened). */
    public void resume(long nowNanos) {
        suspended = false;
        deliverReady(nowNanos);
    }

    public boolean suspended() {
        return suspended;
    }

    /** Whether the acknowledgement owed is due. */
    public boolean ackDue(long nowNanos) {
        return ackDeadline <= nowNanos;
    }

    public long ackDeadline() {
        return ackDeadline;
    }

    /** Whether this receiver has heard of a stream and has something to acknowledge. */
    public boolean started() {
        return incarnation != 0;
    }

    public long incarnation() {
        return incarnation;
    }

    /** Next sequence number expected, wire form. */
    public int cumulative() {
        return (int) expected;
    }

    /** Packets beyond the cumulative acknowledgement the receiver can still take. */
    public int advertisedWindow() {
        return (int) Math.min(65535, base + capacity - expected);
    }

    /** Records that an acknowledgement with the current state left; returns the mark to echo. */
    public int ackSent() {
        int echo = mark;
        mark = 0;
        sinceAck = 0;
        ackDeadline = Long.MAX_VALUE;
        lastAdvertised = advertisedWindow();
        return echo;
    }

    /** Packets held now (reordering plus not yet taken by the application). */
    public int held() {
        return held;
    }

    /** Most packets ever held at once. */
    public int maxHeld() {
        return maxHeld;
    }

    public long packetsReceived() {
        return packetsReceived;
    }

    public long duplicates() {
        return duplicates;
    }

    public long outOfWindow() {
        return outOfWindow;
    }

    public long messagesDelivered() {
        return messagesDelivered;
    }

    /** Releases every buffer held; the receiver must not be used afterwards. */
    public void close() {
        suspended = true;
        releaseAll();
        base = expected;
    }

    private void releaseAll() {
        for (int i = 0; i < slotCount; i++) {
            if (slots[i] != null) {
                slots[i].release();
                slots[i] = null;
            }
        }
        held = 0;
    }
}

package net.hopwise.overlay.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import net.hopwise.overlay.reliable.RetransmissionTimer;
import net.hopwise.overlay.reliable.Rings;
import net.hopwise.overlay.spi.SessionAdmission;

/**
 * The sending edge of one reliable session: end-to-end sequence numbers, a bounded buffer of what
 * is not yet acknowledged end to end, a window of min(congestion window, advertised window), and
 * end-to-end retransmission only when the end-to-end timer expires, which with reliable links
 * means a node failed or the route changed under the packets.
 *
 * <p>Congestion control reacts to the marks busy nodes put on packets, echoed by the receiving edge
 * (Spines' three levels): level 3 (a queue overflowing) halves the threshold and restarts from one
 * packet, level 2 (more than half full) halves the window, level 1 holds it; at most once per
 * window of data, and never with a retransmission. Without marks the window grows as TCP's does.
 * The sender asks the receiver for an acknowledgement every quarter window (at most
 * {@link SessionConfig#maxAckInterval()} packets), which gives at least four per window.
 *
 * <p>Sans-IO and single-threaded. Over 400 lines since a module's admission meter was added: asking
 * it sits between choosing the next new packet and sending it, inside the window bookkeeping.
 */
public final class ReliableSessionSender {
    /** Where the sender's packets go; implemented by the node engine. */
    public interface Output {
        /**
         * Sends one packet of the session. The sender keeps {@code payload} and never changes its
         * readable bytes. On a first transmission ({@code retransmission} false) the headroom in front
         * of them (see {@link ReliableSessionSender#offer}) is the output's to write the packet's
         * headers into, and it may send views of the buffer with references of their own; a
         * retransmission must leave the headroom alone (an earlier view may still be on its way) and
         * copy.
         *
         * @return false when the first link cannot take it now (its queue is long, or there is no
         *     route): the sender keeps it and tries again when {@link #pump} is next called
         */
        boolean transmit(long incarnation, int sequence, ByteBuf payload, boolean endOfMessage, int ackInterval,
                boolean retransmission);

        /** Packets left the buffer because the receiving edge acknowledged them. */
        void acknowledged(int packets);
    }

    private final SessionConfig config;
    private final Output output;
    private final long incarnation;
    /** Packets the buffer may hold (the configured send buffer). */
    private final int capacity;
    /** Slots allocated: they start at {@link Rings#INITIAL_SLOTS} and double when the buffer needs them. */
    private int slots;
    private int mask;
    private ByteBuf[] payloads;
    private boolean[] endOfMessage;
    private long[] sentAt;
    private boolean[] resent;
    private final RetransmissionTimer timer;

    /** Lowest sequence number not acknowledged. */
    private long acked;
    /** Next sequence number to send (goes back to {@link #acked} after a timeout). */
    private long sent;
    /** One past the highest sequence number ever sent. */
    private long highestSent;
    /** Next sequence number to assign. */
    private long next;
    private double window;
    private double threshold;
    private long advertised;
    private long reactionPoint;
    private long deadline = Long.MAX_VALUE;
    private boolean blocked;
    /** Null unless a module meters the node's sessions; then every new packet is bought before it goes. */
    private SessionAdmission.Meter meter;
    /** Whether the meter refused the packet at {@link #sent}; then nothing new goes before {@link #gateRetry}. */
    private boolean gated;
    private long gateRetry = Long.MAX_VALUE;
    /** A sequence the meter admitted and the first link then refused: it is not paid for twice. */
    private long prepaid = -1;

    private long messagesAccepted;
    private long packetsSent;
    private long retransmissions;
    private long timeouts;
    private long marks;

    public ReliableSessionSender(SessionConfig config, long incarnation, Output output) {
        this.config = config;
        this.output = output;
        this.incarnation = incarnation;
        this.capacity = config.sendBuffer();
        this.slots = Math.min(capacity, Rings.INITIAL_SLOTS);
        this.mask = slots - 1;
        this.payloads = new ByteBuf[slots];
        this.endOfMessage = new boolean[slots];
        this.sentAt = new long[slots];
        this.resent = new boolean[slots];
        this.window = config.initialWindow();
        this.threshold = capacity;
        // Until the receiving edge speaks, assume it can take what the initial window sends.
        this.advertised = config.initialWindow();
        this.timer = new RetransmissionTimer(config.initialTimeout().toNanos(), config.minTimeout().toNanos(),
                config.maxTimeout().toNanos());
    }

    public long incarnation() {
        return incarnation;
    }

    /** Packets the buffer can still take. */
    public int room() {
        return (int) (capacity - (next - acked));
    }

    /** Packets a message of {@code length} bytes takes with {@code maxPayload} bytes per packet. */
    public static int packetsFor(int length, int maxPayload) {
        return Math.max(1, (length + maxPayload - 1) / maxPayload);
    }

    /**
     * Takes a message (its readable bytes are copied), split in packets of at most {@code maxPayload}
     * bytes, and sends what the window allows. Each packet's payload is stored behind
     * {@code headroom} free bytes, where the output builds the packet around it on its first
     * transmission instead of copying it again.
     *
     * @return false, taking nothing, when the buffer has no room for the whole message
     */
    public boolean offer(ByteBuf message, int maxPayload, int headroom, ByteBufAllocator allocator, long nowNanos) {
        int length = message.readableBytes();
        int count = packetsFor(length, maxPayload);
        if (count > room()) {
            return false;
        }
        int offset = message.readerIndex();
        for (int k = 0; k < count; k++) {
            int chunk = Math.min(maxPayload, length - k * maxPayload);
            ByteBuf copy = allocator.ioBuffer(headroom + chunk);
            copy.setIndex(headroom, headroom);
            copy.writeBytes(message, offset + k * maxPayload, chunk);
            if (next - acked >= slots) {
                grow();
            }
            int i = (int) (next & mask);
            payloads[i] = copy;
            endOfMessage[i] = k == count - 1;
            resent[i] = false;
            next++;
        }
        messagesAccepted++;
        pump(nowNanos);
        return true;
    }

    /**
     * Takes a one-packet message already in a buffer of its own, with the output's headroom in front
     * of its reader index, and sends what the window allows. On success the sender owns
     * {@code packet}; on false (the buffer is full) the caller keeps it.
     */
    public boolean offerPrepared(ByteBuf packet, long nowNanos) {
        if (room() < 1) {
            return false;
        }
        if (next - acked >= slots) {
            grow();
        }
        int i = (int) (next & mask);
        payloads[i] = packet;
        endOfMessage[i] = true;
        resent[i] = false;
        next++;
        messagesAccepted++;
        pump(nowNanos);
        return true;
    }

    /**
     * Doubles the slot arrays, keeping every buffered packet at its sequence number's new slot: a
     * session that never has much outstanding (most of them) keeps small arrays.
     */
    private void grow() {
        int bigger = Math.min(capacity, slots * 2);
        payloads = Rings.grown(payloads, mask, bigger, acked, next);
        endOfMessage = Rings.grown(endOfMessage, mask, bigger, acked, next);
        sentAt = Rings.grown(sentAt, mask, bigger, acked, next);
        resent = Rings.grown(resent, mask, bigger, acked, next);
        slots = bigger;
        mask = bigger - 1;
    }

    /** Slot arrays allocated now (at most the send buffer). */
    public int slots() {
        return slots;
    }

    private int usableWindow() {
        return Math.max(1, (int) window);
    }

    /** The acknowledgement interval asked of the receiver now. */
    int ackInterval() {
        long queued = next - acked;
        return (int) Math.max(1, Math.min(Math.min(usableWindow() / 4, queued), config.maxAckInterval()));
    }

    /**
     * Meters this sender's new packets (null: none, as without): each first transmission goes only
     * once {@code meter} admits it.
     */
    public void meter(SessionAdmission.Meter meter) {
        this.meter = meter;
    }

    /** The meter may admit again before the instant it named: ask at the next timer. */
    public void wake() {
        if (gated) {
            // Due at once on any clock: far in the past, yet far enough from Long.MIN_VALUE that a
            // node subtracting its clock from it cannot overflow to a deadline in the far future.
            gateRetry = Long.MIN_VALUE / 2;
        }
    }

    /** Whether the meter refused the next new packet and the sender waits for it. */
    public boolean gated() {
        return gated;
    }

    /** Sends what the windows, the meter and the first link allow. */
    public void pump(long nowNanos) {
        blocked = false;
        // A refused session does not ask again before the instant its meter named (or its wake).
        boolean waiting = gated && nowNanos < gateRetry;
        // Not waiting: the meter is asked afresh if a new packet gets that far (a window closed since
        // leaves nothing to ask about, and no stale retry instant may keep the timer due).
        gated = waiting;
        int interval = ackInterval();
        while (sent < next && sent - acked < usableWindow() && sent < acked + advertised) {
            int i = (int) (sent & mask);
            boolean again = sent < highestSent;
            if (!again && meter != null && prepaid != sent) {
                if (waiting) {
                    break;
                }
                long verdict = meter.admit(nowNanos);
                if (verdict != SessionAdmission.ADMITTED) {
                    gated = true;
                    // A meter naming the present would have the timer spin on one instant.
                    gateRetry = Math.max(verdict, nowNanos + 1);
                    break;
                }
                prepaid = sent;
            }
            if (!output.transmit(incarnation, (int) sent, payloads[i], endOfMessage[i], interval, again)) {
                blocked = true;
                break;
            }
            if (again) {
                resent[i] = true;
                retransmissions++;
            }
            sentAt[i] = nowNanos;
            packetsSent++;
            sent++;
            highestSent = Math.max(highestSent, sent);
        }
        if (deadline == Long.MAX_VALUE && (sent > acked || sent < next)) {
            // Either packets await acknowledgement, or data waits on a closed window or a busy link:
            // the timer resends in the first case, probes the window or retries in the others.
            deadline = nowNanos + timer.timeoutNanos();
        }
    }

    /** Whether the first link refused a packet at the last {@link #pump}. */
    public boolean blocked() {
        return blocked;
    }

    /**
     * Takes an acknowledgement from the receiving edge.
     *
     * @param ackIncarnation the stream it acknowledges; others are ignored
     * @param cumulative next sequence number the receiver expects (wire form)
     * @param advertisedWindow packets beyond it the receiver can take
     * @param mark congestion mark echoed (0-3)
     */
    public void onAck(long ackIncarnation, int cumulative, int advertisedWindow, int mark, long nowNanos) {
        if (ackIncarnation != incarnation) {
            return;
        }
        long cum = acked + (cumulative - (int) acked);
        if (cum < acked || cum > highestSent) {
            return; // older than what we know, or acknowledges what was never sent
        }
        boolean windowLimited = next > sent || sent - acked >= usableWindow() - 1;
        int newly = (int) (cum - acked);
        long sample = -1;
        if (newly > 0) {
            int last = (int) ((cum - 1) & mask);
            if (!resent[last]) {
                sample = nowNanos - sentAt[last];
            }
            for (long s = acked; s < cum; s++) {
                int i = (int) (s & mask);
                payloads[i].release();
                payloads[i] = null;
            }
            acked = cum;
            if (sent < acked) {
                sent = acked;
            }
            timer.onSample(sample);
        }
        advertised = advertisedWindow;
        if (mark > 0 && cum > reactionPoint) {
            marks++;
            reactionPoint = sent;
            if (mark >= 3) {
                threshold = Math.max(window / 2, 2);
                window = 1;
            } else if (mark == 2) {
                threshold = Math.max(window / 2, 2);
                window = Math.max(window / 2, 1);
            }
        } else if (mark == 0 && newly > 0 && windowLimited) {
            if (window < threshold) {
                window += newly;
            } else {
                window += (double) newly / window;
            }
            window = Math.min(window, capacity);
        }
        if (newly > 0) {
            deadline = sent > acked || sent < next ? nowNanos + timer.timeoutNanos() : Long.MAX_VALUE;
            output.acknowledged(newly);
        }
        pump(nowNanos);
    }

    /**
     * Runs the end-to-end timer: resend everything unacknowledged, probe a closed window, or retry;
     * and asks the meter again once it said to.
     */
    public void onTimer(long nowNanos) {
        if (gated && nowNanos >= gateRetry) {
            pump(nowNanos);
        }
        if (nowNanos < deadline) {
            return;
        }
        deadline = Long.MAX_VALUE;
        if (sent > acked) {
            timeouts++;
            threshold = Math.max(window / 2, 2);
            window = 1;
            timer.backOff();
            sent = acked;
            reactionPoint = highestSent;
        } else if (sent < next && sent >= acked + advertised) {
            // Zero window: send one packet beyond it; the receiver drops it and answers with its window.
            long saved = advertised;
            advertised = sent - acked + 1;
            pump(nowNanos);
            advertised = saved;
            return;
        }
        pump(nowNanos);
    }

    public long nextDeadlineNanos() {
        return gated ? Math.min(deadline, gateRetry) : deadline;
    }

    /** Releases every buffer held; the sender must not be used afterwards. */
    public void close() {
        for (long s = acked; s < next; s++) {
            int i = (int) (s & mask);
            payloads[i].release();
            payloads[i] = null;
        }
        acked = next;
        sent = next;
    }

    /** Packets held: unacknowledged plus waiting. */
    public int buffered() {
        return (int) (next - acked);
    }

    public int congestionWindow() {
        return usableWindow();
    }

    public long advertisedWindow() {
        return advertised;
    }

    public long srttNanos() {
        return timer.srttNanos();
    }

    public long messagesAccepted() {
        return messagesAccepted;
    }

    public long packetsSent() {
        return packetsSent;
    }

    public long retransmissions() {
        return retransmissions;
    }

    public long timeouts() {
        return timeouts;
    }

    public long marks() {
        return marks;
    }
}

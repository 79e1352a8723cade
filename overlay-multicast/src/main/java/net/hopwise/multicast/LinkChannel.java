package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.util.ArrayDeque;

/**
 * The sending end of one link's channel for flow-controlled group traffic: the link's output buffer
 * of the thesis's model (whose average length prices the link), drained into a window, each packet
 * acknowledged by the neighbour and resent until it is. This stands in for the thesis's reliable
 * window per overlay link (section 4.2.2: "if the reliability window of the downstream link is full,
 * the overlay node buffers the packet"). Sans-IO: time is handed in and packets leave through the
 * {@link Sink}.
 *
 * <p>The window follows TCP Vegas (Brakmo and Peterson 1994): slow start, then once a round trip it
 * grows by one while fewer than {@link #VEGAS_ALPHA} of its packets wait in the network's queues and
 * shrinks by one when more than {@link #VEGAS_BETA} do. A loss-driven window (Reno) would fill the
 * queue of the bottleneck on the path as well, hiding the congestion from the buffer that Cost-Benefit
 * prices, and its halvings would empty that buffer; with Vegas the standing queue is here, where the
 * link's cost sees it. Loss is detected as TCP with selective acknowledgements and RACK do: a packet
 * is lost once {@link #REORDER_THRESHOLD} packets sent after it were acknowledged, or when the
 * retransmission timer runs out; the window then halves once per window of data, or falls to one on
 * a timeout.
 *
 * <p>A channel that no flow control prices (reliable multicast's) is loss-driven instead ({@link
 * #lossDriven}): Vegas reads the time a busy event loop takes to answer as queueing, which on a loopback
 * or LAN path of a base round trip of tens of microseconds held such a window at about eight packets; with
 * nothing to keep the queue visible for, the channel grows as TCP Reno does, until the path drops or
 * (made with {@link #lossDrivenWithQueueTarget}) the queue it builds delays the round trip by more than {@link #QUEUE_DELAY_TARGET_NANOS} (or one base
 * round trip, when longer). A path that never drops (a neighbour's deep socket buffer) otherwise took
 * the whole window: a relay fanning out to 50 members on one loop left 512 packets in each member's
 * socket, round trips of most of a second, and link probes so late that the routing recomputed all the
 * time. Past the target the window is scaled to what would hold the queue at the target, as a
 * delay-based controller (LEDBAT, RFC 6817) does, so that the rest waits here, where it delays nothing else.
 *
 * <p>Over 400 lines: the buffer, the ring of packets out, loss detection and the two windows all read
 * and change the same per-packet entries on every acknowledgement; split, each part would reach into
 * the others' state.
 */
final class LinkChannel {
    /** How far new sequences may run ahead of the oldest unacknowledged one: the receiver's window. */
    static final int SPAN = 1024;
    /** Half the span, so a window's sequences never wrap the receiver's window while one is resent. */
    static final int MAX_WINDOW = SPAN / 2;
    /** 3: TCP's duplicate-acknowledgement threshold, by send order. */
    static final int REORDER_THRESHOLD = 3;
    /** 4 packets: the initial window of RFC 3390 for full-size segments. */
    static final double INITIAL_WINDOW = 4;
    /** 200 ms: Linux's minimum retransmission timeout, above the delayed acks of no neighbour here. */
    static final long MIN_RTO_NANOS = 200_000_000L;
    /** 1 s: RFC 6298's initial retransmission timeout. */
    static final long INITIAL_RTO_NANOS = 1_000_000_000L;
    /** 2 packets: Vegas's alpha, the fewest of its packets it keeps queued in the network. */
    static final double VEGAS_ALPHA = 2;
    /** 4 packets: Vegas's beta, the most. */
    static final double VEGAS_BETA = 4;
    /** 1 packet: Vegas's gamma, the queue at which slow start ends. */
    static final double VEGAS_GAMMA = 1;
    /**
     * 5 ms: the queueing delay past which a loss-driven channel stops growing and scales its window
     * down. Well above the time a busy event loop takes to answer (tens to hundreds of microseconds),
     * which must not hold the window (see the class comment), and well below the round trips at which
     * link probes and repair timers work (tens of milliseconds), which a deeper queue would distort.
     */
    static final long QUEUE_DELAY_TARGET_NANOS = 5_000_000L;
    /** 60 s: RFC 6298's ceiling of the backed-off timeout. */
    static final long MAX_RTO_NANOS = 60_000_000_000L;
    /**
     * 1 ms: how long a loss-driven channel whose datagram the node's socket refused waits before trying
     * again, unless an acknowledgement comes first. A socket's megabytes of send buffer drain in about
     * that at loopback rates: later leaves the link idle, sooner finds it still full.
     */
    static final long REFUSED_RETRY_NANOS = 1_000_000L;
    /** 12 sends of one packet, about two minutes of backed-off timeouts: past that the link is not carrying. */
    static final int MAX_SENDS = 12;

    /** Where a channel's datagram bodies go (the link); false when it could not go now. */
    interface Sink {
        boolean transmit(ByteBuf body);
    }

    /** What may ride on the channel's packets: cost updates, for a packet of {@code bodyBytes} after the header. */
    interface Rider {
        /** @return the bytes to carry (a u16 length and the updates) or null; the channel takes them */
        ByteBuf take(int bodyBytes);
    }

    /** A packet waiting for the window, and when it was offered. */
    private record Offered(ByteBuf body, long atNanos) {}

    private static final class Entry {
        final long sequence;
        final ByteBuf body;
        final long offeredNanos;
        long order;
        long sentNanos;
        int sends;
        boolean inFlight;
        boolean acked;

        Entry(long sequence, Offered o) {
            this.sequence = sequence;
            this.body = o.body();
            this.offeredNanos = o.atNanos();
        }
    }

    private final int epoch;
    private final boolean vegas;
    private final int hardLimit;
    private final ByteBufAllocator allocator;
    private final Sink sink;
    private final ArrayDeque<Offered> buffer = new ArrayDeque<>();
    private final Entry[] ring = new Entry[SPAN];
    private final ArrayDeque<Entry> lost = new ArrayDeque<>();
    private final QueueAverage average;
    private long oldest;
    private long nextSequence;
    private long sendOrder;
    private long highestAckedOrder = -1;
    private long recoveryOrder = -1;
    private int inFlight;
    private double window = INITIAL_WINDOW;
    private double threshold = MAX_WINDOW;
    private long srtt = -1;
    private long rttvar;
    private long rto = INITIAL_RTO_NANOS;
    private long rtoDeadline = Long.MAX_VALUE;
    private long baseRtt = Long.MAX_VALUE;
    private long epochRtt = Long.MAX_VALUE;
    private long epochEndOrder;
    /** Whether the window held packets back in this round: only then does it grow (RFC 7661). */
    private boolean windowLimited;
    private long dropped;
    private long resent;
    /** Datagrams the node's socket refused (each retried later), for diagnostics. */
    private long refused;
    /** A loss-driven channel's socket refused a datagram: no sends before this instant, unless an acknowledgement comes. */
    private long refusedUntil = Long.MIN_VALUE;
    private boolean failed;
    private int peak;
    private Rider rider;
    /** Whether a loss-driven window also stops at the queueing target. */
    private boolean queueTarget;

    LinkChannel(int epoch, int hardLimit, ByteBufAllocator allocator, Sink sink, long nowNanos) {
        this(epoch, hardLimit, allocator, sink, nowNanos, true);
    }

    /** A channel whose window only losses shrink: for traffic no flow control prices. */
    static LinkChannel lossDriven(int epoch, int hardLimit, ByteBufAllocator allocator, Sink sink, long nowNanos) {
        return new LinkChannel(epoch, hardLimit, allocator, sink, nowNanos, false);
    }

    /**
     * A loss-driven channel that also stops at {@link #QUEUE_DELAY_TARGET_NANOS} of queueing: reliable
     * multicast's, whose window nothing else bounds. Cost-Benefit's loss-driven channels have a cap of
     * their own and keep the behaviour their scenarios were measured with.
     */
    static LinkChannel lossDrivenWithQueueTarget(int epoch, int hardLimit, ByteBufAllocator allocator, Sink sink,
            long nowNanos) {
        LinkChannel c = new LinkChannel(epoch, hardLimit, allocator, sink, nowNanos, false);
        c.queueTarget = true;
        return c;
    }

    private LinkChannel(int epoch, int hardLimit, ByteBufAllocator allocator, Sink sink, long nowNanos,
            boolean vegas) {
        this.vegas = vegas;
        // 31 bits: the top bit of the epoch word flags what rides along (ChannelAck).
        this.epoch = epoch & ~ChannelAck.DATA_CARRIED;
        this.hardLimit = hardLimit;
        this.allocator = allocator;
        this.sink = sink;
        this.average = new QueueAverage(nowNanos);
    }

    /** Lets cost updates ride on this channel's packets from now on. */
    void carry(Rider r) {
        this.rider = r;
    }

    /**
     * Queues a group datagram for the link and sends what the window allows. Takes ownership of
     * {@code body}.
     *
     * @return false when the buffer is at its hard limit and the packet was dropped
     */
    boolean offer(ByteBuf body, long nowNanos) {
        if (!queue(body, nowNanos)) {
            return false;
        }
        pump(nowNanos);
        return true;
    }

    /**
     * Queues a group datagram without sending: the caller pumps the channel later, so that what a
     * batch queued for one link leaves back to back (the node sends a run to one address in one
     * system call). Takes ownership of {@code body}.
     *
     * @return false when the buffer is at its hard limit and the packet was dropped
     */
    boolean queue(ByteBuf body, long nowNanos) {
        if (buffer.size() >= hardLimit) {
            body.release();
            dropped++;
            return false;
        }
        buffer.add(new Offered(body, nowNanos));
        peak = Math.max(peak, buffer.size());
        return true;
    }

    /** Takes an acknowledgement of this channel's epoch; others are stale and ignored. */
    void onAck(ChannelAck ack, long nowNanos) {
        if (ack.epoch() != epoch) {
            return;
        }
        long cumulative = oldest + (ack.cumulative() - (int) oldest);
        if (cumulative > nextSequence) {
            return; // acknowledges what was never sent: not this channel's
        }
        boolean progress = false;
        for (long s = oldest; s < cumulative; s++) {
            progress |= acknowledge(s, nowNanos);
        }
        for (int raw : ack.sequences()) {
            long s = oldest + (raw - (int) oldest);
            if (s >= oldest && s < nextSequence) {
                progress |= acknowledge(s, nowNanos);
            }
        }
        while (oldest < nextSequence && ring[slot(oldest)] == null) {
            oldest++;
        }
        if (progress) {
            rtoDeadline = inFlight > 0 ? nowNanos + rto : Long.MAX_VALUE;
            detectLosses();
            // Time passed and the loop read its socket: worth a try before the refusal's wait is over.
            refusedUntil = Long.MIN_VALUE;
        }
        pump(nowNanos);
    }

    private boolean acknowledge(long sequence, long nowNanos) {
        Entry e = ring[slot(sequence)];
        if (e == null || e.sequence != sequence || e.acked) {
            return false;
        }
        e.acked = true;
        ring[slot(sequence)] = null;
        if (e.inFlight) {
            inFlight--;
        } else {
            lost.remove(e);
        }
        if (e.sends == 1) {
            long rtt = nowNanos - e.sentNanos;
            sampleRtt(rtt);
            baseRtt = Math.min(baseRtt, rtt);
            epochRtt = Math.min(epochRtt, rtt);
        }
        highestAckedOrder = Math.max(highestAckedOrder, e.order);
        if (window < threshold && windowLimited) {
            window = Math.min(MAX_WINDOW, window + 1);
        }
        if (e.order > epochEndOrder) {
            endOfRound();
        }
        e.body.release();
        return true;
    }

    /** Once a round trip: Vegas's estimate of this window's packets queued in the network, and its step. */
    private void endOfRound() {
        epochEndOrder = sendOrder;
        if (epochRtt == Long.MAX_VALUE || baseRtt == Long.MAX_VALUE) {
            return;
        }
        long roundRtt = epochRtt;
        double queued = window * (roundRtt - baseRtt) / (double) roundRtt;
        epochRtt = Long.MAX_VALUE;
        boolean limited = windowLimited;
        windowLimited = !buffer.isEmpty();
        if (!vegas) {
            long target = Math.max(QUEUE_DELAY_TARGET_NANOS, baseRtt);
            if (queueTarget && roundRtt - baseRtt > target) {
                // At the same rate, this window would have held the queue at the target.
                threshold = Math.max(2, window * (baseRtt + target) / (double) roundRtt);
                window = threshold;
            } else if (window >= threshold && limited) {
                window = Math.min(MAX_WINDOW, window + 1);
            }
            return;
        }
        if (window < threshold) {
            if (queued > VEGAS_GAMMA) {
                threshold = Math.max(2, window - queued);
                window = threshold;
            }
        } else if (queued < VEGAS_ALPHA && limited) {
            window = Math.min(MAX_WINDOW, window + 1);
        } else if (queued > VEGAS_BETA) {
            window = Math.max(2, window - 1);
        }
    }

    private void sampleRtt(long sample) {
        if (srtt < 0) {
            srtt = sample;
            rttvar = sample / 2;
        } else {
            rttvar = (3 * rttvar + Math.abs(srtt - sample)) / 4;
            srtt = (7 * srtt + sample) / 8;
        }
        rto = Math.max(MIN_RTO_NANOS, Math.min(MAX_RTO_NANOS, srtt + 4 * rttvar));
    }

    private void detectLosses() {
        for (long s = oldest; s < nextSequence; s++) {
            Entry e = ring[slot(s)];
            if (e != null && e.inFlight && e.order + REORDER_THRESHOLD <= highestAckedOrder) {
                markLost(e);
                if (e.order > recoveryOrder) {
                    threshold = Math.max(2, window / 2);
                    window = threshold;
                    recoveryOrder = sendOrder;
                }
            }
        }
    }

    private void markLost(Entry e) {
        e.inFlight = false;
        inFlight--;
        if (e.sends >= MAX_SENDS) {
            // The receiver's window cannot pass the gap: the channel is done and is made anew.
            failed = true;
            ring[slot(e.sequence)] = null;
            e.acked = true;
            e.body.release();
            dropped++;
            return;
        }
        lost.add(e);
    }

    /** Sends resends first, then new packets, while the window has room. */
    void pump(long nowNanos) {
        if (nowNanos < refusedUntil) {
            return;
        }
        refusedUntil = Long.MIN_VALUE;
        if (!buffer.isEmpty() && inFlight >= (int) window) {
            windowLimited = true;
        }
        while (inFlight < (int) window) {
            Entry e = lost.poll();
            if (e == null) {
                if (buffer.isEmpty() || nextSequence - oldest >= SPAN) {
                    break;
                }
                e = new Entry(nextSequence++, buffer.poll());
                ring[slot(e.sequence)] = e;
            } else {
                resent++;
            }
            if (!transmit(e, nowNanos)) {
                break;
            }
        }
        if (!buffer.isEmpty()) {
            windowLimited = true;
        }
        while (oldest < nextSequence && ring[slot(oldest)] == null) {
            oldest++;
        }
        average.set(buffer.size(), nowNanos);
    }

    /** @return false when the socket refused it (a loss-driven channel then waits, see {@link #REFUSED_RETRY_NANOS}) */
    private boolean transmit(Entry e, long nowNanos) {
        e.order = ++sendOrder;
        e.sentNanos = nowNanos;
        e.sends++;
        e.inFlight = true;
        inFlight++;
        if (rtoDeadline == Long.MAX_VALUE) {
            rtoDeadline = nowNanos + rto;
        }
        ByteBuf carried = rider == null ? null : rider.take(e.body.readableBytes());
        ByteBuf header = allocator.buffer(ChannelAck.DATA_HEADER);
        header.writeInt(carried == null ? epoch : epoch | ChannelAck.DATA_CARRIED);
        header.writeInt((int) e.sequence);
        // Room for one more component: the node puts its header in front without a composite of its own.
        CompositeByteBuf out = allocator.compositeBuffer(4);
        if (carried == null) {
            out.addComponents(true, header, e.body.retainedDuplicate());
        } else {
            out.addComponents(true, header, carried, e.body.retainedDuplicate());
        }
        if (sink.transmit(out) || vegas) {
            // A Vegas channel takes a datagram its socket refused as lost on the wire: the
            // acknowledgements tell, and the window that flow control prices reacts as to a loss.
            return true;
        }
        // Refused by a full socket: not sent, so neither in flight nor a loss; it goes first when the
        // socket has room. Counting it lost left the whole tail of a window to the retransmission
        // timer (200 ms at least), and a relay's burst to many children refused many such tails at once.
        e.inFlight = false;
        e.sends--;
        inFlight--;
        lost.addFirst(e);
        if (inFlight == 0) {
            rtoDeadline = Long.MAX_VALUE;
        }
        refusedUntil = nowNanos + REFUSED_RETRY_NANOS;
        refused++;
        return false;
    }

    long nextDeadlineNanos() {
        return refusedUntil == Long.MIN_VALUE ? rtoDeadline : Math.min(rtoDeadline, refusedUntil);
    }

    /**
     * When the oldest packet this channel still holds (waiting, in flight or to be resent) was offered;
     * {@code Long.MAX_VALUE} when it holds none. A packet offered at or after it, and not refused, is
     * still on its way: the channel delivers it or fails.
     */
    long heldSinceNanos() {
        for (long s = oldest; s < nextSequence; s++) {
            Entry e = ring[slot(s)];
            if (e != null) {
                return e.offeredNanos; // sequences follow the order of the offers
            }
        }
        Offered first = buffer.peek();
        return first == null ? Long.MAX_VALUE : first.atNanos();
    }

    /** The retransmission timeout: everything in flight is lost, and the window starts again from one. */
    void onTimer(long nowNanos) {
        if (refusedUntil != Long.MIN_VALUE && nowNanos >= refusedUntil) {
            pump(nowNanos);
        }
        if (nowNanos < rtoDeadline) {
            return;
        }
        rtoDeadline = Long.MAX_VALUE;
        if (inFlight == 0) {
            return;
        }
        for (long s = oldest; s < nextSequence; s++) {
            Entry e = ring[slot(s)];
            if (e != null && e.inFlight) {
                markLost(e);
            }
        }
        threshold = Math.max(2, window / 2);
        window = 1;
        recoveryOrder = sendOrder;
        rto = Math.min(MAX_RTO_NANOS, rto * 2);
        pump(nowNanos);
    }

    /** The average buffer length since the last call, starting a new period. */
    double takeAverage(long nowNanos) {
        average.set(buffer.size(), nowNanos);
        return average.takeAverage(nowNanos);
    }

    /** Whether the buffer held a packet in the current period. */
    boolean hadQueue() {
        return average.hadQueue();
    }

    /** Whether a packet was given up after {@link #MAX_SENDS} sends: the channel must be replaced. */
    boolean failed() {
        return failed;
    }

    /** The longest the buffer was since the last call. */
    int takePeak() {
        int p = peak;
        peak = buffer.size();
        return p;
    }

    int buffered() {
        return buffer.size();
    }

    int inFlight() {
        return inFlight;
    }

    double window() {
        return window;
    }

    long dropped() {
        return dropped;
    }

    long resent() {
        return resent;
    }

    long refused() {
        return refused;
    }

    /** The smoothed and the least round trip measured, in nanoseconds; -1 and {@code Long.MAX_VALUE} before any. */
    long smoothedRttNanos() {
        return srtt;
    }

    long baseRttNanos() {
        return baseRtt;
    }

    /** Releases everything held: the link is gone or the node stops. */
    void close() {
        buffer.forEach(o -> o.body().release());
        buffer.clear();
        for (int i = 0; i < SPAN; i++) {
            if (ring[i] != null) {
                ring[i].body.release();
                ring[i] = null;
            }
        }
        lost.clear();
        inFlight = 0;
        rtoDeadline = Long.MAX_VALUE;
    }

    private static int slot(long sequence) {
        return (int) (sequence % SPAN);
    }
}

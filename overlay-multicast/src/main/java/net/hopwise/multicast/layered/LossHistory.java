package net.hopwise.multicast.layered;

import java.util.function.DoubleSupplier;

/**
 * TFRC's loss-event rate (RFC 5348, section 5) over the packets of every layer a receiver holds:
 * losses whose packets were sent within one round trip of the start of a loss event belong to that
 * event, and the rate is one over the weighted mean of the last eight loss intervals (packets from
 * one event's start to the next), the open interval counted only when that lowers the rate.
 *
 * <p>Why not the window of {@link LayerLossMonitor}: a window of a few seconds empties a few
 * seconds after TCP's last overflow, the TCP equation then sets no ceiling at all, and the receiver
 * rejoins every layer the pair estimate allows (live beside kernel TCP: 2 to 17 layers at once,
 * then the equation brings it back). The history never forgets: without new loss the rate falls
 * only as the open interval grows.
 *
 * <p>Why send times: a loss on a layer is seen only at that layer's next packet, up to a bunch
 * spacing later (410 ms on a 20 Kbit/s layer of pairs, 20 ms on a layer twenty times faster), so
 * on layers of different rates one overflow of the bottleneck's queue is seen at instants spread
 * over that spacing, and grouped by the instant it was seen it counts as several events. The lost
 * packet's send time is the sender's clock of its bunch (a bunch's packets leave back to back; the
 * first packet's sequence number is a multiple of the bunch length), interpolated between the
 * bunches around the gap.
 */
final class LossHistory {
    /** RFC 5348, section 5.4: the eight most recent intervals, the older four fading (1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2). */
    private static final double[] WEIGHTS = weights(8);
    /** Event starts remembered for late-seen losses: about a second of events at a few per round trip. */
    private static final int RECENT_EVENTS = 16;
    /** A gap longer than this is an outage; its further packets count in the interval, not as events. */
    private static final int MAX_GAP_SCAN = 4096;

    private final long[] expected;
    private final long[] lastSequence;
    private final long[] lastSentNanos;
    private final boolean[] synced;
    /** I_1..I_8, the most recent first. */
    private final long[] closed = new long[WEIGHTS.length];
    private int closedCount;
    /** I_0: packets (received and lost) since the start of the latest event. */
    private long open;
    /** The intervals in send time (nanoseconds), for {@link #eventsPerSecond()}: as many as its weights. */
    private final long[] closedNanos;
    private final double[] timeWeights;
    private int closedNanosCount;
    /** Send time of the latest event's first loss: where the open interval starts. */
    private long openSinceNanos;
    /** Send times of the newest and of the first packet seen (the seed interval's span is read from them). */
    private long newestSentNanos = Long.MIN_VALUE;
    private long firstSentNanos = Long.MIN_VALUE;
    private boolean anyEvent;
    private final long[] eventStarts = new long[RECENT_EVENTS];
    /** The latest loss of each remembered event, by send time (its start unless {@link #chained}). */
    private final long[] eventEnds = new long[RECENT_EVENTS];
    private int eventAt;
    private int eventCount;
    private long events;
    private final DoubleSupplier firstInterval;
    /** How many round trips of send time around an event's losses a loss joins it: 1, TFRC's. */
    private final double spanRtts;
    /** Whether each loss of an event extends it (an episode), or only its first loss counts (TFRC). */
    private final boolean chained;
    /** Whether a loss behind a packet of the same bunch that arrived opens an event (TFRC: every loss does). */
    private final boolean tailsOpen;
    /** Round trips of send time a chained event lasts at most from its first loss; 0: no bound. */
    private final double maxRtts;

    /**
     * @param firstInterval the loss interval, in packets, that seeds the history at the first event
     *     (RFC 5348, section 6.3.1: the interval that gives the rate received before it)
     */
    LossHistory(int layers, DoubleSupplier firstInterval) {
        this(layers, firstInterval, 1, false, true);
    }

    /**
     * @param spanRtts round trips of send time within which a loss joins an event
     * @param chained whether the span runs from an event's latest loss rather than its first
     * @param tailsOpen whether a bunch's packet lost behind one of its own that arrived opens an event
     */
    LossHistory(int layers, DoubleSupplier firstInterval, double spanRtts, boolean chained, boolean tailsOpen) {
        this(layers, firstInterval, spanRtts, chained, tailsOpen, 0);
    }

    /**
     * @param maxRtts round trips of send time a chained event lasts at most from its first loss (0: no
     *     bound); a loss after that opens the next event
     */
    LossHistory(int layers, DoubleSupplier firstInterval, double spanRtts, boolean chained, boolean tailsOpen, double maxRtts) {
        this(layers, firstInterval, spanRtts, chained, tailsOpen, maxRtts, WEIGHTS.length);
    }

    /**
     * @param timeIntervals how many loss intervals {@link #eventsPerSecond()} averages, weighted as
     *     RFC 5348 section 5.4 weights n of them (the newest half whole, the older half fading); 8
     *     is TFRC's. More make the count steadier: a session meeting one event a second draws its
     *     eight intervals' mean from about eight seconds, whose count varies by a third.
     */
    LossHistory(int layers, DoubleSupplier firstInterval, double spanRtts, boolean chained, boolean tailsOpen, double maxRtts,
            int timeIntervals) {
        if (timeIntervals < 1) {
            throw new IllegalArgumentException("timeIntervals must be >= 1, got " + timeIntervals);
        }
        this.closedNanos = new long[timeIntervals];
        this.timeWeights = weights(timeIntervals);
        this.maxRtts = maxRtts;
        this.spanRtts = spanRtts;
        this.chained = chained;
        this.tailsOpen = tailsOpen;
        this.expected = new long[layers];
        this.lastSequence = new long[layers];
        this.lastSentNanos = new long[layers];
        this.synced = new boolean[layers];
        this.firstInterval = firstInterval;
    }

    /**
     * A packet arrived.
     *
     * @param sentNanos its send time on the sender's clock
     * @param bunchLength B, packets per bunch
     * @param rttNanos the round trip that bounds one loss event
     */
    void onPacket(int layer, long sequence, long sentNanos, int bunchLength, long rttNanos) {
        newestSentNanos = Math.max(newestSentNanos, sentNanos);
        if (firstSentNanos == Long.MIN_VALUE) {
            firstSentNanos = sentNanos;
        }
        if (!synced[layer]) {
            synced[layer] = true;
            remember(layer, sequence, sentNanos);
            open++;
            return;
        }
        long gap = (sequence - expected[layer]) & 0xFFFF_FFFFL;
        if (gap >= 0x8000_0000L) {
            // Older than expected: reordered or duplicated, received all the same.
            open++;
            return;
        }
        long from = lastSequence[layer];
        long to = from + ((sequence - from) & 0xFFFF_FFFFL);
        long fromBunch = from / bunchLength;
        long toBunch = to / bunchLength;
        for (long q = from + 1; q < to; q++) {
            if (q - from > MAX_GAP_SCAN) {
                open += to - q;
                break;
            }
            long bunch = q / bunchLength;
            long sent;
            if (bunch == fromBunch) {
                sent = lastSentNanos[layer];
            } else if (bunch == toBunch) {
                sent = sentNanos;
            } else {
                sent = lastSentNanos[layer] + (sentNanos - lastSentNanos[layer]) * (bunch - fromBunch) / (toBunch - fromBunch);
            }
            // A packet lost right behind one of its own bunch that arrived met a queue its bunch's
            // burst filled, where the same packet paced (as an ACK-clocked flow sends) would not have.
            lost(sent, (long) (spanRtts * rttNanos), (long) (maxRtts * rttNanos), tailsOpen || bunch != fromBunch);
        }
        open++;
        remember(layer, sequence, sentNanos);
    }

    /** RFC 5348, section 5.4: w_i = 1 for i <= n / 2, else 2 (n - i + 1) / (n + 2), i from 1. */
    static double[] weights(int n) {
        double[] w = new double[n];
        for (int i = 1; i <= n; i++) {
            w[i - 1] = i <= n / 2.0 ? 1.0 : 2.0 * (n - i + 1) / (n + 2);
        }
        return w;
    }

    private void remember(int layer, long sequence, long sentNanos) {
        lastSequence[layer] = sequence;
        lastSentNanos[layer] = sentNanos;
        expected[layer] = (sequence + 1) & 0xFFFF_FFFFL;
    }

    private void lost(long sentNanos, long spanNanos, long maxNanos, boolean opens) {
        // Seen late on a slow layer, a loss may belong to an event that a faster layer opened after
        // it was sent: within one round trip either way is the same overflow.
        for (int i = 0; i < eventCount; i++) {
            if (sentNanos > eventStarts[i] - spanNanos && sentNanos < eventEnds[i] + spanNanos
                    && (maxNanos == 0 || sentNanos - eventStarts[i] < maxNanos)) {
                if (chained) {
                    eventStarts[i] = Math.min(eventStarts[i], sentNanos);
                    eventEnds[i] = Math.max(eventEnds[i], sentNanos);
                }
                open++;
                return;
            }
        }
        if (!opens) {
            open++;
            return;
        }
        events++;
        eventStarts[eventAt] = sentNanos;
        eventEnds[eventAt] = sentNanos;
        eventAt = (eventAt + 1) % RECENT_EVENTS;
        eventCount = Math.min(RECENT_EVENTS, eventCount + 1);
        long interval = anyEvent ? open : Math.max(1, Math.round(firstInterval.getAsDouble()));
        // The seed interval has no span of its own: it lasts as long as its packets took at the rate of the first event's.
        long span = anyEvent ? Math.max(1, sentNanos - openSinceNanos)
                : Math.max(1, (long) (interval * (double) Math.max(1, sentNanos - firstSentNanos) / Math.max(1, open)));
        anyEvent = true;
        System.arraycopy(closed, 0, closed, 1, closed.length - 1);
        closed[0] = interval;
        System.arraycopy(closedNanos, 0, closedNanos, 1, closedNanos.length - 1);
        closedNanos[0] = span;
        closedNanosCount = Math.min(closedNanos.length, closedNanosCount + 1);
        openSinceNanos = sentNanos;
        closedCount = Math.min(closed.length, closedCount + 1);
        open = 1;
    }

    /** The layer was left (or is about to be joined): its next packet starts afresh. */
    void forget(int layer) {
        synced[layer] = false;
    }

    /** p: 0 before the first loss event. */
    double rate() {
        return anyEvent ? perMeanInterval(1, open, closed, closedCount, WEIGHTS) : 0;
    }

    /**
     * {@code scale} over RFC 5348's weighted mean of the intervals (section 5.4): the closed ones,
     * most recent first, and the open one counted only when that makes the mean longer.
     */
    private static double perMeanInterval(double scale, double open, long[] closed, int count, double[] weights) {
        double withOpen = open * weights[0];
        double closedOnly = 0;
        double total = 0;
        for (int i = 0; i < count; i++) {
            total += weights[i];
            closedOnly += closed[i] * weights[i];
            if (i + 1 < count) {
                withOpen += closed[i] * weights[i + 1];
            }
        }
        return total * scale / Math.max(withOpen, closedOnly);
    }

    /**
     * Loss events a second of send time: the same events as {@link #rate()}'s, their intervals
     * measured in time rather than in this receiver's packets, over as many intervals as the
     * history was built with (TFRC's eight unless told). 0 before the first event.
     */
    double eventsPerSecond() {
        return anyEvent ? perMeanInterval(1e9, Math.max(0, newestSentNanos - openSinceNanos), closedNanos,
                closedNanosCount, timeWeights) : 0;
    }

    /** Loss events so far. */
    long events() {
        return events;
    }
}

package net.hopwise.multicast.layered;

import java.util.Arrays;

/**
 * Sees the bottleneck's queue grow fast from the one-way delays of the session's own packets,
 * before it overflows, and says what rate the session can keep.
 *
 * <p>Why: when cross traffic halves what a session has, ERA's rules react only to the first pair
 * the cross traffic happens to split, a few tenths of a second later (a 5% chance per pair beside a
 * 500 Kbit/s flow behind 10 Mbit/s links), or to loss at the next boundary. By then a queue of
 * 2 x BDP has overflowed and lost a tenth of a second's worth of packets. The queue itself shows
 * at once: each packet's delay (arrival minus the sender's clock, offset and all) rises with it,
 * at the rate the bottleneck's input exceeds its capacity. A receiver that sees its delay floor rise
 * by more than a threshold within a short window drops before the overflow.
 *
 * <p>What rate: with the queue growing at slope s (seconds of queue per second), the bottleneck
 * of capacity C takes C (1 + s) in, the session's R of it, so the rest is C (1 + s) - R and what is
 * left to the session is C - (C (1 + s) - R) = R - C s. C is the median of the recent bunch samples
 * (most pairs are not split and read the capacity).
 *
 * <p>The threshold is in time and at least three packet times at the bottleneck: two pairs of two
 * layers arriving together queue one another for that long and are no trend. TCP's congestion
 * avoidance grows a queue by one segment per round trip, far slower than any threshold within
 * the window, so only a step of cross traffic (or TCP's slow start) triggers it.
 */
final class QueueGrowthDetector {
    private static final int HISTORY = 512;
    private static final int CAPACITY_SAMPLES = 15;
    /**
     * The floor is the least delay over the last quarter of the window: a queue that only a few
     * bunches arriving together built drains within it, one that cross traffic keeps growing does not.
     */
    private static final int FLOOR_FRACTION = 4;
    /** Packet times of the bottleneck the rise must exceed too (see the class comment). */
    private static final int PACKET_TIMES = 4;

    private final long riseNanos;
    private final long windowNanos;
    private final int floorPackets;
    private final long[] sentAt = new long[HISTORY];
    private final long[] delay = new long[HISTORY];
    private int head;
    private int size;
    private final double[] capacity = new double[CAPACITY_SAMPLES];
    private int capacityCount;
    private int capacityAt;
    private long holdUntilNanos = Long.MIN_VALUE;
    /** The least delay seen: the path without queue (plus the clocks' offset). */
    private long baseDelay = Long.MAX_VALUE;
    /** The capacity estimate and the standing queue (delay floor above the base) at the last rise found. */
    private double lastCapacityBps;
    private long lastQueueNanos;
    private double lastSlope;
    /** The standing queue at the latest packet: the floor's delay above the least delay seen; 0 before a floor. */
    private long standingNanos;

    /**
     * @param riseNanos how far the delay floor must rise within the window, at least
     * @param windowNanos the window of send time the rise is measured over
     * @param floorPackets the fewest packets the floor is the least delay of (0: the window's last quarter alone)
     */
    QueueGrowthDetector(long riseNanos, long windowNanos, int floorPackets) {
        this.riseNanos = riseNanos;
        this.windowNanos = windowNanos;
        this.floorPackets = floorPackets;
    }

    /** A bunch sample (bits per second) for the capacity estimate. */
    void onSample(double bps) {
        if (Double.isFinite(bps) && bps > 0) {
            capacity[capacityAt] = bps;
            capacityAt = (capacityAt + 1) % CAPACITY_SAMPLES;
            capacityCount = Math.min(CAPACITY_SAMPLES, capacityCount + 1);
        }
    }

    /**
     * A packet of the session arrived.
     *
     * @param subscribedBps R, the rate of the layers held
     * @param packetBytes M
     * @return the rate the session can keep, bits per second, when the queue grows too fast; NaN otherwise
     */
    double onPacket(long sentAtNanos, long nowNanos, long subscribedBps, int packetBytes) {
        if (nowNanos < holdUntilNanos) {
            return Double.NaN;
        }
        baseDelay = Math.min(baseDelay, nowNanos - sentAtNanos);
        int at = (head + size) % HISTORY;
        if (size == HISTORY) {
            head = (head + 1) % HISTORY;
        } else {
            size++;
        }
        sentAt[at] = sentAtNanos;
        delay[at] = nowNanos - sentAtNanos;
        while (size > 0 && sentAt[head] < sentAtNanos - windowNanos) {
            head = (head + 1) % HISTORY;
            size--;
        }
        long floorFrom = sentAtNanos - windowNanos / FLOOR_FRACTION;
        if (floorPackets > 0 && size > floorPackets) {
            // A slow session has one bunch in the quarter, and one bunch behind a burst of other
            // sessions' bunches reads as growth: the floor takes the last few packets at least.
            floorFrom = Math.min(floorFrom, sentAt[(head + size - floorPackets) % HISTORY]);
        }
        long floor = Long.MAX_VALUE;
        long floorSent = sentAtNanos;
        long lowest = Long.MAX_VALUE;
        long lowestSent = 0;
        int inFloor = 0;
        for (int i = 0; i < size; i++) {
            int k = (head + i) % HISTORY;
            if (sentAt[k] >= floorFrom) {
                inFloor++;
                if (delay[k] < floor) {
                    floor = delay[k];
                    floorSent = sentAt[k];
                }
            } else if (delay[k] < lowest) {
                lowest = delay[k];
            }
        }
        if (inFloor >= 2) {
            standingNanos = Math.max(0, floor - baseDelay);
        }
        if (inFloor < 2 || lowest == Long.MAX_VALUE) {
            return Double.NaN;
        }
        double c = capacityBps(subscribedBps);
        long packetTime = (long) (8e9 * packetBytes / c);
        // The latest packet about as low as the lowest (within half a packet time: the clocks'
        // resolution and jitter): where the queue began to grow, so the slope is the growth's own.
        for (int i = 0; i < size; i++) {
            int k = (head + i) % HISTORY;
            if (sentAt[k] < floorFrom && delay[k] <= lowest + packetTime / 2) {
                lowestSent = sentAt[k];
            }
        }
        long rise = floor - lowest;
        if (rise < Math.max(riseNanos, PACKET_TIMES * packetTime) || floorSent <= lowestSent) {
            return Double.NaN;
        }
        double slope = (double) rise / (floorSent - lowestSent);
        lastCapacityBps = c;
        lastSlope = slope;
        lastQueueNanos = standingQueue(floor, nowNanos - sentAtNanos, slope);
        dropped(nowNanos, floor);
        return Math.max(subscribedBps / 2.0, subscribedBps - c * slope);
    }

    /**
     * The receiver dropped layers (for this detector's reason or a bunch's): the drop reaches the
     * bottleneck about half a round trip later and shows in the delays only behind the queue already
     * there, so until then the same rise is no news. The window is longer than the round trips this
     * is for.
     */
    void dropped(long nowNanos) {
        if (size > 0) {
            dropped(nowNanos, delay[(head + size - 1) % HISTORY]);
        }
    }

    private void dropped(long nowNanos, long lastDelay) {
        standingNanos = 0;
        holdUntilNanos = nowNanos + Math.max(0, lastDelay - baseDelay) + windowNanos;
        size = 0;
        head = 0;
    }

    /**
     * The queue the drop will leave standing. The floor lags the queue by up to a quarter of the
     * window of growth, and the queue goes on growing at the slope until the drop reaches the
     * bottleneck, about one more queue's delay on; read from the floor alone, a slope read low put the
     * drain right at what is left, where the queue never empties.
     */
    private long standingQueue(long floor, long latest, double slope) {
        long now = Math.max(0, Math.max(floor, latest) - baseDelay);
        return (long) (now * (1 + slope));
    }

    /** The rate that empties the queue standing at the last rise found within {@code spanNanos}, bits per second. */
    double drainBps(long spanNanos) {
        return spanNanos <= 0 ? 0 : lastCapacityBps * lastQueueNanos / spanNanos;
    }

    /** The session's share of the bottleneck's input at the last rise found: R / (C (1 + s)). */
    double inputShare(long subscribedBps) {
        return lastCapacityBps <= 0 ? 1 : Math.min(1, subscribedBps / (lastCapacityBps * (1 + lastSlope)));
    }

    private double capacityBps(long subscribedBps) {
        if (capacityCount == 0) {
            return Math.max(1, subscribedBps);
        }
        double[] sorted = Arrays.copyOf(capacity, capacityCount);
        Arrays.sort(sorted);
        return sorted[capacityCount / 2];
    }

    /** The queue standing at the bottleneck as the latest floor read it, nanoseconds. */
    long standingNanos() {
        return standingNanos;
    }

    /** The receiver changed level or rejoined: what was measured before says nothing now. */
    void reset() {
        baseDelay = Long.MAX_VALUE;
        standingNanos = 0;
        size = 0;
        head = 0;
        holdUntilNanos = Long.MIN_VALUE;
    }
}

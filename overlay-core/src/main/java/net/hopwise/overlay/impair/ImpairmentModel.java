package net.hopwise.overlay.impair;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Decides, for each packet offered to one direction of one path, whether it is dropped, when it
 * leaves and whether it is duplicated. Seeded and sans-IO: it is told the time and never reads a
 * clock, so the same seed, configuration and arrivals give the same decisions, in a live node or in
 * the simulator.
 *
 * <p>A packet goes through the stages of a real path in this order:
 * <ol>
 *   <li><b>Queue and serialisation</b> (only when rate-limited): a DropTail queue of
 *       {@code queueLimitPackets}, counting packets from arrival until their last bit is sent, in
 *       front of a link that sends {@code size * 8 / rate} seconds per packet. A packet finding the
 *       queue full is dropped.</li>
 *   <li><b>Loss on the wire</b>: after serialisation, so a lost packet still used the link, as it
 *       would on a real lossy hop. The Gilbert-Elliott chain steps once per packet that reaches the
 *       wire.</li>
 *   <li><b>Delay and jitter</b>: fixed delay plus uniform jitter in {@code [0, jitter]}. Jitter does
 *       not reorder: a packet never leaves before the previous (not reordered) packet, so a burst of
 *       closely spaced packets leaves with less spread than the jitter alone would give.</li>
 *   <li><b>Reordering</b>: a chosen packet is held back by {@code reorderDelay} more, without
 *       holding back the packets after it, which overtake it.</li>
 *   <li><b>Duplication</b>: the copy leaves at the same instant, right after the original.</li>
 * </ol>
 *
 * <p>Each stage draws from its own random stream split from the seed, so turning one impairment on
 * or off does not change the decisions of the others: with the same seed a loss pattern stays the
 * same whether or not jitter is added, which keeps experiments comparable.
 *
 * <p>Not thread-safe: one owner (an event loop, or the simulator) calls it.
 */
public final class ImpairmentModel {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final SplittableRandom lossRandom;
    private final SplittableRandom jitterRandom;
    private final SplittableRandom reorderRandom;
    private final SplittableRandom duplicateRandom;

    private ImpairmentConfig config;

    private boolean gilbertBad;
    private long linkFreeAt = Long.MIN_VALUE;
    private long lastInOrderDeparture = Long.MIN_VALUE;
    // Serialisation end of each packet still in the queue, oldest first; a ring, grown on demand so
    // a deep queue limit costs memory only when the queue really fills.
    private long[] queueEnds = new long[16];
    private int queueHead;
    private int queueSize;

    private long admitted;
    private long droppedByLoss;
    private long droppedByQueue;
    private long duplicated;
    private long reordered;

    public ImpairmentModel(ImpairmentConfig config, long seed) {
        this.config = Objects.requireNonNull(config, "config");
        SplittableRandom root = new SplittableRandom(seed);
        lossRandom = root.split();
        jitterRandom = root.split();
        reorderRandom = root.split();
        duplicateRandom = root.split();
    }

    /**
     * Applies a new configuration from the next packet on. Packets already queued keep their
     * serialisation times and count against the new queue limit; no later packet leaves before an
     * earlier in-order one, so shortening the delay does not reorder; the Gilbert-Elliott state
     * carries over when the new loss model is Gilbert-Elliott too and restarts good otherwise.
     */
    public void setConfig(ImpairmentConfig config) {
        Objects.requireNonNull(config, "config");
        if (!(config.loss() instanceof LossModel.GilbertElliott)) {
            gilbertBad = false;
        }
        this.config = config;
    }

    public ImpairmentConfig config() {
        return config;
    }

    /**
     * Decides the fate of one packet of {@code sizeBytes} arriving at {@code nowNanos}.
     *
     * @param departures receives 0, 1 or 2 departure instants (absolute, {@code >= nowNanos});
     *     must have room for 2
     * @return how many departures were written: 0 when the packet is dropped, 2 when duplicated
     */
    public int admit(int sizeBytes, long nowNanos, long[] departures) {
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("sizeBytes must be >= 0, got " + sizeBytes);
        }
        if (departures.length < 2) {
            throw new IllegalArgumentException("departures needs room for 2 instants, has " + departures.length);
        }
        admitted++;
        ImpairmentConfig c = config;

        long sent = nowNanos;
        long rate = c.rateBitsPerSecond();
        if (rate > 0) {
            drainQueue(nowNanos);
            if (queueSize >= c.queueLimitPackets()) {
                droppedByQueue++;
                return 0;
            }
            long start = Math.max(nowNanos, linkFreeAt);
            sent = saturatedSum(start, serialisationNanos(sizeBytes, rate));
            linkFreeAt = sent;
            enqueue(sent);
        }

        if (lost(c.loss())) {
            droppedByLoss++;
            return 0;
        }

        long departure = saturatedSum(sent, c.delayNanos());
        long jitter = c.jitterNanos();
        if (jitter > 0) {
            departure = saturatedSum(departure, jitterRandom.nextLong(jitter + 1));
        }
        departure = Math.max(departure, lastInOrderDeparture);

        double reorder = c.reorderProbability();
        if (reorder > 0 && reorderRandom.nextDouble() < reorder) {
            reordered++;
            // Not remembered as the last departure: that is what lets later packets overtake it.
            departure = saturatedSum(departure, c.reorderDelayNanos());
        } else {
            lastInOrderDeparture = departure;
        }
        departures[0] = departure;

        double duplicate = c.duplicateProbability();
        if (duplicate > 0 && duplicateRandom.nextDouble() < duplicate) {
            duplicated++;
            departures[1] = departure;
            return 2;
        }
        return 1;
    }

    /** Packets in the rate-limited queue at {@code nowNanos} (waiting or being serialised). */
    public int queuedPackets(long nowNanos) {
        drainQueue(nowNanos);
        return queueSize;
    }

    public ImpairmentCounters counters() {
        return new ImpairmentCounters(admitted, droppedByLoss, droppedByQueue, duplicated, reordered);
    }

    private boolean lost(LossModel loss) {
        if (loss instanceof LossModel.Bernoulli bernoulli) {
            double p = bernoulli.probability();
            return p > 0 && lossRandom.nextDouble() < p;
        }
        LossModel.GilbertElliott ge = (LossModel.GilbertElliott) loss;
        gilbertBad = gilbertBad
                ? !(lossRandom.nextDouble() < ge.pBadToGood())
                : lossRandom.nextDouble() < ge.pGoodToBad();
        double p = gilbertBad ? ge.lossInBad() : ge.lossInGood();
        return p > 0 && lossRandom.nextDouble() < p;
    }

    private void drainQueue(long nowNanos) {
        // Serialisation ends are increasing in queue order, so the finished packets are a prefix.
        while (queueSize > 0 && queueEnds[queueHead] <= nowNanos) {
            queueHead = (queueHead + 1) % queueEnds.length;
            queueSize--;
        }
    }

    private void enqueue(long serialisationEnd) {
        if (queueSize == queueEnds.length) {
            long[] grown = new long[queueEnds.length * 2];
            for (int i = 0; i < queueSize; i++) {
                grown[i] = queueEnds[(queueHead + i) % queueEnds.length];
            }
            queueEnds = grown;
            queueHead = 0;
        }
        queueEnds[(queueHead + queueSize) % queueEnds.length] = serialisationEnd;
        queueSize++;
    }

    /** Time to put {@code sizeBytes} on a link of {@code rate} bit/s, rounded up to whole nanoseconds. */
    static long serialisationNanos(int sizeBytes, long rate) {
        long bits = sizeBytes * 8L;
        long wholeSeconds = bits / rate;
        long remainderBits = bits % rate;
        long fraction;
        if (remainderBits <= Long.MAX_VALUE / NANOS_PER_SECOND) {
            long scaled = remainderBits * NANOS_PER_SECOND;
            fraction = scaled / rate;
            if (fraction * rate != scaled) {
                fraction++;
            }
        } else {
            // Only for rates above ~9 Gbit/s, where a nanosecond of rounding is far below anything seen.
            fraction = (long) Math.ceil((double) remainderBits * NANOS_PER_SECOND / rate);
        }
        long whole = wholeSeconds > Long.MAX_VALUE / NANOS_PER_SECOND
                ? Long.MAX_VALUE
                : wholeSeconds * NANOS_PER_SECOND;
        return saturatedSum(whole, fraction);
    }

    private static long saturatedSum(long a, long b) {
        long sum = a + b;
        // Overflow only when both operands share a sign the sum does not: clamp instead of wrapping
        // into the past, which would release a packet at once.
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }
}

package net.hopwise.overlay.routing;

/**
 * What a node advertises about one of its links: the one-way latency and the loss rate of the
 * packets it sends on that link.
 *
 * <p>Both are integers so that an advertisement has one exact wire form and every node that holds
 * it computes bit-identical link costs from it.
 *
 * @param latencyMicros one-way latency in microseconds, 0 or more
 * @param lossPpm loss rate in parts per million, 0 (none lost) to 1 000 000 (all lost)
 */
public record LinkCost(int latencyMicros, int lossPpm) {
    /** Loss rate of a link that loses everything. */
    public static final int MAX_LOSS_PPM = 1_000_000;

    public LinkCost {
        if (latencyMicros < 0) {
            throw new IllegalArgumentException("latency must be 0 or more microseconds: " + latencyMicros);
        }
        if (lossPpm < 0 || lossPpm > MAX_LOSS_PPM) {
            throw new IllegalArgumentException("loss must be 0 to 1000000 ppm: " + lossPpm);
        }
    }

    /** The loss rate as a probability, 0 to 1. */
    public double lossRate() {
        return lossPpm / (double) MAX_LOSS_PPM;
    }

    /** One-way latency in milliseconds. */
    public double latencyMillis() {
        return latencyMicros / 1000.0;
    }
}

package net.hopwise.overlay.impair;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What one direction of one path does to the datagrams that cross it: loss, a fixed delay, jitter, a
 * rate limit with a DropTail queue, reordering and duplication. Immutable; built with
 * {@link #builder()}; {@link #none()} impairs nothing.
 *
 * <p>Every field is checked when it is set, so a bad value fails where it was written, with a message
 * naming the field; {@link Builder#build()} adds only the checks that involve two fields.
 */
public final class ImpairmentConfig {
    /**
     * Packets a rate-limited path queues before it drops: 100 is a common router and netem default,
     * deep enough to absorb bursts of a few dozen datagrams, shallow enough that the queueing delay
     * stays visible rather than unbounded.
     */
    public static final int DEFAULT_QUEUE_LIMIT_PACKETS = 100;

    /**
     * Longest delay, jitter or reorder hold: an hour is far beyond any real path, and keeps departure
     * arithmetic far from overflow.
     */
    public static final Duration MAX_DURATION = Duration.ofHours(1);

    private static final ImpairmentConfig NONE = new Builder().build();

    private final LossModel loss;
    private final Duration delay;
    private final Duration jitter;
    private final long rateBitsPerSecond;
    private final int queueLimitPackets;
    private final double reorderProbability;
    private final Duration reorderDelay;
    private final double duplicateProbability;
    // The model reads these per packet; converting Durations there would cost on the hot path.
    private final long delayNanos;
    private final long jitterNanos;
    private final long reorderDelayNanos;

    private ImpairmentConfig(Builder b) {
        this.loss = b.loss;
        this.delay = b.delay;
        this.jitter = b.jitter;
        this.rateBitsPerSecond = b.rateBitsPerSecond;
        this.queueLimitPackets = b.queueLimitPackets;
        this.reorderProbability = b.reorderProbability;
        this.reorderDelay = b.reorderDelay;
        this.duplicateProbability = b.duplicateProbability;
        this.delayNanos = delay.toNanos();
        this.jitterNanos = jitter.toNanos();
        this.reorderDelayNanos = reorderDelay.toNanos();
    }

    /** A builder that starts from no impairment. */
    public static Builder builder() {
        return new Builder();
    }

    /** Impairs nothing: every packet passes at once, exactly once, in order. */
    public static ImpairmentConfig none() {
        return NONE;
    }

    /** A builder that starts from this configuration, to change a field or two. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** True when this configuration cannot change any packet's fate or timing. */
    public boolean isNone() {
        return loss.isLossless()
                && delayNanos == 0
                && jitterNanos == 0
                && rateBitsPerSecond == 0
                && reorderProbability == 0.0
                && duplicateProbability == 0.0;
    }

    public LossModel loss() {
        return loss;
    }

    /** Fixed extra one-way delay added to every packet. */
    public Duration delay() {
        return delay;
    }

    /** Each packet gets a further uniform delay in {@code [0, jitter]}, without being reordered. */
    public Duration jitter() {
        return jitter;
    }

    /** Serialisation rate of the path; 0 means unlimited, with no queue. */
    public long rateBitsPerSecond() {
        return rateBitsPerSecond;
    }

    /** Packets that may wait for or be in serialisation at once; only used when rate-limited. */
    public int queueLimitPackets() {
        return queueLimitPackets;
    }

    /** Probability that a packet is held back by {@link #reorderDelay()} so later packets overtake it. */
    public double reorderProbability() {
        return reorderProbability;
    }

    /** Extra hold of a packet chosen for reordering. */
    public Duration reorderDelay() {
        return reorderDelay;
    }

    /** Probability that a packet is delivered twice. */
    public double duplicateProbability() {
        return duplicateProbability;
    }

    long delayNanos() {
        return delayNanos;
    }

    long jitterNanos() {
        return jitterNanos;
    }

    long reorderDelayNanos() {
        return reorderDelayNanos;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ImpairmentConfig other)) {
            return false;
        }
        return loss.equals(other.loss)
                && delayNanos == other.delayNanos
                && jitterNanos == other.jitterNanos
                && rateBitsPerSecond == other.rateBitsPerSecond
                && queueLimitPackets == other.queueLimitPackets
                && Double.compare(reorderProbability, other.reorderProbability) == 0
                && reorderDelayNanos == other.reorderDelayNanos
                && Double.compare(duplicateProbability, other.duplicateProbability) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(loss, delayNanos, jitterNanos, rateBitsPerSecond, queueLimitPackets,
                reorderProbability, reorderDelayNanos, duplicateProbability);
    }

    /** Only the impairments in force, for example {@code ImpairmentConfig[loss bernoulli(1%), delay 50ms]}. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        if (!loss.isLossless()) {
            parts.add("loss " + loss);
        }
        if (delayNanos > 0) {
            parts.add("delay " + duration(delayNanos));
        }
        if (jitterNanos > 0) {
            parts.add("jitter " + duration(jitterNanos));
        }
        if (rateBitsPerSecond > 0) {
            parts.add("rate " + rate(rateBitsPerSecond) + " queue " + queueLimitPackets + " packets");
        }
        if (reorderProbability > 0) {
            parts.add("reorder " + percent(reorderProbability) + " by " + duration(reorderDelayNanos));
        }
        if (duplicateProbability > 0) {
            parts.add("duplicate " + percent(duplicateProbability));
        }
        return "ImpairmentConfig[" + (parts.isEmpty() ? "none" : String.join(", ", parts)) + "]";
    }

    static String percent(double probability) {
        // Six significant digits hide binary noise such as 7.000000000000001 without hiding tiny rates.
        BigDecimal p = BigDecimal.valueOf(probability * 100).round(new MathContext(6));
        return p.stripTrailingZeros().toPlainString() + "%";
    }

    private static String duration(long nanos) {
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + "ms";
        }
        if (nanos % 1_000L == 0) {
            return nanos / 1_000L + "us";
        }
        return nanos + "ns";
    }

    private static String rate(long bitsPerSecond) {
        String[] units = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
        BigDecimal value = BigDecimal.valueOf(bitsPerSecond);
        int unit = 0;
        while (unit < units.length - 1 && value.compareTo(BigDecimal.valueOf(1000)) >= 0) {
            value = value.movePointLeft(3);
            unit++;
        }
        return value.stripTrailingZeros().toPlainString() + " " + units[unit];
    }

    /** Collects fields for an {@link ImpairmentConfig}; each setter rejects a bad value at once. */
    public static final class Builder {
        private LossModel loss = LossModel.NONE;
        private Duration delay = Duration.ZERO;
        private Duration jitter = Duration.ZERO;
        private long rateBitsPerSecond;
        private int queueLimitPackets = DEFAULT_QUEUE_LIMIT_PACKETS;
        private double reorderProbability;
        private Duration reorderDelay = Duration.ZERO;
        private double duplicateProbability;

        private Builder() {}

        private Builder(ImpairmentConfig c) {
            loss = c.loss;
            delay = c.delay;
            jitter = c.jitter;
            rateBitsPerSecond = c.rateBitsPerSecond;
            queueLimitPackets = c.queueLimitPackets;
            reorderProbability = c.reorderProbability;
            reorderDelay = c.reorderDelay;
            duplicateProbability = c.duplicateProbability;
        }

        public Builder loss(LossModel model) {
            this.loss = Objects.requireNonNull(model, "loss model");
            return this;
        }

        /** Independent loss of each packet with this probability. */
        public Builder bernoulliLoss(double probability) {
            return loss(new LossModel.Bernoulli(probability));
        }

        /** Bursty loss; see {@link LossModel.GilbertElliott}. */
        public Builder gilbertElliottLoss(double pGoodToBad, double pBadToGood, double lossInGood, double lossInBad) {
            return loss(new LossModel.GilbertElliott(pGoodToBad, pBadToGood, lossInGood, lossInBad));
        }

        public Builder delay(Duration delay) {
            this.delay = requireDuration("delay", delay);
            return this;
        }

        public Builder jitter(Duration jitter) {
            this.jitter = requireDuration("jitter", jitter);
            return this;
        }

        /** 0 for unlimited. */
        public Builder rateBitsPerSecond(long rateBitsPerSecond) {
            if (rateBitsPerSecond < 0) {
                throw new IllegalArgumentException(
                        "rateBitsPerSecond must be >= 0 (0 = unlimited), got " + rateBitsPerSecond);
            }
            this.rateBitsPerSecond = rateBitsPerSecond;
            return this;
        }

        public Builder queueLimitPackets(int queueLimitPackets) {
            if (queueLimitPackets < 1) {
                throw new IllegalArgumentException("queueLimitPackets must be >= 1, got " + queueLimitPackets);
            }
            this.queueLimitPackets = queueLimitPackets;
            return this;
        }

        public Builder reorderProbability(double probability) {
            this.reorderProbability = requireProbability("reorderProbability", probability);
            return this;
        }

        public Builder reorderDelay(Duration reorderDelay) {
            this.reorderDelay = requireDuration("reorderDelay", reorderDelay);
            return this;
        }

        /** Shorthand for {@link #reorderProbability} and {@link #reorderDelay} together. */
        public Builder reorder(double probability, Duration delay) {
            return reorderProbability(probability).reorderDelay(delay);
        }

        public Builder duplicateProbability(double probability) {
            this.duplicateProbability = requireProbability("duplicateProbability", probability);
            return this;
        }

        public ImpairmentConfig build() {
            if (reorderProbability > 0 && reorderDelay.isZero()) {
                // A zero hold would count packets as reordered while nothing ever overtakes them.
                throw new IllegalArgumentException(
                        "reorderProbability " + reorderProbability + " needs a reorderDelay > 0");
            }
            return new ImpairmentConfig(this);
        }

        private static Duration requireDuration(String name, Duration d) {
            Objects.requireNonNull(d, name);
            if (d.isNegative()) {
                throw new IllegalArgumentException(name + " must be >= 0, got " + d);
            }
            if (d.compareTo(MAX_DURATION) > 0) {
                throw new IllegalArgumentException(name + " must be at most " + MAX_DURATION + ", got " + d);
            }
            return d;
        }

        private static double requireProbability(String name, double p) {
            if (!(p >= 0.0 && p <= 1.0)) {
                throw new IllegalArgumentException(name + " must be in [0, 1], got " + p);
            }
            return p;
        }
    }
}

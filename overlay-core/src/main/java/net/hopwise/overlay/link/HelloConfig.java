package net.hopwise.overlay.link;

import java.time.Duration;
import java.util.Objects;

/**
 * How one node runs the hello protocol on its links. Immutable; start from {@link #defaults()} or
 * {@link #builder()}.
 *
 * <p>Both ends of a link should use the same values: a peer judges whether we still hear it by the
 * age of our echo, measured against its own {@link #deadInterval()}.
 */
public final class HelloConfig {
    /**
     * Hellos every 100 ms while the peer is heard: the Spines default, cheap (ten small packets a
     * second per link direction) and fine-grained enough for RTT and jitter tracking.
     */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(100);

    /**
     * A link is dead after 10 intervals with nothing from the peer, so a failure is noticed in about
     * one second (Spines: DEAD_LINK_CNT 10 at 100 ms), while a burst of up to nine lost hellos does
     * not flap the link.
     */
    public static final int DEFAULT_DEAD_COUNT = 10;

    /**
     * One fresh echo brings a link up: it proves that both directions carry packets now. Damping of
     * flapping links belongs to routing, which rate-limits its advertisements anyway (Spines 5.7 waits
     * for 6 hellos; set 6 to reproduce it).
     */
    public static final int DEFAULT_UP_COUNT = 1;

    /**
     * While the peer is silent (link down, or never up) hellos slow to one a second, as Spines pings
     * disconnected legs: an absent neighbour costs almost nothing, and recovery is not delayed by it
     * because a returning peer's first hello is answered at once.
     */
    public static final Duration DEFAULT_DOWN_INTERVAL = Duration.ofSeconds(1);

    /** Upper bound on every period, so that nanosecond arithmetic can never overflow. */
    static final Duration MAX_PERIOD = Duration.ofDays(1);

    private static final HelloConfig DEFAULTS = builder().build();

    private final Duration interval;
    private final int deadCount;
    private final int upCount;
    private final Duration downInterval;

    private HelloConfig(Builder b) {
        this.interval = b.interval;
        this.deadCount = b.deadCount;
        this.upCount = b.upCount;
        this.downInterval = b.downInterval;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static HelloConfig defaults() {
        return DEFAULTS;
    }

    /** A builder that starts from this configuration. */
    public Builder toBuilder() {
        return new Builder().interval(interval).deadCount(deadCount).upCount(upCount).downInterval(downInterval);
    }

    /** Hello period while the peer is heard. */
    public Duration interval() {
        return interval;
    }

    /** Intervals without any packet from the peer after which an up link goes down. */
    public int deadCount() {
        return deadCount;
    }

    /** Consecutive fresh echoes from the peer needed to bring a link up. */
    public int upCount() {
        return upCount;
    }

    /** Hello period while the peer is silent. */
    public Duration downInterval() {
        return downInterval;
    }

    /** {@code interval × deadCount}: silence longer than this takes a link down. */
    public Duration deadInterval() {
        return interval.multipliedBy(deadCount);
    }

    long intervalNanos() {
        return interval.toNanos();
    }

    long downIntervalNanos() {
        return downInterval.toNanos();
    }

    long deadIntervalNanos() {
        return deadInterval().toNanos();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HelloConfig c
                && interval.equals(c.interval)
                && deadCount == c.deadCount
                && upCount == c.upCount
                && downInterval.equals(c.downInterval);
    }

    @Override
    public int hashCode() {
        return Objects.hash(interval, deadCount, upCount, downInterval);
    }

    @Override
    public String toString() {
        return "HelloConfig[interval=" + interval + ", deadCount=" + deadCount + ", upCount=" + upCount
                + ", downInterval=" + downInterval + "]";
    }

    /** Collects values; {@link #build()} checks them together. */
    public static final class Builder {
        private Duration interval = DEFAULT_INTERVAL;
        private int deadCount = DEFAULT_DEAD_COUNT;
        private int upCount = DEFAULT_UP_COUNT;
        private Duration downInterval = DEFAULT_DOWN_INTERVAL;

        private Builder() {}

        public Builder interval(Duration interval) {
            this.interval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        public Builder deadCount(int deadCount) {
            this.deadCount = deadCount;
            return this;
        }

        public Builder upCount(int upCount) {
            this.upCount = upCount;
            return this;
        }

        public Builder downInterval(Duration downInterval) {
            this.downInterval = Objects.requireNonNull(downInterval, "downInterval");
            return this;
        }

        /** @throws IllegalArgumentException naming the first value that is out of range */
        public HelloConfig build() {
            requirePeriod("interval", interval);
            requirePeriod("downInterval", downInterval);
            if (deadCount < 1) {
                throw new IllegalArgumentException("deadCount must be at least 1, got " + deadCount);
            }
            if (upCount < 1) {
                throw new IllegalArgumentException("upCount must be at least 1, got " + upCount);
            }
            if (interval.compareTo(MAX_PERIOD.dividedBy(deadCount)) > 0) {
                throw new IllegalArgumentException("interval × deadCount must not exceed " + MAX_PERIOD
                        + ", got " + interval + " × " + deadCount);
            }
            if (downInterval.compareTo(interval) < 0) {
                throw new IllegalArgumentException("downInterval " + downInterval
                        + " must not be shorter than interval " + interval);
            }
            return new HelloConfig(this);
        }

        private static void requirePeriod(String name, Duration d) {
            if (d.isNegative() || d.isZero() || d.compareTo(MAX_PERIOD) > 0) {
                throw new IllegalArgumentException(name + " must be positive and at most " + MAX_PERIOD + ", got " + d);
            }
        }
    }
}

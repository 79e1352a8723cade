package net.hopwise.overlay.sim;

import java.time.Duration;
import java.util.Objects;
import net.hopwise.overlay.impair.LossModel;

/**
 * One direction of a simulated link, immutable: propagation delay, bandwidth, queue discipline and
 * loss on the wire. Build with {@link #builder()}.
 *
 * <p>A packet offered to the link waits in the queue, is serialised at the bandwidth, meets the
 * loss model on the wire (a lost packet still used the link), then arrives after the propagation
 * delay plus any jitter. With an unlimited bandwidth there is no queue and no serialisation.
 */
public final class LinkSpec {
    /** No propagation delay unless the scenario says so: the simplest link to reason about. */
    public static final Duration DEFAULT_DELAY = Duration.ZERO;
    /** Unlimited unless the scenario says so: a link is only as constrained as the scenario makes it. */
    public static final long DEFAULT_BANDWIDTH_BITS_PER_SECOND = 0;

    private final long delayNanos;
    private final long bandwidthBitsPerSecond;
    private final QueueDiscipline queue;
    private final LossModel loss;
    private final long jitterNanos;

    private LinkSpec(Builder b) {
        this.delayNanos = b.delay.toNanos();
        this.bandwidthBitsPerSecond = b.bandwidthBitsPerSecond;
        this.queue = b.queue;
        this.loss = b.loss;
        this.jitterNanos = b.jitter.toNanos();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A link with only a propagation delay. */
    public static LinkSpec delay(Duration delay) {
        return builder().delay(delay).build();
    }

    public Builder toBuilder() {
        return new Builder().delay(Duration.ofNanos(delayNanos)).bandwidthBitsPerSecond(bandwidthBitsPerSecond)
                .queue(queue).loss(loss).jitter(Duration.ofNanos(jitterNanos));
    }

    public long delayNanos() {
        return delayNanos;
    }

    /** Bits per second, or 0 for unlimited. */
    public long bandwidthBitsPerSecond() {
        return bandwidthBitsPerSecond;
    }

    public QueueDiscipline queue() {
        return queue;
    }

    public LossModel loss() {
        return loss;
    }

    /** Uniform extra delay in [0, jitter]; it never reorders the link. */
    public long jitterNanos() {
        return jitterNanos;
    }

    public LinkSpec withLoss(LossModel loss) {
        return toBuilder().loss(loss).build();
    }

    public LinkSpec withDelay(Duration delay) {
        return toBuilder().delay(delay).build();
    }

    @Override
    public String toString() {
        return "link(delay " + delayNanos / 1e6 + " ms, "
                + (bandwidthBitsPerSecond == 0 ? "unlimited" : bandwidthBitsPerSecond / 1e6 + " Mbit/s")
                + ", " + queue + ", " + loss + (jitterNanos > 0 ? ", jitter " + jitterNanos / 1e6 + " ms" : "")
                + ")";
    }

    public static final class Builder {
        private Duration delay = DEFAULT_DELAY;
        private long bandwidthBitsPerSecond = DEFAULT_BANDWIDTH_BITS_PER_SECOND;
        private QueueDiscipline queue = QueueDiscipline.dropTail();
        private LossModel loss = LossModel.NONE;
        private Duration jitter = Duration.ZERO;

        private Builder() {
        }

        public Builder delay(Duration delay) {
            this.delay = requireNonNegative("delay", delay);
            return this;
        }

        public Builder delayMillis(double millis) {
            return delay(Duration.ofNanos(Math.round(millis * 1e6)));
        }

        /** Bits per second; 0 for unlimited. */
        public Builder bandwidthBitsPerSecond(long bitsPerSecond) {
            if (bitsPerSecond < 0) {
                throw new IllegalArgumentException("bandwidth must be >= 0 (0 = unlimited), got " + bitsPerSecond);
            }
            this.bandwidthBitsPerSecond = bitsPerSecond;
            return this;
        }

        public Builder queue(QueueDiscipline queue) {
            this.queue = Objects.requireNonNull(queue, "queue");
            return this;
        }

        public Builder loss(LossModel loss) {
            this.loss = Objects.requireNonNull(loss, "loss");
            return this;
        }

        public Builder bernoulliLoss(double probability) {
            return loss(new LossModel.Bernoulli(probability));
        }

        public Builder jitter(Duration jitter) {
            this.jitter = requireNonNegative("jitter", jitter);
            return this;
        }

        public LinkSpec build() {
            return new LinkSpec(this);
        }

        private static Duration requireNonNegative(String name, Duration d) {
            Objects.requireNonNull(d, name);
            if (d.isNegative()) {
                throw new IllegalArgumentException(name + " must be >= 0, got " + d);
            }
            return d;
        }
    }
}

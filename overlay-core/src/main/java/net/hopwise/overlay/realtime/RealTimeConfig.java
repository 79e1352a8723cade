package net.hopwise.overlay.realtime;

import java.time.Duration;
import java.util.Objects;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Settings of real-time links and flows, immutable. Build one with {@link #builder()}.
 *
 * <p>Every default is declared once, here, with its reason; docs/configuration.md lists them.
 */
public final class RealTimeConfig {
    /**
     * Interactive voice stops being interactive at 100-150 ms, and a codec drops what arrives later:
     * a retransmission older than this cannot help (Spines keeps 100 ms of history too).
     */
    public static final Duration DEFAULT_HISTORY = Duration.ofMillis(100);
    /** Spines' history size: 100 ms of 10,000 packets/s, far more than voice aggregates need. */
    public static final int DEFAULT_HISTORY_CAPACITY = 1000;
    /** The thesis ran every experiment with retransmissions capped at 20% of data packets. */
    public static final double DEFAULT_RETRANSMISSION_SHARE = 0.2;
    /** Absorbs a loss burst of 100 packets (2 s of one G.711 stream) without starving later gaps. */
    public static final int DEFAULT_TOKEN_BUCKET_CAPACITY = 100;
    /**
     * Sequence numbers a receiver remembers for duplicate suppression: far more than a link carries
     * within one history window at voice rates, so a retransmission is always recognised.
     */
    public static final int DEFAULT_DUPLICATE_WINDOW = 4096;
    /** The codec deadline of the thesis' voice experiments: later packets count as late. */
    public static final Duration DEFAULT_LATE_DEADLINE = Duration.ofMillis(100);
    /** Danilov's routing metric for voice: expected delay with one recovery attempt per link. */
    public static final RoutingMetric DEFAULT_METRIC = RoutingMetric.EXPECTED_LATENCY;
    /** Recovery is the point of the channel; turning it off gives the plain-UDP baseline. */
    public static final boolean DEFAULT_RECOVERY = true;
    /**
     * Flows a node keeps statistics and duplicate windows for (about 10 KiB each): four times the
     * 1,000 concurrent calls a relay pair is built for, and a bound on what made-up flows can cost.
     */
    public static final int DEFAULT_MAX_FLOWS = 4096;
    /** rtpengine's media timeout: a flow silent this long has ended, and its slot may go to a new one. */
    public static final Duration DEFAULT_FLOW_IDLE_TIMEOUT = Duration.ofSeconds(60);

    private final Duration history;
    private final int historyCapacity;
    private final double retransmissionShare;
    private final int tokenBucketCapacity;
    private final int duplicateWindow;
    private final Duration lateDeadline;
    private final RoutingMetric metric;
    private final boolean recovery;
    private final int maxFlows;
    private final Duration flowIdleTimeout;

    private RealTimeConfig(Builder b) {
        this.history = b.history;
        this.historyCapacity = b.historyCapacity;
        this.retransmissionShare = b.retransmissionShare;
        this.tokenBucketCapacity = b.tokenBucketCapacity;
        this.duplicateWindow = b.duplicateWindow;
        this.lateDeadline = b.lateDeadline;
        this.metric = b.metric;
        this.recovery = b.recovery;
        this.maxFlows = b.maxFlows;
        this.flowIdleTimeout = b.flowIdleTimeout;
    }

    public static RealTimeConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.history = history;
        b.historyCapacity = historyCapacity;
        b.retransmissionShare = retransmissionShare;
        b.tokenBucketCapacity = tokenBucketCapacity;
        b.duplicateWindow = duplicateWindow;
        b.lateDeadline = lateDeadline;
        b.metric = metric;
        b.recovery = recovery;
        b.maxFlows = maxFlows;
        b.flowIdleTimeout = flowIdleTimeout;
        return b;
    }

    /** How long a sent packet stays retransmittable. */
    public Duration history() {
        return history;
    }

    /** Most packets one link's history holds; the oldest goes first. */
    public int historyCapacity() {
        return historyCapacity;
    }

    /** Tokens earned per data packet sent; a retransmission costs one. */
    public double retransmissionShare() {
        return retransmissionShare;
    }

    public int tokenBucketCapacity() {
        return tokenBucketCapacity;
    }

    public int duplicateWindow() {
        return duplicateWindow;
    }

    /** One-way delay beyond which a flow's packet counts as late. */
    public Duration lateDeadline() {
        return lateDeadline;
    }

    /** The metric real-time flows are routed by unless a flow asks for another. */
    public RoutingMetric metric() {
        return metric;
    }

    /** Whether links ask for and resend lost packets; false forwards like plain UDP. */
    public boolean recovery() {
        return recovery;
    }

    /**
     * Most flows arriving at this node that it keeps state for. When all are taken, a new flow takes
     * the slot of the one silent longest if that one has been silent for {@link #flowIdleTimeout()};
     * otherwise the new flow's packets are dropped and counted ({@code flow_limit}).
     */
    public int maxFlows() {
        return maxFlows;
    }

    /** How long a flow must have been silent before a new flow may take its slot. */
    public Duration flowIdleTimeout() {
        return flowIdleTimeout;
    }

    @Override
    public String toString() {
        return "RealTimeConfig[history=" + history + ", historyCapacity=" + historyCapacity
                + ", retransmissionShare=" + retransmissionShare + ", tokenBucketCapacity=" + tokenBucketCapacity
                + ", duplicateWindow=" + duplicateWindow + ", lateDeadline=" + lateDeadline + ", metric=" + metric
                + ", recovery=" + recovery + ", maxFlows=" + maxFlows + ", flowIdleTimeout=" + flowIdleTimeout + "]";
    }

    /** Collects the settings; {@link #build()} checks them and names each bad value. */
    public static final class Builder {
        private Duration history = DEFAULT_HISTORY;
        private int historyCapacity = DEFAULT_HISTORY_CAPACITY;
        private double retransmissionShare = DEFAULT_RETRANSMISSION_SHARE;
        private int tokenBucketCapacity = DEFAULT_TOKEN_BUCKET_CAPACITY;
        private int duplicateWindow = DEFAULT_DUPLICATE_WINDOW;
        private Duration lateDeadline = DEFAULT_LATE_DEADLINE;
        private RoutingMetric metric = DEFAULT_METRIC;
        private boolean recovery = DEFAULT_RECOVERY;
        private int maxFlows = DEFAULT_MAX_FLOWS;
        private Duration flowIdleTimeout = DEFAULT_FLOW_IDLE_TIMEOUT;

        private Builder() {}

        public Builder history(Duration history) {
            this.history = Objects.requireNonNull(history, "history");
            return this;
        }

        public Builder historyCapacity(int packets) {
            this.historyCapacity = packets;
            return this;
        }

        public Builder retransmissionShare(double share) {
            this.retransmissionShare = share;
            return this;
        }

        public Builder tokenBucketCapacity(int tokens) {
            this.tokenBucketCapacity = tokens;
            return this;
        }

        public Builder duplicateWindow(int sequences) {
            this.duplicateWindow = sequences;
            return this;
        }

        public Builder lateDeadline(Duration deadline) {
            this.lateDeadline = Objects.requireNonNull(deadline, "lateDeadline");
            return this;
        }

        public Builder metric(RoutingMetric metric) {
            this.metric = Objects.requireNonNull(metric, "metric");
            return this;
        }

        public Builder recovery(boolean recovery) {
            this.recovery = recovery;
            return this;
        }

        public Builder maxFlows(int flows) {
            this.maxFlows = flows;
            return this;
        }

        public Builder flowIdleTimeout(Duration timeout) {
            this.flowIdleTimeout = Objects.requireNonNull(timeout, "flowIdleTimeout");
            return this;
        }

        public RealTimeConfig build() {
            if (history.isNegative() || history.isZero()) {
                throw new IllegalArgumentException("history must be positive, got " + history);
            }
            if (historyCapacity < 1) {
                throw new IllegalArgumentException("historyCapacity must be at least 1, got " + historyCapacity);
            }
            if (!(retransmissionShare >= 0 && retransmissionShare <= 1)) {
                throw new IllegalArgumentException("retransmissionShare must be 0-1, got " + retransmissionShare);
            }
            if (tokenBucketCapacity < 1) {
                throw new IllegalArgumentException("tokenBucketCapacity must be at least 1, got " + tokenBucketCapacity);
            }
            if (duplicateWindow < 64 || Integer.bitCount(duplicateWindow) != 1) {
                throw new IllegalArgumentException("duplicateWindow must be a power of two of at least 64, got "
                        + duplicateWindow);
            }
            if (lateDeadline.isNegative() || lateDeadline.isZero()) {
                throw new IllegalArgumentException("lateDeadline must be positive, got " + lateDeadline);
            }
            if (maxFlows < 1) {
                throw new IllegalArgumentException("maxFlows must be at least 1, got " + maxFlows);
            }
            if (flowIdleTimeout.isNegative() || flowIdleTimeout.isZero()) {
                throw new IllegalArgumentException("flowIdleTimeout must be positive, got " + flowIdleTimeout);
            }
            return new RealTimeConfig(this);
        }
    }
}

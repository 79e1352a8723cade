package net.hopwise.overlay.sim.tcp;

import java.time.Duration;
import java.util.Objects;

/**
 * Parameters of a simulated TCP connection, immutable; build with {@link #builder()}. Defaults
 * follow ns-2's TCP agents, which the papers' baselines ran on, so our numbers are comparable.
 * Windows count segments (one message per segment), as in ns-2.
 */
public final class TcpConfig {
    /** The papers' message size: one 1000-byte message per segment. */
    public static final int DEFAULT_SEGMENT_BYTES = 1000;
    /** IPv4 and TCP headers without options, as ns-2 counts them. */
    public static final int DEFAULT_HEADER_BYTES = 40;
    /** ns-2's window_: the receiver's advertised window, in segments. */
    public static final int DEFAULT_RECEIVER_WINDOW = 20;
    /** ns-2's windowInit_ of 1 segment. */
    public static final int DEFAULT_INITIAL_WINDOW = 1;
    /** ns-2's minrto_ of 200 ms (RFC 6298 says 1 s; ns-2, Linux and the papers' era used less). */
    public static final Duration DEFAULT_MIN_RTO = Duration.ofMillis(200);
    /** ns-2's maxrto_ cap of 60 s on the backed-off timeout. */
    public static final Duration DEFAULT_MAX_RTO = Duration.ofSeconds(60);
    /** ns-2's rtxcur_init_ of 3 s before any RTT sample. */
    public static final Duration DEFAULT_INITIAL_RTO = Duration.ofSeconds(3);
    /** ns-2's tcpTick_ of 10 ms: the clock granularity term of the RTO. */
    public static final Duration DEFAULT_CLOCK_GRANULARITY = Duration.ofMillis(10);
    /** Three duplicate ACKs start fast retransmit (RFC 5681). */
    public static final int DEFAULT_DUPLICATE_THRESHOLD = 3;

    private final int segmentBytes;
    private final int headerBytes;
    private final int receiverWindow;
    private final int initialWindow;
    private final long minRtoNanos;
    private final long maxRtoNanos;
    private final long initialRtoNanos;
    private final long clockGranularityNanos;
    private final int duplicateThreshold;

    private TcpConfig(Builder b) {
        this.segmentBytes = b.segmentBytes;
        this.headerBytes = b.headerBytes;
        this.receiverWindow = b.receiverWindow;
        this.initialWindow = b.initialWindow;
        this.minRtoNanos = b.minRto.toNanos();
        this.maxRtoNanos = b.maxRto.toNanos();
        this.initialRtoNanos = b.initialRto.toNanos();
        this.clockGranularityNanos = b.clockGranularity.toNanos();
        this.duplicateThreshold = b.duplicateThreshold;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static TcpConfig defaults() {
        return builder().build();
    }

    public int segmentBytes() {
        return segmentBytes;
    }

    public int headerBytes() {
        return headerBytes;
    }

    public int receiverWindow() {
        return receiverWindow;
    }

    public int initialWindow() {
        return initialWindow;
    }

    public long minRtoNanos() {
        return minRtoNanos;
    }

    public long maxRtoNanos() {
        return maxRtoNanos;
    }

    public long initialRtoNanos() {
        return initialRtoNanos;
    }

    public long clockGranularityNanos() {
        return clockGranularityNanos;
    }

    public int duplicateThreshold() {
        return duplicateThreshold;
    }

    public static final class Builder {
        private int segmentBytes = DEFAULT_SEGMENT_BYTES;
        private int headerBytes = DEFAULT_HEADER_BYTES;
        private int receiverWindow = DEFAULT_RECEIVER_WINDOW;
        private int initialWindow = DEFAULT_INITIAL_WINDOW;
        private Duration minRto = DEFAULT_MIN_RTO;
        private Duration maxRto = DEFAULT_MAX_RTO;
        private Duration initialRto = DEFAULT_INITIAL_RTO;
        private Duration clockGranularity = DEFAULT_CLOCK_GRANULARITY;
        private int duplicateThreshold = DEFAULT_DUPLICATE_THRESHOLD;

        private Builder() {
        }

        public Builder segmentBytes(int bytes) {
            this.segmentBytes = positive("segmentBytes", bytes);
            return this;
        }

        public Builder headerBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("headerBytes must be >= 0, got " + bytes);
            }
            this.headerBytes = bytes;
            return this;
        }

        public Builder receiverWindow(int segments) {
            this.receiverWindow = positive("receiverWindow", segments);
            return this;
        }

        public Builder initialWindow(int segments) {
            this.initialWindow = positive("initialWindow", segments);
            return this;
        }

        public Builder minRto(Duration d) {
            this.minRto = Objects.requireNonNull(d, "minRto");
            return this;
        }

        public Builder maxRto(Duration d) {
            this.maxRto = Objects.requireNonNull(d, "maxRto");
            return this;
        }

        public Builder initialRto(Duration d) {
            this.initialRto = Objects.requireNonNull(d, "initialRto");
            return this;
        }

        public Builder clockGranularity(Duration d) {
            this.clockGranularity = Objects.requireNonNull(d, "clockGranularity");
            return this;
        }

        public Builder duplicateThreshold(int acks) {
            this.duplicateThreshold = positive("duplicateThreshold", acks);
            return this;
        }

        public TcpConfig build() {
            if (minRto.isNegative() || minRto.compareTo(maxRto) > 0 || initialRto.compareTo(maxRto) > 0) {
                throw new IllegalArgumentException("need 0 <= minRto <= maxRto and initialRto <= maxRto");
            }
            if (initialWindow > receiverWindow) {
                throw new IllegalArgumentException("initialWindow " + initialWindow + " exceeds receiverWindow "
                        + receiverWindow);
            }
            return new TcpConfig(this);
        }

        private static int positive(String name, int value) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be > 0, got " + value);
            }
            return value;
        }
    }
}

package net.hopwise.overlay.session;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of end-to-end reliable sessions, immutable. Build one with {@link #builder()}; every
 * default is declared once, here, with its reason.
 */
public final class SessionConfig {
    /**
     * Packets a session holds for sending (waiting or not yet acknowledged end to end); beyond it a
     * send is back-pressured until half of it is free again. Four link windows: the end-to-end
     * acknowledgement loop is longer than any one link's, and the half that stays buffered while the
     * sender waits must still cover more than a link window, or the session cannot keep its first
     * link busy. About 4 MB of 1000-byte messages: 330 Mbit/s over a 100 ms path. The buffer's
     * slots start at 64 and double only when a session holds that much, so idle and thin sessions
     * stay small.
     */
    public static final int DEFAULT_SEND_BUFFER = 4096;
    /**
     * Packets the receiving edge keeps for reordering and for an application that does not take them
     * yet; advertised to the sender as its flow-control window. Equal to the send buffer so that
     * the advertised window never limits a sender that the buffer does not; its slots grow as the
     * sender's do.
     */
    public static final int DEFAULT_RECEIVE_WINDOW = 4096;
    /** Spines' initial end-to-end window: the links below already probe the path's capacity. */
    public static final int DEFAULT_INITIAL_WINDOW = 10;
    /**
     * Floor of the end-to-end retransmission timeout: end-to-end resends are for node failures and
     * reroutes only, so the timer waits out several link recoveries (each a few link RTTs) first.
     */
    public static final Duration DEFAULT_MIN_TIMEOUT = Duration.ofMillis(200);
    /** RFC 6298's timeout before any end-to-end RTT is known. */
    public static final Duration DEFAULT_INITIAL_TIMEOUT = Duration.ofSeconds(1);
    /** Ceiling of the backed-off timeout: rerouting takes about a second (the hello dead interval). */
    public static final Duration DEFAULT_MAX_TIMEOUT = Duration.ofSeconds(2);
    /**
     * Longest a receiving edge sits on an acknowledgement it owes: Spines' 10 ms, which gives at
     * least one acknowledgement per RTT on any path longer than 10 ms.
     */
    public static final Duration DEFAULT_ACK_DELAY = Duration.ofMillis(10);
    /** Spines' cap on the acknowledgement interval a sender asks for (packets per acknowledgement). */
    public static final int DEFAULT_MAX_ACK_INTERVAL = 16;
    /**
     * Sessions a node takes from other nodes (accepted ones; those it opens itself are not counted):
     * each holds buffers and stays until the application closes it, so a neighbour claiming made-up
     * origins must not be able to open them without bound. Four times the 1,000 concurrent calls a
     * relay pair is built for.
     */
    public static final int DEFAULT_MAX_ACCEPTED_SESSIONS = 4096;

    private static final SessionConfig DEFAULTS = builder().build();

    private final int sendBuffer;
    private final int receiveWindow;
    private final int initialWindow;
    private final Duration minTimeout;
    private final Duration initialTimeout;
    private final Duration maxTimeout;
    private final Duration ackDelay;
    private final int maxAckInterval;
    private final int maxAcceptedSessions;

    private SessionConfig(Builder b) {
        this.sendBuffer = b.sendBuffer;
        this.receiveWindow = b.receiveWindow;
        this.initialWindow = b.initialWindow;
        this.minTimeout = b.minTimeout;
        this.initialTimeout = b.initialTimeout;
        this.maxTimeout = b.maxTimeout;
        this.ackDelay = b.ackDelay;
        this.maxAckInterval = b.maxAckInterval;
        this.maxAcceptedSessions = b.maxAcceptedSessions;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static SessionConfig defaults() {
        return DEFAULTS;
    }

    public int sendBuffer() {
        return sendBuffer;
    }

    public int receiveWindow() {
        return receiveWindow;
    }

    public int initialWindow() {
        return initialWindow;
    }

    public Duration minTimeout() {
        return minTimeout;
    }

    public Duration initialTimeout() {
        return initialTimeout;
    }

    public Duration maxTimeout() {
        return maxTimeout;
    }

    public Duration ackDelay() {
        return ackDelay;
    }

    public int maxAckInterval() {
        return maxAckInterval;
    }

    /**
     * Most sessions accepted from other nodes open at once; beyond it a new session's packets are
     * dropped and counted ({@code session_limit}), and its sender retries end to end.
     */
    public int maxAcceptedSessions() {
        return maxAcceptedSessions;
    }

    @Override
    public String toString() {
        return "SessionConfig[sendBuffer=" + sendBuffer + " receiveWindow=" + receiveWindow + " initialWindow="
                + initialWindow + " timeout=" + minTimeout + ".." + maxTimeout + " ackDelay=" + ackDelay + "]";
    }

    public static final class Builder {
        private int sendBuffer = DEFAULT_SEND_BUFFER;
        private int receiveWindow = DEFAULT_RECEIVE_WINDOW;
        private int initialWindow = DEFAULT_INITIAL_WINDOW;
        private Duration minTimeout = DEFAULT_MIN_TIMEOUT;
        private Duration initialTimeout = DEFAULT_INITIAL_TIMEOUT;
        private Duration maxTimeout = DEFAULT_MAX_TIMEOUT;
        private Duration ackDelay = DEFAULT_ACK_DELAY;
        private int maxAckInterval = DEFAULT_MAX_ACK_INTERVAL;
        private int maxAcceptedSessions = DEFAULT_MAX_ACCEPTED_SESSIONS;

        private Builder() {}

        /** Packets held for sending; a power of two from 16 to 65536. */
        public Builder sendBuffer(int packets) {
            this.sendBuffer = powerOfTwo("sendBuffer", packets);
            return this;
        }

        /** Packets the receiving edge buffers; a power of two from 16 to 32768 (it is advertised in 16 bits). */
        public Builder receiveWindow(int packets) {
            this.receiveWindow = powerOfTwo("receiveWindow", packets);
            if (packets > 32768) {
                throw new IllegalArgumentException("receiveWindow must be at most 32768, got " + packets);
            }
            return this;
        }

        public Builder initialWindow(int packets) {
            if (packets < 1) {
                throw new IllegalArgumentException("initialWindow must be positive, got " + packets);
            }
            this.initialWindow = packets;
            return this;
        }

        public Builder minTimeout(Duration d) {
            this.minTimeout = positive("minTimeout", d);
            return this;
        }

        public Builder initialTimeout(Duration d) {
            this.initialTimeout = positive("initialTimeout", d);
            return this;
        }

        public Builder maxTimeout(Duration d) {
            this.maxTimeout = positive("maxTimeout", d);
            return this;
        }

        public Builder ackDelay(Duration d) {
            this.ackDelay = positive("ackDelay", d);
            return this;
        }

        public Builder maxAcceptedSessions(int sessions) {
            if (sessions < 1) {
                throw new IllegalArgumentException("maxAcceptedSessions must be at least 1, got " + sessions);
            }
            this.maxAcceptedSessions = sessions;
            return this;
        }

        public Builder maxAckInterval(int packets) {
            if (packets < 1 || packets > 255) {
                throw new IllegalArgumentException("maxAckInterval must be 1-255, got " + packets);
            }
            this.maxAckInterval = packets;
            return this;
        }

        public SessionConfig build() {
            if (maxTimeout.compareTo(minTimeout) < 0) {
                throw new IllegalArgumentException("maxTimeout " + maxTimeout + " is below minTimeout " + minTimeout);
            }
            if (initialWindow > sendBuffer) {
                throw new IllegalArgumentException("initialWindow " + initialWindow + " exceeds sendBuffer " + sendBuffer);
            }
            return new SessionConfig(this);
        }

        private static int powerOfTwo(String name, int packets) {
            if (packets < 16 || packets > 65536 || Integer.bitCount(packets) != 1) {
                throw new IllegalArgumentException(name + " must be a power of two in 16-65536, got " + packets);
            }
            return packets;
        }

        private static Duration positive(String name, Duration d) {
            Objects.requireNonNull(d, name);
            if (d.isNegative() || d.isZero() || d.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException(name + " must be positive and at most an hour, got " + d);
            }
            return d;
        }
    }
}

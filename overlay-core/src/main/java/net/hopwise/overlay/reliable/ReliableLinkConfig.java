package net.hopwise.overlay.reliable;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the reliable channel of every overlay link, immutable. Build one with
 * {@link #builder()}; every default is declared once, here, with its reason.
 *
 * <p>About 400 lines: every setting of the reliable link is declared once here with its reason and
 * its check.
 */
public final class ReliableLinkConfig {
    /**
     * Packets in flight per link, and the span of sequence numbers a receiver tracks: 1024 full
     * datagrams (1228 bytes on the wire) fill 100 Mbit/s at a 100 ms round trip. Spines' 200 capped a
     * link at about 20 Mbit/s of 1000-byte messages on such a path, and held a loopback link back.
     * The sender's slots start at 64 and double only when a flight needs them, so idle and thin links
     * stay small.
     */
    public static final int DEFAULT_SEND_WINDOW = 1024;
    /**
     * Packets waiting in front of a link's window. Beyond it the node refuses forwarded packets (it
     * does not acknowledge them, so the previous hop keeps them and resends later) and local
     * sessions hold their data: memory stays bounded and nothing is lost inside the overlay.
     */
    public static final int DEFAULT_QUEUE_LIMIT = 256;
    /**
     * Queue length at which a link marks passing packets with congestion level 3; levels 2 and 1
     * start above a half and a quarter of it. Spines' MAX_BUFF_LINK of 30, rounded. Local sessions
     * also stop adding to a link whose queue is at this length, as Spines blocks its clients.
     */
    public static final int DEFAULT_MARK_THRESHOLD = 32;
    /** RFC 6298's timeout before any RTT is known (the hello RTT replaces it as soon as it exists). */
    public static final Duration DEFAULT_INITIAL_TIMEOUT = Duration.ofSeconds(1);
    /**
     * Floor of the retransmission timeout: above the scheduling jitter of a loaded JVM event loop,
     * and far below TCP's 200 ms, since a link's RTT is short and well measured.
     */
    public static final Duration DEFAULT_MIN_TIMEOUT = Duration.ofMillis(10);
    /**
     * Least margin of the retransmission timeout over the smoothed RTT, as a fraction of it: the
     * timeout is srtt + max(4 rttvar, 2 ms, this x srtt). On a steady link rttvar decays to almost
     * nothing, so RFC 6298's margin alone tolerated pauses of the host or the JVM of about 2 ms: on
     * two shared cores the paper's chain of 20 ms links timed out 1 to 6 times per link direction in
     * 30 s without a loss. A longer timeout costs little here: a lone lost packet is recovered by its
     * tail probe a quarter of a round trip after it left, and one in a longer flight by selective
     * acknowledgements; the timeout only stands behind them. Half the round trip tolerates a 10 ms
     * pause on a 20 ms link (see docs/benchmarks.md for the trade measured).
     */
    public static final double DEFAULT_TIMEOUT_MARGIN = 0.5;
    /** Ceiling of the backed-off timeout: a dead neighbour is declared down by hellos long before. */
    public static final Duration DEFAULT_MAX_TIMEOUT = Duration.ofSeconds(2);
    /** RFC 5681's duplicate-acknowledgement threshold, counted in later packets delivered. */
    public static final int DEFAULT_REORDER_THRESHOLD = 3;
    /**
     * Selective-acknowledgement blocks per acknowledgement, as in TCP's SACK option: with 1% loss a
     * window rarely holds more than one or two holes, and four blocks cost at most 32 bytes.
     */
    public static final int DEFAULT_SACK_BLOCKS = 4;

    /** Hop-by-hop recovery is the point of the reliable channel; turning it off is for experiments. */
    public static final boolean DEFAULT_RECOVERY = true;
    /**
     * Tail probes are on: a lone packet on an otherwise idle link is sent a second time a quarter of
     * a round trip after the first, so that its loss costs a quarter of a round trip instead of more
     * than a whole one. Only the last packet of a flight is probed, once, and only when the
     * congestion window has room, so a bulk flow sends one probe per burst at most, and a stream of
     * lone messages (interactive traffic, where delay matters most) pays with twice its own, small,
     * rate. A packet that carries only a session's acknowledgement is not probed: nobody waits on it,
     * and probing it too cost a quarter of every link's datagrams on such a stream.
     */
    public static final boolean DEFAULT_TAIL_PROBE = true;
    /**
     * The segment congestion control counts in, in bytes on the wire: a full-size TCP segment on an
     * Ethernet path (a 1500-byte IP packet). The link's window then grows by what a TCP flow's does
     * per round trip, and halves to what it would, so that it takes one fair share of a bottleneck
     * although its own packets are smaller.
     */
    public static final int DEFAULT_SEGMENT_BYTES = 1500;
    /** Floor of the tail probe's delay: below it an acknowledgement is often just late, not missing. */
    public static final Duration DEFAULT_MIN_PROBE_DELAY = Duration.ofMillis(2);

    /**
     * How long a link may hold the acknowledgement of packets that carry no application data (the
     * sessions' end-to-end acknowledgements), so that it rides on the next data packet the other way.
     * Without it every session acknowledgement drew a link acknowledgement of its own back: a second
     * datagram, and a wake-up of the other node, for nothing the other side waits on. Half the tail
     * probe's floor, so that the acknowledgement still arrives before a probe would resend the packet.
     */
    public static final Duration DEFAULT_ACK_DELAY = Duration.ofMillis(1);

    private static final ReliableLinkConfig DEFAULTS = builder().build();

    private final int sendWindow;
    private final int queueLimit;
    private final int markThreshold;
    private final Duration initialTimeout;
    private final Duration minTimeout;
    private final Duration maxTimeout;
    private final double timeoutMargin;
    private final int reorderThreshold;
    private final int sackBlocks;
    private final CongestionController.Factory congestionControl;
    private final boolean recovery;
    private final boolean tailProbe;
    private final Duration minProbeDelay;
    private final int segmentBytes;
    private final Duration ackDelay;

    private ReliableLinkConfig(Builder b) {
        this.sendWindow = b.sendWindow;
        this.queueLimit = b.queueLimit;
        this.markThreshold = b.markThreshold;
        this.initialTimeout = b.initialTimeout;
        this.minTimeout = b.minTimeout;
        this.maxTimeout = b.maxTimeout;
        this.timeoutMargin = b.timeoutMargin;
        this.reorderThreshold = b.reorderThreshold;
        this.sackBlocks = b.sackBlocks;
        this.congestionControl = b.congestionControl;
        this.recovery = b.recovery;
        this.tailProbe = b.tailProbe;
        this.minProbeDelay = b.minProbeDelay;
        this.segmentBytes = b.segmentBytes;
        this.ackDelay = b.ackDelay;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static ReliableLinkConfig defaults() {
        return DEFAULTS;
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.sendWindow = sendWindow;
        b.queueLimit = queueLimit;
        b.markThreshold = markThreshold;
        b.initialTimeout = initialTimeout;
        b.minTimeout = minTimeout;
        b.maxTimeout = maxTimeout;
        b.timeoutMargin = timeoutMargin;
        b.reorderThreshold = reorderThreshold;
        b.sackBlocks = sackBlocks;
        b.congestionControl = congestionControl;
        b.recovery = recovery;
        b.tailProbe = tailProbe;
        b.minProbeDelay = minProbeDelay;
        b.segmentBytes = segmentBytes;
        b.ackDelay = ackDelay;
        return b;
    }

    public int sendWindow() {
        return sendWindow;
    }

    public int queueLimit() {
        return queueLimit;
    }

    public int markThreshold() {
        return markThreshold;
    }

    public Duration initialTimeout() {
        return initialTimeout;
    }

    public Duration minTimeout() {
        return minTimeout;
    }

    public Duration maxTimeout() {
        return maxTimeout;
    }

    /** Least margin of the retransmission timeout over the smoothed RTT, as a fraction of it. */
    public double timeoutMargin() {
        return timeoutMargin;
    }

    public int reorderThreshold() {
        return reorderThreshold;
    }

    public int sackBlocks() {
        return sackBlocks;
    }

    public CongestionController.Factory congestionControl() {
        return congestionControl;
    }

    /**
     * Whether links resend lost packets. When off, a link still acknowledges and runs congestion
     * control, but gives up on a lost packet: recovery is left to the end-to-end sessions, which is
     * how a benchmark compares hop-by-hop with end-to-end recovery on the same code.
     */
    public boolean recovery() {
        return recovery;
    }

    /**
     * Whether the last packet of a flight, still unacknowledged a quarter of a smoothed round trip
     * (at least {@link #minProbeDelay()}) after it left, is sent once more while the congestion window
     * has room. The probe is a duplicate, not a loss: the window is untouched, and either copy's
     * acknowledgement completes the packet. Only with {@link #recovery()}.
     */
    public boolean tailProbe() {
        return tailProbe;
    }

    /** The full-size segment, in bytes on the wire, that congestion windows count in. */
    public int segmentBytes() {
        return segmentBytes;
    }

    /** Shortest time between a tail packet's transmission and its probe. */
    public Duration minProbeDelay() {
        return minProbeDelay;
    }

    /**
     * Longest wait of the acknowledgement of packets without application data (end-to-end
     * acknowledgements of sessions) for a data packet to carry it; zero acknowledges them as data is.
     * Data packets are acknowledged at the end of the read that brought them, always.
     */
    public Duration ackDelay() {
        return ackDelay;
    }

    /** The congestion level (0-3) a packet joining a queue of this length is marked with. */
    public int congestionLevel(int queueLength) {
        if (queueLength >= markThreshold) {
            return 3;
        }
        if (queueLength > markThreshold / 2) {
            return 2;
        }
        if (queueLength > markThreshold / 4) {
            return 1;
        }
        return 0;
    }

    @Override
    public String toString() {
        return "ReliableLinkConfig[sendWindow=" + sendWindow + " queueLimit=" + queueLimit + " markThreshold="
                + markThreshold + " timeout=" + minTimeout + ".." + maxTimeout + " timeoutMargin=" + timeoutMargin + " recovery=" + recovery + " tailProbe="
                + tailProbe + " ackDelay=" + ackDelay + "]";
    }

    public static final class Builder {
        private int sendWindow = DEFAULT_SEND_WINDOW;
        private int queueLimit = DEFAULT_QUEUE_LIMIT;
        private int markThreshold = DEFAULT_MARK_THRESHOLD;
        private Duration initialTimeout = DEFAULT_INITIAL_TIMEOUT;
        private Duration minTimeout = DEFAULT_MIN_TIMEOUT;
        private Duration maxTimeout = DEFAULT_MAX_TIMEOUT;
        private double timeoutMargin = DEFAULT_TIMEOUT_MARGIN;
        private int reorderThreshold = DEFAULT_REORDER_THRESHOLD;
        private int sackBlocks = DEFAULT_SACK_BLOCKS;
        private CongestionController.Factory congestionControl = RenoCongestionController.factory();
        private boolean recovery = DEFAULT_RECOVERY;
        private boolean tailProbe = DEFAULT_TAIL_PROBE;
        private Duration minProbeDelay = DEFAULT_MIN_PROBE_DELAY;
        private int segmentBytes = DEFAULT_SEGMENT_BYTES;
        private Duration ackDelay = DEFAULT_ACK_DELAY;

        private Builder() {}

        /** How long the acknowledgement of packets without data may wait (see {@link ReliableLinkConfig#ackDelay()}). */
        public Builder ackDelay(Duration delay) {
            Objects.requireNonNull(delay, "ackDelay");
            if (delay.isNegative() || delay.compareTo(Duration.ofSeconds(1)) > 0) {
                throw new IllegalArgumentException("ackDelay must be 0-1 s, got " + delay);
            }
            this.ackDelay = delay;
            return this;
        }

        /** The segment congestion windows count in (see {@link ReliableLinkConfig#segmentBytes()}); 576-65535. */
        public Builder segmentBytes(int bytes) {
            if (bytes < 576 || bytes > 65535) {
                throw new IllegalArgumentException("segmentBytes must be 576-65535, got " + bytes);
            }
            this.segmentBytes = bytes;
            return this;
        }

        /** Whether a lone tail packet is sent a second time (see {@link ReliableLinkConfig#tailProbe()}). */
        public Builder tailProbe(boolean tailProbe) {
            this.tailProbe = tailProbe;
            return this;
        }

        /** Shortest delay of a tail probe after its packet (see {@link ReliableLinkConfig#tailProbe()}). */
        public Builder minProbeDelay(Duration delay) {
            this.minProbeDelay = positive("minProbeDelay", delay);
            return this;
        }

        /** Whether links resend lost packets (see {@link ReliableLinkConfig#recovery()}). */
        public Builder recovery(boolean recovery) {
            this.recovery = recovery;
            return this;
        }

        /** Packets in flight; a power of two from 8 to 65536. */
        public Builder sendWindow(int packets) {
            if (packets < 8 || packets > 65536 || Integer.bitCount(packets) != 1) {
                throw new IllegalArgumentException("sendWindow must be a power of two in 8-65536, got " + packets);
            }
            this.sendWindow = packets;
            return this;
        }

        public Builder queueLimit(int packets) {
            if (packets < 1) {
                throw new IllegalArgumentException("queueLimit must be positive, got " + packets);
            }
            this.queueLimit = packets;
            return this;
        }

        public Builder markThreshold(int packets) {
            if (packets < 4) {
                throw new IllegalArgumentException("markThreshold must be at least 4, got " + packets);
            }
            this.markThreshold = packets;
            return this;
        }

        public Builder initialTimeout(Duration timeout) {
            this.initialTimeout = positive("initialTimeout", timeout);
            return this;
        }

        public Builder minTimeout(Duration timeout) {
            this.minTimeout = positive("minTimeout", timeout);
            return this;
        }

        public Builder maxTimeout(Duration timeout) {
            this.maxTimeout = positive("maxTimeout", timeout);
            return this;
        }

        /** Least margin of the timeout over srtt, as a fraction of srtt (see {@link #DEFAULT_TIMEOUT_MARGIN}); 0-4. */
        public Builder timeoutMargin(double fraction) {
            if (!(fraction >= 0 && fraction <= 4)) {
                throw new IllegalArgumentException("timeoutMargin must be 0-4, got " + fraction);
            }
            this.timeoutMargin = fraction;
            return this;
        }

        public Builder reorderThreshold(int packets) {
            if (packets < 1) {
                throw new IllegalArgumentException("reorderThreshold must be positive, got " + packets);
            }
            this.reorderThreshold = packets;
            return this;
        }

        public Builder sackBlocks(int blocks) {
            if (blocks < 0 || blocks > 16) {
                throw new IllegalArgumentException("sackBlocks must be 0-16, got " + blocks);
            }
            this.sackBlocks = blocks;
            return this;
        }

        /** The congestion controller of every link; {@link RenoCongestionController#factory()} by default. */
        public Builder congestionControl(CongestionController.Factory factory) {
            this.congestionControl = Objects.requireNonNull(factory, "congestionControl");
            return this;
        }

        public ReliableLinkConfig build() {
            if (maxTimeout.compareTo(minTimeout) < 0) {
                throw new IllegalArgumentException("maxTimeout " + maxTimeout + " is below minTimeout " + minTimeout);
            }
            if (markThreshold > queueLimit) {
                throw new IllegalArgumentException("markThreshold " + markThreshold + " exceeds queueLimit "
                        + queueLimit);
            }
            if (ackDelay.compareTo(minTimeout) >= 0) {
                throw new IllegalArgumentException("ackDelay " + ackDelay + " must be below minTimeout " + minTimeout
                        + ": the other side would time out on every acknowledgement held");
            }
            if (tailProbe && ackDelay.compareTo(minProbeDelay) >= 0) {
                throw new IllegalArgumentException("ackDelay " + ackDelay + " must be below minProbeDelay "
                        + minProbeDelay + ": the other side would probe every packet whose acknowledgement is held");
            }
            return new ReliableLinkConfig(this);
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

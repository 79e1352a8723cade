package net.hopwise.overlay.routing;

import java.time.Duration;
import java.util.Objects;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.wire.WireHeader;

/**
 * How one node floods link state and its extension records, and computes routes. Immutable; build with {@link #builder()}.
 * Every default is declared once, below, with the reason for its value.
 *
 * <p>About 600 lines, over the house's 400: one immutable configuration with its builder, each setting
 * declared once with its reason and validated with a message naming it; splitting it would give users
 * two builders for one router.
 */
public final class RoutingConfig {
    /** A few overlay round trips: a lost update is repaired quickly, one merely in flight is not resent. */
    public static final Duration DEFAULT_FLOOD_RETRANSMIT_INTERVAL = Duration.ofMillis(300);

    /**
     * Ten milliseconds: an isolated change still leaves at once, but a burst (start-up, a node with many
     * links) costs one update per neighbour per 10 ms instead of one per version.
     */
    public static final Duration DEFAULT_FLOOD_PACING_INTERVAL = Duration.ofMillis(10);

    /** Spines' periodic State Flood refresh: rare enough to cost nothing, often enough for a maxAge of minutes. */
    public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(60);

    /** Three refresh intervals when not set: two lost refreshes in a row never age out a live node. */
    public static final int DEFAULT_MAX_AGE_REFRESHES = 3;

    /** Folds the burst of updates one event causes into one computation; far below failure detection (seconds). */
    public static final Duration DEFAULT_MIN_RECOMPUTE_INTERVAL = Duration.ofMillis(20);

    /** The hello period: link measurements do not change faster than this, so neither do advertised costs. */
    public static final Duration DEFAULT_MIN_READVERTISE_INTERVAL = Duration.ofSeconds(1);

    /** A latency change smaller than 10% of the advertised latency does not move routes enough to flood. */
    public static final double DEFAULT_READVERTISE_LATENCY_FRACTION = 0.10;

    /** Half a millisecond: below this a latency change is measurement jitter on any link. */
    public static final int DEFAULT_READVERTISE_LATENCY_MICROS = 500;

    /** Half a percentage point: the resolution of a 50-loss-event estimator on a lightly lossy link. */
    public static final int DEFAULT_READVERTISE_LOSS_PPM = 5_000;

    /** The thesis's codec deadline Tmax: a packet later than 100 ms is as good as lost for voice. */
    public static final double DEFAULT_EXPECTED_LATENCY_DEADLINE_MILLIS = 100.0;

    /** The thesis's loss-detection delay Δ: the inter-arrival time of the aggregated streams (2 ms). */
    public static final double DEFAULT_EXPECTED_LATENCY_DELTA_MILLIS = 2.0;

    /**
     * 5%: the relative part of the route-change margin. Expected latency moves 1-2% with loss
     * estimates that wobble by a fraction of a percentage point, so 5% keeps a route through that noise,
     * while a link that gets 10 ms slower on a path below 200 ms, or that starts losing packets, moves it.
     */
    public static final double DEFAULT_ROUTE_CHANGE_MARGIN_FRACTION = 0.05;

    /**
     * 1.5 ms: the absolute part of the route-change margin for LATENCY and EXPECTED_LATENCY. Latency
     * estimates from hellos on a busy host wander by about a millisecond, so two paths 1 ms apart
     * would otherwise swap at every re-advertisement; on a short route a path 2 ms better (a 10 ms
     * route against 12 ms) is a real improvement and is taken. Above 30 ms the 5% fraction dominates.
     */
    public static final double DEFAULT_ROUTE_CHANGE_MARGIN_MILLIS = 1.5;

    /**
     * 0.005 (about half a percentage point of loss): the absolute part of the route-change margin for
     * LOSS, the loss change that is significant enough to re-advertise ({@link #DEFAULT_READVERTISE_LOSS_PPM}).
     */
    public static final double DEFAULT_ROUTE_CHANGE_MARGIN_LOSS = 0.005;

    /** The largest route-change fraction: a path twice as costly as the best is never worth keeping. */
    public static final double MAX_ROUTE_CHANGE_MARGIN_FRACTION = 1.0;

    /** One datagram's body: updates are never fragmented at the IP or overlay layer. */
    public static final int DEFAULT_MAX_UPDATE_BODY_BYTES = WireHeader.MAX_BODY;

    /** Ten times the several hundred nodes Spines was built for; bounds memory against invented origins. */
    public static final int DEFAULT_MAX_ORIGINS = 4096;

    /**
     * One day. Sequences are wall-clock milliseconds (see {@link LinkStateAdvertisement}), so a live
     * origin's sequence is at most its clock; hosts' clocks agree within a day even without NTP, and a
     * forger who may lead the clock by a day per accepted copy needs thousands of years to reach the
     * end of the 63-bit space.
     */
    public static final Duration DEFAULT_MAX_SEQUENCE_LEAD = Duration.ofDays(1);

    /** The hello period: a legitimate burst held back by a per-interval limit waits at most this long. */
    public static final Duration DEFAULT_ADVERTISEMENT_LIMIT_INTERVAL = Duration.ofSeconds(1);

    /**
     * A new neighbour's full database of the several hundred nodes Spines was built for arrives in one
     * interval; a hostile neighbour fills the default maxOrigins no faster than in eight intervals, and
     * is re-flooded by each node at most this fast.
     */
    public static final int DEFAULT_MAX_ADVERTISEMENTS_PER_NEIGHBOUR = 512;

    /**
     * An origin changes its advertisement at most once per minReadvertiseInterval for costs, plus its
     * link ups and downs, which pacing coalesces: 20 a second leaves room for a burst of link events,
     * while a forger can make one origin's advertisement change overlay-wide at most this often.
     */
    public static final int DEFAULT_MAX_ADVERTISEMENTS_PER_ORIGIN = 20;

    /**
     * 1024 bytes: a record always travels whole in one extension packet (1024 bytes and a 24-byte
     * record header fit the default 1172-byte body), and holds a multicast membership of a hundred
     * 8-byte groups or more. With {@link #DEFAULT_MAX_EXTENSIONS_PER_ORIGIN} it bounds what one origin
     * makes every node store to 16 KiB. Smaller when maxUpdateBodyBytes leaves less room.
     */
    public static final int DEFAULT_MAX_EXTENSION_BYTES = 1024;

    /**
     * 16 kinds per origin: a node runs a handful of modules (multicast, VoIP registrations, link
     * security), each with a kind or two; withdrawn kinds count until they age out.
     */
    public static final int DEFAULT_MAX_EXTENSIONS_PER_ORIGIN = 16;

    /** The longest allowed maxSequenceLead: keeps every plausible sequence far below 2^62 (see {@link Router}). */
    public static final Duration MAX_SEQUENCE_LEAD_LIMIT = Duration.ofDays(3650);

    /** The smallest body that holds one advertisement with the longest name and one link. */
    public static final int MIN_UPDATE_BODY_BYTES = LinkStateCodec.UPDATE_HEADER_BYTES
            + LinkStateCodec.ADVERTISEMENT_HEADER_BYTES
            + NodeId.MAX_NAME_LENGTH
            + LinkStateCodec.LINK_BYTES;

    private static final RoutingConfig DEFAULTS = builder().build();

    private final Duration floodRetransmitInterval;
    private final Duration floodPacingInterval;
    private final Duration refreshInterval;
    private final Duration maxAge;
    private final Duration minRecomputeInterval;
    private final Duration minReadvertiseInterval;
    private final double readvertiseLatencyFraction;
    private final int readvertiseLatencyMicros;
    private final int readvertiseLossPpm;
    private final double expectedLatencyDeadlineMillis;
    private final double expectedLatencyDeltaMillis;
    private final double routeChangeMarginFraction;
    private final double routeChangeMarginMillis;
    private final double routeChangeMarginLoss;
    private final int maxUpdateBodyBytes;
    private final int maxOrigins;
    private final Duration maxSequenceLead;
    private final Duration advertisementLimitInterval;
    private final int maxAdvertisementsPerNeighbour;
    private final int maxAdvertisementsPerOrigin;
    private final int maxExtensionBytes;
    /** As set, null when left to follow maxUpdateBodyBytes: what toBuilder hands on. */
    private final Integer maxExtensionBytesSetting;
    private final int maxExtensionsPerOrigin;

    private RoutingConfig(Builder b) {
        floodRetransmitInterval = positive("floodRetransmitInterval", b.floodRetransmitInterval);
        floodPacingInterval = nonNegative("floodPacingInterval", b.floodPacingInterval);
        if (floodPacingInterval.compareTo(floodRetransmitInterval) >= 0) {
            throw new IllegalArgumentException("floodPacingInterval " + floodPacingInterval
                    + " must be shorter than floodRetransmitInterval " + floodRetransmitInterval);
        }
        refreshInterval = positive("refreshInterval", b.refreshInterval);
        maxAge = positive("maxAge", b.maxAge != null
                ? b.maxAge
                : b.refreshInterval.multipliedBy(DEFAULT_MAX_AGE_REFRESHES));
        if (maxAge.compareTo(refreshInterval) <= 0) {
            throw new IllegalArgumentException("maxAge " + maxAge + " must exceed refreshInterval "
                    + refreshInterval + ", or live nodes age out between refreshes");
        }
        minRecomputeInterval = nonNegative("minRecomputeInterval", b.minRecomputeInterval);
        minReadvertiseInterval = nonNegative("minReadvertiseInterval", b.minReadvertiseInterval);
        if (!(b.readvertiseLatencyFraction >= 0) || Double.isInfinite(b.readvertiseLatencyFraction)) {
            throw new IllegalArgumentException("readvertiseLatencyFraction must be a finite number >= 0");
        }
        readvertiseLatencyFraction = b.readvertiseLatencyFraction;
        if (b.readvertiseLatencyMicros < 0 || b.readvertiseLossPpm < 0) {
            throw new IllegalArgumentException("readvertise thresholds must be >= 0");
        }
        readvertiseLatencyMicros = b.readvertiseLatencyMicros;
        readvertiseLossPpm = b.readvertiseLossPpm;
        if (!(b.expectedLatencyDeadlineMillis >= 0) || Double.isInfinite(b.expectedLatencyDeadlineMillis)
                || !(b.expectedLatencyDeltaMillis >= 0) || Double.isInfinite(b.expectedLatencyDeltaMillis)) {
            throw new IllegalArgumentException("expected-latency deadline and delta must be finite and >= 0");
        }
        expectedLatencyDeadlineMillis = b.expectedLatencyDeadlineMillis;
        expectedLatencyDeltaMillis = b.expectedLatencyDeltaMillis;
        if (!(b.routeChangeMarginFraction >= 0) || b.routeChangeMarginFraction > MAX_ROUTE_CHANGE_MARGIN_FRACTION) {
            throw new IllegalArgumentException("routeChangeMarginFraction must be 0 to "
                    + MAX_ROUTE_CHANGE_MARGIN_FRACTION + ": " + b.routeChangeMarginFraction);
        }
        routeChangeMarginFraction = b.routeChangeMarginFraction;
        routeChangeMarginMillis = finiteNonNegative("routeChangeMarginMillis", b.routeChangeMarginMillis);
        routeChangeMarginLoss = finiteNonNegative("routeChangeMarginLoss", b.routeChangeMarginLoss);
        if (b.maxUpdateBodyBytes < MIN_UPDATE_BODY_BYTES || b.maxUpdateBodyBytes > 0xFFFF) {
            throw new IllegalArgumentException("maxUpdateBodyBytes must be " + MIN_UPDATE_BODY_BYTES
                    + " to 65535 (the header's body length is 16 bits): " + b.maxUpdateBodyBytes);
        }
        maxUpdateBodyBytes = b.maxUpdateBodyBytes;
        if (b.maxOrigins < 1) {
            throw new IllegalArgumentException("maxOrigins must be at least 1 (the node itself)");
        }
        maxOrigins = b.maxOrigins;
        maxSequenceLead = positive("maxSequenceLead", b.maxSequenceLead);
        if (maxSequenceLead.compareTo(MAX_SEQUENCE_LEAD_LIMIT) > 0) {
            throw new IllegalArgumentException("maxSequenceLead must be at most " + MAX_SEQUENCE_LEAD_LIMIT + ": " + maxSequenceLead);
        }
        advertisementLimitInterval = positive("advertisementLimitInterval", b.advertisementLimitInterval);
        if (b.maxAdvertisementsPerNeighbour < 1 || b.maxAdvertisementsPerOrigin < 1) {
            throw new IllegalArgumentException("maxAdvertisementsPerNeighbour and maxAdvertisementsPerOrigin must be at least 1: "
                    + b.maxAdvertisementsPerNeighbour + ", " + b.maxAdvertisementsPerOrigin);
        }
        maxAdvertisementsPerNeighbour = b.maxAdvertisementsPerNeighbour;
        maxAdvertisementsPerOrigin = b.maxAdvertisementsPerOrigin;
        maxExtensionBytesSetting = b.maxExtensionBytes;
        int extensionRoom = Math.min(ExtensionRecord.MAX_DATA_BYTES,
                maxUpdateBodyBytes - ExtensionCodec.UPDATE_HEADER_BYTES - ExtensionCodec.RECORD_HEADER_BYTES);
        if (b.maxExtensionBytes == null) {
            maxExtensionBytes = Math.min(DEFAULT_MAX_EXTENSION_BYTES, extensionRoom);
        } else if (b.maxExtensionBytes < 0 || b.maxExtensionBytes > extensionRoom) {
            throw new IllegalArgumentException("maxExtensionBytes must be 0 to " + extensionRoom
                    + " (a record travels whole in one update of maxUpdateBodyBytes): " + b.maxExtensionBytes);
        } else {
            maxExtensionBytes = b.maxExtensionBytes;
        }
        if (b.maxExtensionsPerOrigin < 1) {
            throw new IllegalArgumentException("maxExtensionsPerOrigin must be at least 1: " + b.maxExtensionsPerOrigin);
        }
        maxExtensionsPerOrigin = b.maxExtensionsPerOrigin;
    }

    private static Duration positive(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
        return d;
    }

    private static double finiteNonNegative(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be a finite number >= 0: " + value);
        }
        return value;
    }

    private static Duration nonNegative(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative: " + d);
        }
        return d;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static RoutingConfig defaults() {
        return DEFAULTS;
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder()
                .floodRetransmitInterval(floodRetransmitInterval)
                .floodPacingInterval(floodPacingInterval)
                .refreshInterval(refreshInterval)
                .maxAge(maxAge)
                .minRecomputeInterval(minRecomputeInterval)
                .minReadvertiseInterval(minReadvertiseInterval)
                .readvertiseLatencyFraction(readvertiseLatencyFraction)
                .readvertiseLatencyMicros(readvertiseLatencyMicros)
                .readvertiseLossPpm(readvertiseLossPpm)
                .expectedLatencyDeadlineMillis(expectedLatencyDeadlineMillis)
                .expectedLatencyDeltaMillis(expectedLatencyDeltaMillis)
                .routeChangeMarginFraction(routeChangeMarginFraction)
                .routeChangeMarginMillis(routeChangeMarginMillis)
                .routeChangeMarginLoss(routeChangeMarginLoss)
                .maxUpdateBodyBytes(maxUpdateBodyBytes)
                .maxOrigins(maxOrigins)
                .maxSequenceLead(maxSequenceLead)
                .advertisementLimitInterval(advertisementLimitInterval)
                .maxAdvertisementsPerNeighbour(maxAdvertisementsPerNeighbour)
                .maxAdvertisementsPerOrigin(maxAdvertisementsPerOrigin)
                .maxExtensionBytes(maxExtensionBytesSetting)
                .maxExtensionsPerOrigin(maxExtensionsPerOrigin);
    }

    /** An advertisement not acknowledged by a neighbour within this is sent to it again. */
    public Duration floodRetransmitInterval() {
        return floodRetransmitInterval;
    }

    /**
     * Updates to one neighbour leave at most once per this; what accumulates meanwhile leaves together,
     * and versions superseded meanwhile never leave. Zero sends at the end of every call.
     */
    public Duration floodPacingInterval() {
        return floodPacingInterval;
    }

    /** A node re-originates its own advertisement this often, so others can age out stale ones. */
    public Duration refreshInterval() {
        return refreshInterval;
    }

    /** An advertisement not refreshed within this is removed: nodes that left disappear. */
    public Duration maxAge() {
        return maxAge;
    }

    /** Routes are recomputed at most once per this. */
    public Duration minRecomputeInterval() {
        return minRecomputeInterval;
    }

    /** Significant cost changes are flooded at most once per this (link up and down: at once). */
    public Duration minReadvertiseInterval() {
        return minReadvertiseInterval;
    }

    /** A latency change is significant if at least this fraction of the advertised latency... */
    public double readvertiseLatencyFraction() {
        return readvertiseLatencyFraction;
    }

    /** ...and at least this many microseconds. */
    public int readvertiseLatencyMicros() {
        return readvertiseLatencyMicros;
    }

    /** A loss change of at least this many ppm is significant. */
    public int readvertiseLossPpm() {
        return readvertiseLossPpm;
    }

    /** Tmax of the expected-latency metric. */
    public double expectedLatencyDeadlineMillis() {
        return expectedLatencyDeadlineMillis;
    }

    /** Δ of the expected-latency metric. */
    public double expectedLatencyDeltaMillis() {
        return expectedLatencyDeltaMillis;
    }

    /**
     * The relative part of the route-change margin. A route keeps its previous next hop while the path
     * through it costs at most {@code best + max(absolute, fraction * best)}, where best is the least
     * cost and absolute is {@link #routeChangeMarginMillis} or {@link #routeChangeMarginLoss} by metric,
     * and while that neighbour is strictly closer to the destination than this node; otherwise it
     * takes the least-cost route at once. HOPS never keeps a route; a zero fraction and a zero absolute
     * margin turn keeping off for the metric. See {@link RouteHysteresis}.
     */
    public double routeChangeMarginFraction() {
        return routeChangeMarginFraction;
    }

    /** The absolute part of the route-change margin for LATENCY and EXPECTED_LATENCY, in milliseconds. */
    public double routeChangeMarginMillis() {
        return routeChangeMarginMillis;
    }

    /** The absolute part of the route-change margin for LOSS, in its unit {@code -ln(1 - p)}. */
    public double routeChangeMarginLoss() {
        return routeChangeMarginLoss;
    }

    /** No update or ack body a router emits is larger than this. */
    public int maxUpdateBodyBytes() {
        return maxUpdateBodyBytes;
    }

    /**
     * The database holds at most this many origins (this node included). A new origin beyond it takes
     * the place of the held origin that no route reaches and expires first; if a route reaches every
     * one, it is dropped.
     */
    public int maxOrigins() {
        return maxOrigins;
    }

    /**
     * How far an advertisement's sequence may run ahead of this node's wall clock (in milliseconds of
     * sequence). A newer copy beyond it, of any origin including this node, is refused and not
     * acknowledged: a copy from a node whose clock is ahead is taken once this clock catches up. The
     * clocks of all nodes must agree within this.
     */
    public Duration maxSequenceLead() {
        return maxSequenceLead;
    }

    /** The interval of the per-neighbour and per-origin advertisement limits. */
    public Duration advertisementLimitInterval() {
        return advertisementLimitInterval;
    }

    /**
     * At most this many newer advertisements from one neighbour are taken per advertisementLimitInterval;
     * the rest are refused and not acknowledged, so the neighbour sends them again.
     */
    public int maxAdvertisementsPerNeighbour() {
        return maxAdvertisementsPerNeighbour;
    }

    /**
     * At most this many newer versions of one origin are taken per advertisementLimitInterval, except from
     * the origin itself; the rest are refused and not acknowledged, so their senders send them again.
     */
    public int maxAdvertisementsPerOrigin() {
        return maxAdvertisementsPerOrigin;
    }

    /**
     * The largest link-state extension record, in bytes: a larger local publish throws, a larger one
     * from a neighbour is refused (acked, counted as {@code extension_limit}). Unset, it is
     * {@link #DEFAULT_MAX_EXTENSION_BYTES} or what fits one update of maxUpdateBodyBytes, if less.
     */
    public int maxExtensionBytes() {
        return maxExtensionBytes;
    }

    /**
     * The most extension kinds held per origin, withdrawn ones included until they age out: a new kind
     * beyond it is refused from a neighbour ({@code extension_limit}) and throws when published locally.
     */
    public int maxExtensionsPerOrigin() {
        return maxExtensionsPerOrigin;
    }

    /**
     * The most links one advertisement may list: as many as fit in one update with the longest name
     * (67 with the default body size), and never more than the wire format's 255. A node with more
     * neighbours advertises the lowest-latency ones.
     */
    public int maxLinksPerAdvertisement() {
        int room = maxUpdateBodyBytes - LinkStateCodec.UPDATE_HEADER_BYTES - LinkStateCodec.ADVERTISEMENT_HEADER_BYTES
                - NodeId.MAX_NAME_LENGTH;
        return Math.min(LinkStateAdvertisement.MAX_LINKS, room / LinkStateCodec.LINK_BYTES);
    }

    @Override
    public String toString() {
        return "RoutingConfig{floodRetransmitInterval=" + floodRetransmitInterval
                + ", floodPacingInterval=" + floodPacingInterval
                + ", refreshInterval=" + refreshInterval
                + ", maxAge=" + maxAge
                + ", minRecomputeInterval=" + minRecomputeInterval
                + ", minReadvertiseInterval=" + minReadvertiseInterval
                + ", readvertiseLatencyFraction=" + readvertiseLatencyFraction
                + ", readvertiseLatencyMicros=" + readvertiseLatencyMicros
                + ", readvertiseLossPpm=" + readvertiseLossPpm
                + ", expectedLatencyDeadlineMillis=" + expectedLatencyDeadlineMillis
                + ", expectedLatencyDeltaMillis=" + expectedLatencyDeltaMillis
                + ", routeChangeMarginFraction=" + routeChangeMarginFraction
                + ", routeChangeMarginMillis=" + routeChangeMarginMillis
                + ", routeChangeMarginLoss=" + routeChangeMarginLoss
                + ", maxUpdateBodyBytes=" + maxUpdateBodyBytes
                + ", maxOrigins=" + maxOrigins
                + ", maxSequenceLead=" + maxSequenceLead
                + ", advertisementLimitInterval=" + advertisementLimitInterval
                + ", maxAdvertisementsPerNeighbour=" + maxAdvertisementsPerNeighbour
                + ", maxAdvertisementsPerOrigin=" + maxAdvertisementsPerOrigin
                + ", maxExtensionBytes=" + maxExtensionBytes
                + ", maxExtensionsPerOrigin=" + maxExtensionsPerOrigin + '}';
    }

    /** Collects settings; anything not set keeps its default. */
    public static final class Builder {
        private Duration floodRetransmitInterval = DEFAULT_FLOOD_RETRANSMIT_INTERVAL;
        private Duration floodPacingInterval = DEFAULT_FLOOD_PACING_INTERVAL;
        private Duration refreshInterval = DEFAULT_REFRESH_INTERVAL;
        private Duration maxAge;
        private Duration minRecomputeInterval = DEFAULT_MIN_RECOMPUTE_INTERVAL;
        private Duration minReadvertiseInterval = DEFAULT_MIN_READVERTISE_INTERVAL;
        private double readvertiseLatencyFraction = DEFAULT_READVERTISE_LATENCY_FRACTION;
        private int readvertiseLatencyMicros = DEFAULT_READVERTISE_LATENCY_MICROS;
        private int readvertiseLossPpm = DEFAULT_READVERTISE_LOSS_PPM;
        private double expectedLatencyDeadlineMillis = DEFAULT_EXPECTED_LATENCY_DEADLINE_MILLIS;
        private double expectedLatencyDeltaMillis = DEFAULT_EXPECTED_LATENCY_DELTA_MILLIS;
        private double routeChangeMarginFraction = DEFAULT_ROUTE_CHANGE_MARGIN_FRACTION;
        private double routeChangeMarginMillis = DEFAULT_ROUTE_CHANGE_MARGIN_MILLIS;
        private double routeChangeMarginLoss = DEFAULT_ROUTE_CHANGE_MARGIN_LOSS;
        private int maxUpdateBodyBytes = DEFAULT_MAX_UPDATE_BODY_BYTES;
        private int maxOrigins = DEFAULT_MAX_ORIGINS;
        private Duration maxSequenceLead = DEFAULT_MAX_SEQUENCE_LEAD;
        private Duration advertisementLimitInterval = DEFAULT_ADVERTISEMENT_LIMIT_INTERVAL;
        private int maxAdvertisementsPerNeighbour = DEFAULT_MAX_ADVERTISEMENTS_PER_NEIGHBOUR;
        private int maxAdvertisementsPerOrigin = DEFAULT_MAX_ADVERTISEMENTS_PER_ORIGIN;
        private Integer maxExtensionBytes;
        private int maxExtensionsPerOrigin = DEFAULT_MAX_EXTENSIONS_PER_ORIGIN;

        private Builder() {}

        public Builder floodRetransmitInterval(Duration d) {
            floodRetransmitInterval = d;
            return this;
        }

        public Builder floodPacingInterval(Duration d) {
            floodPacingInterval = d;
            return this;
        }

        public Builder refreshInterval(Duration d) {
            refreshInterval = d;
            return this;
        }

        /** Unset, or set to null, it follows {@link #DEFAULT_MAX_AGE_REFRESHES} refresh intervals. */
        public Builder maxAge(Duration d) {
            maxAge = d;
            return this;
        }

        public Builder minRecomputeInterval(Duration d) {
            minRecomputeInterval = d;
            return this;
        }

        public Builder minReadvertiseInterval(Duration d) {
            minReadvertiseInterval = d;
            return this;
        }

        public Builder readvertiseLatencyFraction(double fraction) {
            readvertiseLatencyFraction = fraction;
            return this;
        }

        public Builder readvertiseLatencyMicros(int micros) {
            readvertiseLatencyMicros = micros;
            return this;
        }

        public Builder readvertiseLossPpm(int ppm) {
            readvertiseLossPpm = ppm;
            return this;
        }

        public Builder expectedLatencyDeadlineMillis(double millis) {
            expectedLatencyDeadlineMillis = millis;
            return this;
        }

        public Builder expectedLatencyDeltaMillis(double millis) {
            expectedLatencyDeltaMillis = millis;
            return this;
        }

        public Builder routeChangeMarginFraction(double fraction) {
            routeChangeMarginFraction = fraction;
            return this;
        }

        public Builder routeChangeMarginMillis(double millis) {
            routeChangeMarginMillis = millis;
            return this;
        }

        public Builder routeChangeMarginLoss(double loss) {
            routeChangeMarginLoss = loss;
            return this;
        }

        /** Zero fraction and zero absolute margins: every computation takes the least-cost routes. */
        public Builder noRouteChangeMargin() {
            return routeChangeMarginFraction(0).routeChangeMarginMillis(0).routeChangeMarginLoss(0);
        }

        public Builder maxUpdateBodyBytes(int bytes) {
            maxUpdateBodyBytes = bytes;
            return this;
        }

        public Builder maxOrigins(int origins) {
            maxOrigins = origins;
            return this;
        }

        public Builder maxSequenceLead(Duration d) {
            maxSequenceLead = d;
            return this;
        }

        public Builder advertisementLimitInterval(Duration d) {
            advertisementLimitInterval = d;
            return this;
        }

        public Builder maxAdvertisementsPerNeighbour(int advertisements) {
            maxAdvertisementsPerNeighbour = advertisements;
            return this;
        }

        public Builder maxAdvertisementsPerOrigin(int advertisements) {
            maxAdvertisementsPerOrigin = advertisements;
            return this;
        }

        /** Unset, or set to null, it is the default or what fits maxUpdateBodyBytes, if less. */
        public Builder maxExtensionBytes(Integer bytes) {
            maxExtensionBytes = bytes;
            return this;
        }

        public Builder maxExtensionsPerOrigin(int kinds) {
            maxExtensionsPerOrigin = kinds;
            return this;
        }

        public RoutingConfig build() {
            return new RoutingConfig(this);
        }
    }
}

package net.hopwise.overlay.node;

import java.net.InetSocketAddress;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.LinkMonitor;
import net.hopwise.overlay.link.LinkStatistics;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.reliable.ReliableLinkReceiver;
import net.hopwise.overlay.reliable.ReliableLinkSender;
import net.hopwise.overlay.reliable.ReliableLinkStatistics;
import net.hopwise.overlay.routing.RoutingConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.LinkView;

/** One overlay link as the node keeps it: where the neighbour is, its monitor and its counters. */
public final class Neighbour implements LinkView {
    private final String name;
    private final NodeId id;
    private final InetSocketAddress configuredAddress;
    volatile InetSocketAddress address;
    LinkMonitor monitor;
    long nextLinkSequence = 1;
    volatile LinkStatistics statistics;

    /** The link's reliable channel, both directions. */
    ReliableLinkSender reliableSender;
    ReliableLinkReceiver reliableReceiver;

    /** The link's own transport, or null when it uses the node's socket. */
    net.hopwise.overlay.spi.LinkTransport transport;
    /** Whether the node's socket takes more: for links without a transport of their own. */
    java.util.function.BooleanSupplier socketWritable = () -> true;

    /** When any packet of this neighbour last arrived from its current address. */
    long lastHeardNanos;
    /** When an unverified hello was last answered with a probe; MIN_VALUE if never. */
    long probedAtNanos = Long.MIN_VALUE;
    /** Where the hello being sent goes instead of {@link #address}: set only while a probe is sent. */
    InetSocketAddress probeTo;

    static final int PACKETS_SENT = 0;
    static final int BYTES_SENT = 1;
    static final int PACKETS_RECEIVED = 2;
    static final int BYTES_RECEIVED = 3;
    /** Datagrams and bytes each way, written on the node's thread, read from any through opaque accesses. */
    private final long[] counts = new long[4];

    void count(int counter, long delta) {
        Opaque.add(counts, counter, delta);
    }

    private final RoutingConfig routing;

    Neighbour(NeighbourConfig config, RoutingConfig routing) {
        this.routing = routing;
        this.name = config.name();
        this.id = config.id();
        this.configuredAddress = config.address();
        this.address = config.address();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public NodeId id() {
        return id;
    }

    public InetSocketAddress configuredAddress() {
        return configuredAddress;
    }

    /** Where the neighbour's packets last came from, which is where we send. */
    @Override
    public InetSocketAddress address() {
        return address;
    }

    /** The latest measurements, refreshed by the event loop; safe to read from any thread. */
    @Override
    public LinkStatistics statistics() {
        return statistics;
    }

    /** Read on the node's thread. */
    @Override
    public long clockOffsetNanos() {
        LinkMonitor m = monitor;
        return m == null ? 0 : m.peerClockOffsetNanos();
    }

    @Override
    public LinkStatus status() {
        LinkStatistics s = statistics;
        return s == null ? LinkStatus.CONNECTING : s.status();
    }

    public long packetsSent() {
        return Opaque.get(counts, PACKETS_SENT);
    }

    public long bytesSent() {
        return Opaque.get(counts, BYTES_SENT);
    }

    public long packetsReceived() {
        return Opaque.get(counts, PACKETS_RECEIVED);
    }

    public long bytesReceived() {
        return Opaque.get(counts, BYTES_RECEIVED);
    }

    /**
     * The reliable channel's queue, window and counters; read without synchronisation from other
     * threads, so values may be slightly stale, like the node's counters.
     */
    @Override
    public ReliableLinkStatistics reliableStatistics() {
        ReliableLinkSender s = reliableSender;
        return s == null ? null : s.statistics();
    }

    @Override
    public boolean writable() {
        net.hopwise.overlay.spi.LinkTransport t = transport;
        return t != null ? t.writable() : socketWritable.getAsBoolean();
    }

    @Override
    public LinkFlow flow() {
        ReliableLinkSender s = reliableSender;
        return s == null ? new LinkFlow(0, false, 0) : new LinkFlow(s.queueLength(), s.hasRoom(), s.congestionLevel());
    }

    @Override
    public double cost(RoutingMetric metric) {
        LinkMonitor m = monitor;
        if (m == null || m.status() != LinkStatus.UP) {
            return Double.POSITIVE_INFINITY;
        }
        return metric.linkCost(LinkStage.costOf(m), routing);
    }

    long takeLinkSequence() {
        return nextLinkSequence++ & 0xFFFF_FFFFL;
    }
}

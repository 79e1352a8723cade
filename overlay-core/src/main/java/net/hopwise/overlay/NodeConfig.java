package net.hopwise.overlay;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.HashSet;
import net.hopwise.overlay.link.HelloConfig;
import net.hopwise.overlay.realtime.RealTimeConfig;
import net.hopwise.overlay.reliable.ReliableLinkConfig;
import net.hopwise.overlay.routing.RoutingConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionConfig;
import net.hopwise.overlay.wire.DataHeader;

/**
 * Everything a node needs to start, immutable. Build one with {@link #builder(String)}.
 *
 * <p>Every default is declared once, here, with its reason; docs/configuration.md lists them.
 */
public final class NodeConfig {
    /** Spines' well-known daemon port, so two default nodes on two machines find each other. */
    public static final int DEFAULT_PORT = 8100;
    /** Well above any sane overlay diameter, small enough to kill a routing loop quickly. */
    public static final int DEFAULT_HOP_LIMIT = 32;
    /** The floor for one message: 64 KiB, the largest UDP datagram an application may expect. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024;
    /** Room for 64 maximum-size messages in reassembly at once before the oldest is evicted. */
    public static final long DEFAULT_REASSEMBLY_BUFFER_BYTES = 4L * 1024 * 1024;
    /** A fragment later than this behind its first sibling is lost anyway on a best-effort path. */
    public static final Duration DEFAULT_REASSEMBLY_TIMEOUT = Duration.ofSeconds(2);
    /** Messages handed from other threads and not yet sent; beyond it a send is back-pressured. */
    public static final int DEFAULT_SEND_QUEUE_LIMIT = 16_384;
    /** Latency is what most applications feel; loss-sensitive ones choose LOSS per send. */
    public static final RoutingMetric DEFAULT_METRIC = RoutingMetric.LATENCY;
    /** Enough kernel buffer for a burst of ~3000 full datagrams at each node on loopback. */
    public static final int DEFAULT_SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

    private final String name;
    private final NodeId id;
    private final InetSocketAddress bindAddress;
    private final List<NeighbourConfig> neighbours;
    private final HelloConfig hello;
    private final RoutingConfig routing;
    private final RoutingMetric defaultMetric;
    private final int hopLimit;
    private final int maxMessageBytes;
    private final long reassemblyBufferBytes;
    private final Duration reassemblyTimeout;
    private final int sendQueueLimit;
    private final int socketBufferBytes;
    private final TransportKind transport;
    private final MeterRegistry meterRegistry;
    private final long impairmentSeed;
    private final RealTimeConfig realTime;
    private final ReliableLinkConfig reliableLink;
    private final SessionConfig session;
    private final List<net.hopwise.overlay.spi.OverlayModule> modules;

    private NodeConfig(Builder b) {
        this.name = b.name;
        this.id = NodeId.ofName(b.name);
        this.bindAddress = b.bindAddress;
        this.neighbours = List.copyOf(b.neighbours);
        this.hello = b.hello;
        this.routing = b.routing;
        this.defaultMetric = b.defaultMetric;
        this.hopLimit = b.hopLimit;
        this.maxMessageBytes = b.maxMessageBytes;
        this.reassemblyBufferBytes = b.reassemblyBufferBytes;
        this.reassemblyTimeout = b.reassemblyTimeout;
        this.sendQueueLimit = b.sendQueueLimit;
        this.socketBufferBytes = b.socketBufferBytes;
        this.transport = b.transport;
        this.meterRegistry = b.meterRegistry;
        this.impairmentSeed = b.impairmentSeed != null ? b.impairmentSeed : id.value();
        this.realTime = b.realTime;
        this.reliableLink = b.reliableLink;
        this.session = b.session;
        this.modules = List.copyOf(b.modules);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public Builder toBuilder() {
        Builder b = new Builder(name);
        b.bindAddress = bindAddress;
        b.neighbours.addAll(neighbours);
        b.hello = hello;
        b.routing = routing;
        b.defaultMetric = defaultMetric;
        b.hopLimit = hopLimit;
        b.maxMessageBytes = maxMessageBytes;
        b.reassemblyBufferBytes = reassemblyBufferBytes;
        b.reassemblyTimeout = reassemblyTimeout;
        b.sendQueueLimit = sendQueueLimit;
        b.socketBufferBytes = socketBufferBytes;
        b.transport = transport;
        b.meterRegistry = meterRegistry;
        b.impairmentSeed = impairmentSeed;
        b.realTime = realTime;
        b.reliableLink = reliableLink;
        b.session = session;
        b.modules.addAll(modules);
        return b;
    }

    public String name() {
        return name;
    }

    /** The modules installed on the node, in the order they were added (which is their install order). */
    public List<net.hopwise.overlay.spi.OverlayModule> modules() {
        return modules;
    }

    public NodeId id() {
        return id;
    }

    public InetSocketAddress bindAddress() {
        return bindAddress;
    }

    public List<NeighbourConfig> neighbours() {
        return neighbours;
    }

    public HelloConfig hello() {
        return hello;
    }

    public RoutingConfig routing() {
        return routing;
    }

    public RoutingMetric defaultMetric() {
        return defaultMetric;
    }

    public int hopLimit() {
        return hopLimit;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    public long reassemblyBufferBytes() {
        return reassemblyBufferBytes;
    }

    public Duration reassemblyTimeout() {
        return reassemblyTimeout;
    }

    public int sendQueueLimit() {
        return sendQueueLimit;
    }

    public int socketBufferBytes() {
        return socketBufferBytes;
    }

    public TransportKind transport() {
        return transport;
    }

    /** The registry meters go to; null means the node keeps its own simple registry. */
    public MeterRegistry meterRegistry() {
        return meterRegistry;
    }

    public long impairmentSeed() {
        return impairmentSeed;
    }

    /** Real-time links and flows: history, retransmission budget, late deadline, metric. */
    public RealTimeConfig realTime() {
        return realTime;
    }

    /** The reliable channel of every link (hop-by-hop recovery and congestion control). */
    public ReliableLinkConfig reliableLink() {
        return reliableLink;
    }

    /** End-to-end reliable sessions at this node. */
    public SessionConfig session() {
        return session;
    }

    @Override
    public String toString() {
        return "NodeConfig[name=" + name + ", bind=" + bindAddress + ", neighbours=" + neighbours + "]";
    }

    /** Collects a node's settings; {@link #build()} checks them all and names each bad value. */
    public static final class Builder {
        private final String name;
        private InetSocketAddress bindAddress = new InetSocketAddress(DEFAULT_PORT);
        private final List<NeighbourConfig> neighbours = new ArrayList<>();
        private HelloConfig hello = HelloConfig.defaults();
        private RoutingConfig routing = RoutingConfig.defaults();
        private RoutingMetric defaultMetric = DEFAULT_METRIC;
        private int hopLimit = DEFAULT_HOP_LIMIT;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private long reassemblyBufferBytes = DEFAULT_REASSEMBLY_BUFFER_BYTES;
        private Duration reassemblyTimeout = DEFAULT_REASSEMBLY_TIMEOUT;
        private int sendQueueLimit = DEFAULT_SEND_QUEUE_LIMIT;
        private int socketBufferBytes = DEFAULT_SOCKET_BUFFER_BYTES;
        private TransportKind transport = TransportKind.AUTO;
        private MeterRegistry meterRegistry;
        private Long impairmentSeed;
        private RealTimeConfig realTime = RealTimeConfig.defaults();
        private ReliableLinkConfig reliableLink = ReliableLinkConfig.defaults();
        private SessionConfig session = SessionConfig.defaults();
        private final List<net.hopwise.overlay.spi.OverlayModule> modules = new java.util.ArrayList<>();

        private Builder(String name) {
            this.name = NodeId.requireValidName(name);
        }

        /** Where the node's UDP socket binds; port 0 picks a free port. */
        public Builder bindAddress(InetSocketAddress address) {
            this.bindAddress = Objects.requireNonNull(address, "bindAddress");
            return this;
        }

        /** Binds to the loopback address of the machine on the given port (0 picks a free port). */
        public Builder loopback(int port) {
            return bindAddress(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
        }

        /**
         * Installs a module (see {@link net.hopwise.overlay.spi}): it adds packet types, stages,
         * link-state records and an API to the node. Modules install in the order added.
         */
        public Builder module(net.hopwise.overlay.spi.OverlayModule module) {
            modules.add(Objects.requireNonNull(module, "module"));
            return this;
        }

        public Builder neighbour(NeighbourConfig neighbour) {
            neighbours.add(Objects.requireNonNull(neighbour, "neighbour"));
            return this;
        }

        public Builder neighbour(String name, InetSocketAddress address) {
            return neighbour(new NeighbourConfig(name, address));
        }

        public Builder neighbours(List<NeighbourConfig> list) {
            list.forEach(this::neighbour);
            return this;
        }

        public Builder hello(HelloConfig config) {
            this.hello = Objects.requireNonNull(config, "hello");
            return this;
        }

        public Builder routing(RoutingConfig config) {
            this.routing = Objects.requireNonNull(config, "routing");
            return this;
        }

        public Builder defaultMetric(RoutingMetric metric) {
            this.defaultMetric = Objects.requireNonNull(metric, "defaultMetric");
            return this;
        }

        public Builder hopLimit(int hops) {
            this.hopLimit = hops;
            return this;
        }

        public Builder maxMessageBytes(int bytes) {
            this.maxMessageBytes = bytes;
            return this;
        }

        public Builder reassemblyBufferBytes(long bytes) {
            this.reassemblyBufferBytes = bytes;
            return this;
        }

        public Builder reassemblyTimeout(Duration timeout) {
            this.reassemblyTimeout = Objects.requireNonNull(timeout, "reassemblyTimeout");
            return this;
        }

        public Builder sendQueueLimit(int messages) {
            this.sendQueueLimit = messages;
            return this;
        }

        public Builder socketBufferBytes(int bytes) {
            this.socketBufferBytes = bytes;
            return this;
        }

        public Builder transport(TransportKind kind) {
            this.transport = Objects.requireNonNull(kind, "transport");
            return this;
        }

        public Builder meterRegistry(MeterRegistry registry) {
            this.meterRegistry = registry;
            return this;
        }

        /** Seed of the node's impairment models, so an impaired experiment can be repeated. */
        public Builder impairmentSeed(long seed) {
            this.impairmentSeed = seed;
            return this;
        }

        public Builder realTime(RealTimeConfig config) {
            this.realTime = Objects.requireNonNull(config, "realTime");
            return this;
        }

        public Builder reliableLink(ReliableLinkConfig config) {
            this.reliableLink = Objects.requireNonNull(config, "reliableLink");
            return this;
        }

        public Builder session(SessionConfig config) {
            this.session = Objects.requireNonNull(config, "session");
            return this;
        }

        public NodeConfig build() {
            if (hopLimit < 1 || hopLimit > 255) {
                throw new IllegalArgumentException("hopLimit must be 1-255, got " + hopLimit);
            }
            long maxFragments = 65_535L * DataHeader.MAX_FRAGMENT_PAYLOAD;
            if (maxMessageBytes < 1 || maxMessageBytes > maxFragments) {
                throw new IllegalArgumentException("maxMessageBytes must be 1-" + maxFragments + ", got " + maxMessageBytes);
            }
            if (reassemblyBufferBytes < maxMessageBytes) {
                throw new IllegalArgumentException("reassemblyBufferBytes (" + reassemblyBufferBytes
                        + ") must hold at least one message of maxMessageBytes (" + maxMessageBytes + ")");
            }
            if (reassemblyTimeout.isNegative() || reassemblyTimeout.isZero()) {
                throw new IllegalArgumentException("reassemblyTimeout must be positive, got " + reassemblyTimeout);
            }
            if (sendQueueLimit < 1) {
                throw new IllegalArgumentException("sendQueueLimit must be at least 1, got " + sendQueueLimit);
            }
            if (socketBufferBytes < 64 * 1024) {
                throw new IllegalArgumentException("socketBufferBytes must be at least 65536, got " + socketBufferBytes);
            }
            Set<String> seen = new HashSet<>();
            for (NeighbourConfig n : neighbours) {
                if (n.name().equals(name)) {
                    throw new IllegalArgumentException("node " + name + " cannot be its own neighbour");
                }
                if (!seen.add(n.name())) {
                    throw new IllegalArgumentException("neighbour " + n.name() + " is configured twice");
                }
            }
            Set<String> moduleNames = new HashSet<>();
            for (net.hopwise.overlay.spi.OverlayModule m : modules) {
                if (!moduleNames.add(m.name())) {
                    throw new IllegalArgumentException("module " + m.name() + " is installed twice");
                }
            }
            return new NodeConfig(this);
        }
    }
}

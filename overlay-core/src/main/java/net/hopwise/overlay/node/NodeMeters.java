package net.hopwise.overlay.node;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;
import net.hopwise.overlay.link.LinkStatistics;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.reliable.ReliableLinkStatistics;
import net.hopwise.overlay.session.SessionEndpoint;
import net.hopwise.overlay.wire.DropReason;

/**
 * Binds a node's counters and link measurements to Micrometer under {@code hopwise.*} names.
 *
 * <p>Meters read the engine's plain counters when scraped (function counters and gauges), so the
 * forwarding path never pays for an atomic increment.
 */
public final class NodeMeters implements AutoCloseable {
    private final NodeStack engine;
    private final MeterRegistry registry;
    private final Tags nodeTags;
    private final List<Meter> nodeMeters = new ArrayList<>();
    private final Map<Neighbour, List<Meter>> linkMeters = new HashMap<>();
    private final Map<SessionEndpoint, List<Meter>> sessionMeters = new HashMap<>();

    /**
     * Drops counted outside the stages (impairment, the kernel's socket buffer) are read through
     * {@link NodeCounters#drops}, which the node that owns those counts was told about.
     */
    public NodeMeters(NodeStack engine, MeterRegistry registry) {
        this.engine = engine;
        this.registry = registry;
        this.nodeTags = Tags.of("node", engine.config().name());
        NodeCounters c = engine.counters();
        counter("hopwise.node.packets", "Datagrams received by the node", c, NodeCounters::packetsReceived, "direction", "in");
        counter("hopwise.node.packets", "Datagrams sent by the node", c, NodeCounters::packetsSent, "direction", "out");
        counter("hopwise.node.bytes", "Bytes received by the node", c, NodeCounters::bytesReceived, "direction", "in");
        counter("hopwise.node.bytes", "Bytes sent by the node", c, NodeCounters::bytesSent, "direction", "out");
        counter("hopwise.node.forwarded", "Datagrams forwarded for other nodes", c, NodeCounters::packetsForwarded);
        counter("hopwise.node.messages", "Messages sent by local ports", c, NodeCounters::messagesSent, "direction", "sent");
        counter("hopwise.node.messages", "Messages delivered to local ports", c, NodeCounters::messagesDelivered,
                "direction", "delivered");
        counter("hopwise.node.handler.failures", "Exceptions thrown by message handlers", c,
                NodeCounters::handlerFailures);
        for (DropReason reason : DropReason.values()) {
            counter("hopwise.node.drops", "Datagrams dropped, by reason", c, x -> x.drops(reason),
                    "reason", reason.tag());
        }
        for (net.hopwise.overlay.spi.DropCounter d : c.moduleDrops()) {
            nodeMeters.add(FunctionCounter.builder("hopwise.node.drops", d, x -> x.count())
                    .description("Datagrams dropped, by reason").tags(nodeTags).tag("reason", d.reason())
                    .register(registry));
        }
        nodeMeters.add(FunctionCounter.builder("hopwise.routing.recomputations", engine,
                        e -> e.router().recomputations())
                .description("Route computations run").tags(nodeTags).register(registry));
        counter("hopwise.routing.changes", "Route computations that changed a route", c, NodeCounters::routeChanges);
        nodeMeters.add(Gauge.builder("hopwise.routing.nodes", engine, e -> e.router().database().size())
                .description("Nodes in the link-state database").tags(nodeTags).register(registry));
        nodeMeters.add(Gauge.builder("hopwise.routing.links.unadvertised", engine, e -> e.router().linksLeftOut())
                .description("Up links our advertisement leaves out for want of room in one update")
                .tags(nodeTags).register(registry));
    }

    private void counter(String name, String description, NodeCounters c, ToDoubleFunction<NodeCounters> f,
            String... tags) {
        nodeMeters.add(FunctionCounter.builder(name, c, f).description(description).tags(nodeTags).tags(tags)
                .register(registry));
    }

    /** Registers the meters of one link. */
    public void addLink(Neighbour n) {
        Tags tags = nodeTags.and("peer", n.name());
        List<Meter> meters = new ArrayList<>();
        meters.add(FunctionCounter.builder("hopwise.link.packets", n, Neighbour::packetsSent)
                .description("Datagrams sent on the link").tags(tags).tag("direction", "out").register(registry));
        meters.add(FunctionCounter.builder("hopwise.link.packets", n, Neighbour::packetsReceived)
                .description("Datagrams received on the link").tags(tags).tag("direction", "in").register(registry));
        meters.add(FunctionCounter.builder("hopwise.link.bytes", n, Neighbour::bytesSent)
                .description("Bytes sent on the link").tags(tags).tag("direction", "out").baseUnit("bytes")
                .register(registry));
        meters.add(FunctionCounter.builder("hopwise.link.bytes", n, Neighbour::bytesReceived)
                .description("Bytes received on the link").tags(tags).tag("direction", "in").baseUnit("bytes")
                .register(registry));
        meters.add(Gauge.builder("hopwise.link.rtt", n, x -> stat(x, s -> s.srttNanos() / 1e9))
                .description("Smoothed round-trip time").tags(tags).baseUnit("seconds").register(registry));
        meters.add(Gauge.builder("hopwise.link.jitter", n, x -> stat(x, s -> s.jitterNanos() / 1e9))
                .description("Inter-arrival jitter of hellos").tags(tags).baseUnit("seconds").register(registry));
        meters.add(Gauge.builder("hopwise.link.loss", n, x -> stat(x, LinkStatistics::inboundLossRate))
                .description("Loss rate of packets from the peer").tags(tags).tag("direction", "in")
                .register(registry));
        meters.add(Gauge.builder("hopwise.link.loss", n, x -> stat(x, LinkStatistics::outboundLossRate))
                .description("Loss rate of packets to the peer, as the peer reports it").tags(tags)
                .tag("direction", "out").register(registry));
        meters.add(Gauge.builder("hopwise.link.up", n, x -> x.status() == LinkStatus.UP ? 1 : 0)
                .description("1 while the link is up").tags(tags).register(registry));
        meters.add(FunctionCounter.builder("hopwise.link.state.changes", n,
                        x -> stat(x, s -> s.upTransitions() + s.downTransitions()))
                .description("Link up and down transitions").tags(tags).register(registry));
        addReliableLink(n, tags, meters);
        linkMeters.put(n, meters);
    }

    /** The link's reliable channel: retransmissions, queue, congestion window. */
    private void addReliableLink(Neighbour n, Tags linkTags, List<Meter> meters) {
        // The channel tag keeps one set of tag keys per meter name: the real-time channel registers
        // hopwise.link.retransmissions too, and Prometheus refuses a name with two tag-key sets.
        Tags tags = linkTags.and("channel", "reliable");
        meters.add(FunctionCounter.builder("hopwise.link.retransmissions", n,
                        x -> reliable(x, ReliableLinkStatistics::retransmissions))
                .description("Packets resent on the link's reliable channel").tags(tags).register(registry));
        meters.add(FunctionCounter.builder("hopwise.link.tail.probes", n,
                        x -> reliable(x, ReliableLinkStatistics::tailProbes))
                .description("Lone last packets sent a second time on the link's reliable channel").tags(tags)
                .register(registry));
        meters.add(FunctionCounter.builder("hopwise.link.timeouts", n, x -> reliable(x, ReliableLinkStatistics::timeouts))
                .description("Retransmission timeouts of the link's reliable channel").tags(tags).register(registry));
        meters.add(Gauge.builder("hopwise.link.queue", n, x -> reliable(x, ReliableLinkStatistics::queueLength))
                .description("Packets waiting in front of the link's reliable window").tags(tags).register(registry));
        meters.add(Gauge.builder("hopwise.link.cwnd", n, x -> reliable(x, ReliableLinkStatistics::congestionWindowBytes))
                .description("Congestion window of the link's reliable channel, in bytes on the wire").baseUnit("bytes")
                .tags(tags)
                .register(registry));
    }

    private static double reliable(Neighbour n, ToDoubleFunction<ReliableLinkStatistics> f) {
        ReliableLinkStatistics s = n.reliableStatistics();
        return s == null ? Double.NaN : f.applyAsDouble(s);
    }

    /** Registers the meters of one reliable session end. */
    public void addSession(SessionEndpoint s, String peerName) {
        Tags tags = nodeTags.and("peer", peerName).and("port", Integer.toString(s.localPort()))
                .and("peer.port", Integer.toString(s.remotePort()));
        List<Meter> meters = new ArrayList<>();
        meters.add(FunctionCounter.builder("hopwise.session.messages", s, x -> x.sender().messagesAccepted())
                .description("Messages sent on the session").tags(tags).tag("direction", "sent").register(registry));
        meters.add(FunctionCounter.builder("hopwise.session.messages", s, x -> x.receiver().messagesDelivered())
                .description("Messages delivered from the session").tags(tags).tag("direction", "delivered")
                .register(registry));
        meters.add(FunctionCounter.builder("hopwise.session.retransmissions", s, x -> x.sender().retransmissions())
                .description("Packets resent end to end").tags(tags).register(registry));
        meters.add(Gauge.builder("hopwise.session.window", s, x -> x.sender().congestionWindow())
                .description("End-to-end congestion window in packets").tags(tags).register(registry));
        meters.add(Gauge.builder("hopwise.session.buffered", s, x -> x.sender().buffered())
                .description("Packets held for sending").tags(tags).register(registry));
        sessionMeters.put(s, meters);
    }

    public void removeSession(SessionEndpoint s) {
        List<Meter> meters = sessionMeters.remove(s);
        if (meters != null) {
            meters.forEach(registry::remove);
        }
    }

    /** Removes the meters of a link that was removed. */
    public void removeLink(Neighbour n) {
        List<Meter> meters = linkMeters.remove(n);
        if (meters != null) {
            meters.forEach(registry::remove);
        }
    }

    private static double stat(Neighbour n, ToDoubleFunction<LinkStatistics> f) {
        LinkStatistics s = n.statistics();
        return s == null ? Double.NaN : f.applyAsDouble(s);
    }

    @Override
    public void close() {
        nodeMeters.forEach(registry::remove);
        nodeMeters.clear();
        linkMeters.values().forEach(list -> list.forEach(registry::remove));
        linkMeters.clear();
        sessionMeters.values().forEach(list -> list.forEach(registry::remove));
        sessionMeters.clear();
    }
}

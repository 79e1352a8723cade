package net.hopwise.admin.config;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.HelloConfig;
import net.hopwise.overlay.routing.RoutingConfig;
import net.hopwise.overlay.trace.TraceModule;

/**
 * Turns {@code hopwise.node.*} into a {@link NodeConfig}, reporting every bad value with the property
 * that holds it.
 *
 * <p>The checks are the core's own (its builders reject bad values with a message): each value is
 * first tried alone on a fresh builder, so every bad value is reported, not only the first, and the
 * whole configuration is built last for the checks that involve two values.
 */
public final class NodeSettings {
    private final List<String> problems = new ArrayList<>();

    private NodeSettings() {}

    /**
     * The node's configuration.
     *
     * @throws InvalidSettingsException listing every bad value
     */
    public static NodeConfig toNodeConfig(HopwiseProperties.Node p, io.micrometer.core.instrument.MeterRegistry registry) {
        return new NodeSettings().build(p, registry);
    }

    private NodeConfig build(HopwiseProperties.Node p, io.micrometer.core.instrument.MeterRegistry registry) {
        if (p.getName() == null || p.getName().isBlank()) {
            throw new InvalidSettingsException(List.of("hopwise.node.name: a node needs a name"));
        }
        String name = check("hopwise.node.name", () -> NodeId.requireValidName(p.getName()));
        InetSocketAddress bind = p.getBind() == null ? null : check("hopwise.node.bind", () -> parseBind(p.getBind()));
        List<NeighbourConfig> neighbours = new ArrayList<>();
        for (int i = 0; i < p.getNeighbours().size(); i++) {
            String spec = p.getNeighbours().get(i);
            NeighbourConfig n = check("hopwise.node.neighbours[" + i + "]", () -> NeighbourConfig.parse(spec));
            if (n != null) {
                neighbours.add(n);
            }
        }
        HelloConfig hello = hello(p.getHello());
        RoutingConfig routing = routing(p.getRouting());
        String probeName = name != null ? name : "probe";
        nodeField("hop-limit", p.getHopLimit(), probeName, b -> b.hopLimit(p.getHopLimit()));
        nodeField("max-message-bytes", p.getMaxMessageBytes(), probeName, b -> b.maxMessageBytes(p.getMaxMessageBytes()));
        nodeField("reassembly-timeout", p.getReassemblyTimeout(), probeName,
                b -> b.reassemblyTimeout(p.getReassemblyTimeout()));
        nodeField("send-queue-limit", p.getSendQueueLimit(), probeName, b -> b.sendQueueLimit(p.getSendQueueLimit()));
        nodeField("socket-buffer-bytes", p.getSocketBufferBytes(), probeName,
                b -> b.socketBufferBytes(p.getSocketBufferBytes()));
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        // The trace module answers other nodes' traces and serves the API's: a node the operator runs
        // through this service should be traceable like every other.
        NodeConfig.Builder b = NodeConfig.builder(name).neighbours(neighbours).hello(hello).routing(routing)
                .module(new TraceModule());
        if (bind != null) {
            b.bindAddress(bind);
        }
        if (p.getDefaultMetric() != null) {
            b.defaultMetric(p.getDefaultMetric());
        }
        if (p.getHopLimit() != null) {
            b.hopLimit(p.getHopLimit());
        }
        if (p.getMaxMessageBytes() != null) {
            b.maxMessageBytes(p.getMaxMessageBytes());
        }
        if (p.getReassemblyBufferBytes() != null) {
            b.reassemblyBufferBytes(p.getReassemblyBufferBytes());
        }
        if (p.getReassemblyTimeout() != null) {
            b.reassemblyTimeout(p.getReassemblyTimeout());
        }
        if (p.getSendQueueLimit() != null) {
            b.sendQueueLimit(p.getSendQueueLimit());
        }
        if (p.getSocketBufferBytes() != null) {
            b.socketBufferBytes(p.getSocketBufferBytes());
        }
        if (p.getTransport() != null) {
            b.transport(p.getTransport());
        }
        if (p.getImpairmentSeed() != null) {
            b.impairmentSeed(p.getImpairmentSeed());
        }
        b.meterRegistry(registry);
        NodeConfig config = check("hopwise.node", b::build);
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        return config;
    }

    private void nodeField(String property, Object value, String name, Consumer<NodeConfig.Builder> set) {
        if (value != null) {
            check("hopwise.node." + property, () -> {
                NodeConfig.Builder b = NodeConfig.builder(name);
                set.accept(b);
                return b.build();
            });
        }
    }

    private HelloConfig hello(HopwiseProperties.Hello h) {
        String prefix = "hopwise.node.hello.";
        if (h.getInterval() != null) {
            check(prefix + "interval", () -> HelloConfig.builder().interval(h.getInterval())
                    .downInterval(max(h.getInterval(), HelloConfig.DEFAULT_DOWN_INTERVAL)).build());
        }
        if (h.getDeadCount() != null) {
            check(prefix + "dead-count", () -> HelloConfig.builder().deadCount(h.getDeadCount()).build());
        }
        if (h.getUpCount() != null) {
            check(prefix + "up-count", () -> HelloConfig.builder().upCount(h.getUpCount()).build());
        }
        if (h.getDownInterval() != null) {
            check(prefix + "down-interval", () -> HelloConfig.builder().downInterval(h.getDownInterval())
                    .interval(min(h.getDownInterval(), HelloConfig.DEFAULT_INTERVAL)).build());
        }
        HelloConfig.Builder b = HelloConfig.builder();
        if (h.getInterval() != null) {
            b.interval(h.getInterval());
        }
        if (h.getDeadCount() != null) {
            b.deadCount(h.getDeadCount());
        }
        if (h.getUpCount() != null) {
            b.upCount(h.getUpCount());
        }
        if (h.getDownInterval() != null) {
            b.downInterval(h.getDownInterval());
        }
        return problems.isEmpty() ? check("hopwise.node.hello", b::build) : HelloConfig.defaults();
    }

    private RoutingConfig routing(HopwiseProperties.Routing r) {
        String prefix = "hopwise.node.routing.";
        RoutingConfig.Builder b = RoutingConfig.builder();
        int before = problems.size();
        if (r.getFloodRetransmitInterval() != null) {
            check(prefix + "flood-retransmit-interval",
                    () -> RoutingConfig.builder().floodRetransmitInterval(r.getFloodRetransmitInterval()).build());
            b.floodRetransmitInterval(r.getFloodRetransmitInterval());
        }
        if (r.getFloodPacingInterval() != null) {
            check(prefix + "flood-pacing-interval",
                    () -> RoutingConfig.builder().floodPacingInterval(r.getFloodPacingInterval()).build());
            b.floodPacingInterval(r.getFloodPacingInterval());
        }
        if (r.getRefreshInterval() != null) {
            check(prefix + "refresh-interval",
                    () -> RoutingConfig.builder().refreshInterval(r.getRefreshInterval()).build());
            b.refreshInterval(r.getRefreshInterval());
        }
        if (r.getMaxAge() != null) {
            b.maxAge(r.getMaxAge());
        }
        if (r.getMinRecomputeInterval() != null) {
            check(prefix + "min-recompute-interval",
                    () -> RoutingConfig.builder().minRecomputeInterval(r.getMinRecomputeInterval()).build());
            b.minRecomputeInterval(r.getMinRecomputeInterval());
        }
        if (r.getMinReadvertiseInterval() != null) {
            check(prefix + "min-readvertise-interval",
                    () -> RoutingConfig.builder().minReadvertiseInterval(r.getMinReadvertiseInterval()).build());
            b.minReadvertiseInterval(r.getMinReadvertiseInterval());
        }
        if (r.getExpectedLatencyDeadlineMillis() != null) {
            b.expectedLatencyDeadlineMillis(r.getExpectedLatencyDeadlineMillis());
        }
        if (r.getExpectedLatencyDeltaMillis() != null) {
            b.expectedLatencyDeltaMillis(r.getExpectedLatencyDeltaMillis());
        }
        if (problems.size() > before) {
            return RoutingConfig.defaults();
        }
        RoutingConfig built = check("hopwise.node.routing", b::build);
        return built != null ? built : RoutingConfig.defaults();
    }

    /** Runs a check; on a core complaint records it under the property and returns null. */
    private <T> T check(String property, Supplier<T> attempt) {
        try {
            return attempt.get();
        } catch (IllegalArgumentException | NullPointerException e) {
            problems.add(property + ": " + e.getMessage());
            return null;
        }
    }

    /** host:port, [v6]:port, or a bare port meaning every interface; also read for the SIP relay's address. */
    public static InetSocketAddress parseBind(String bind) {
        String trimmed = bind.trim();
        if (trimmed.matches("\\d+")) {
            int port = Integer.parseInt(trimmed);
            if (port > 65535) {
                throw new IllegalArgumentException("port must be 0-65535, got " + port);
            }
            return new InetSocketAddress(port);
        }
        int colon = trimmed.lastIndexOf(':');
        if (colon <= 0 || colon == trimmed.length() - 1) {
            throw new IllegalArgumentException("'" + bind + "' is not of the form host:port, [v6]:port or port");
        }
        String host = trimmed.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(trimmed.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + bind + "' has no numeric port");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, got " + port);
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve host '" + host + "'");
        }
        return address;
    }

    private static java.time.Duration max(java.time.Duration a, java.time.Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static java.time.Duration min(java.time.Duration a, java.time.Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}

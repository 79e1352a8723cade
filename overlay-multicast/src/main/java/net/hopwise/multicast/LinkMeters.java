package net.hopwise.multicast;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.ModuleContext;

/**
 * The meters of a node's flow-controlled links: the cost each is advertised at and its buffer's
 * average over the last update, tagged with the node and the neighbour. Written on the node's thread
 * at each update, read from the scraping thread.
 */
final class LinkMeters {
    private final ModuleContext context;
    private final Map<NodeId, double[]> values = new ConcurrentHashMap<>();
    private final Map<NodeId, List<Meter>> meters = new HashMap<>();

    LinkMeters(ModuleContext context) {
        this.context = context;
    }

    void register(NodeId neighbour) {
        double[] v = new double[2];
        values.put(neighbour, v);
        String node = context.config().name();
        String peer = context.routes().nameOf(neighbour);
        meters.put(neighbour, List.of(
                Gauge.builder("hopwise.multicast.link.cost", v, x -> x[0])
                        .description("Cost-Benefit cost this node advertises for the link").tag("node", node)
                        .tag("neighbour", peer).register(context.meterRegistry()),
                Gauge.builder("hopwise.multicast.link.buffer", v, x -> x[1])
                        .description("average packets in the link's flow-control buffer over the last update")
                        .tag("node", node).tag("neighbour", peer).register(context.meterRegistry())));
    }

    void set(NodeId neighbour, double cost, double average) {
        double[] v = values.get(neighbour);
        if (v != null) {
            v[0] = cost;
            v[1] = average;
        }
    }

    void unregister(NodeId neighbour) {
        values.remove(neighbour);
        List<Meter> gone = meters.remove(neighbour);
        if (gone != null) {
            gone.forEach(context.meterRegistry()::remove);
        }
    }
}

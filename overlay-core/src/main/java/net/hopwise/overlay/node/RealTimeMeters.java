package net.hopwise.overlay.node;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import net.hopwise.overlay.NodeId;

/**
 * Binds a node's real-time counters to Micrometer: {@code hopwise.realtime.*} for flows and
 * {@code hopwise.link.*{channel=realtime}} for the recovery work of each link.
 *
 * <p>Like {@link NodeMeters}, meters read plain counters when scraped; a link's real-time channel
 * appears with its first real-time packet, and reads as zero before.
 */
public final class RealTimeMeters implements AutoCloseable {
    private final NodeStack engine;
    private final MeterRegistry registry;
    private final Tags nodeTags;
    private final List<Meter> nodeMeters = new ArrayList<>();
    private final Map<Neighbour, List<Meter>> linkMeters = new HashMap<>();

    public RealTimeMeters(NodeStack engine, MeterRegistry registry) {
        this.engine = engine;
        this.registry = registry;
        this.nodeTags = Tags.of("node", engine.config().name());
        RealTimeCounters c = engine.realTimeCounters();
        node("Real-time packets sent by local flows", c, RealTimeCounters::sent, "direction", "sent");
        node("Real-time packets forwarded for other nodes", c, RealTimeCounters::forwarded, "direction", "forwarded");
        node("Real-time packets delivered to local ports", c, RealTimeCounters::delivered, "direction", "delivered");
        nodeMeters.add(FunctionCounter.builder("hopwise.realtime.late", c, x -> x.late())
                .description("Delivered real-time packets later than the deadline").tags(nodeTags).register(registry));
        nodeMeters.add(FunctionCounter.builder("hopwise.realtime.recovered", c, x -> x.recovered())
                .description("Delivered real-time packets that a link on the way resent").tags(nodeTags)
                .register(registry));
    }

    private void node(String description, RealTimeCounters c, ToLongFunction<RealTimeCounters> f, String... tags) {
        nodeMeters.add(FunctionCounter.builder("hopwise.realtime.packets", c, x -> f.applyAsLong(x))
                .description(description).tags(nodeTags).tags(tags).register(registry));
    }

    /** Registers the real-time meters of one link. */
    public void addLink(Neighbour n) {
        Tags tags = nodeTags.and("peer", n.name()).and("channel", "realtime");
        NodeId peer = n.id();
        List<Meter> meters = new ArrayList<>();
        meters.add(link("hopwise.link.retransmissions", "Real-time packets resent on request", tags, peer,
                RealTimeChannel::retransmissions));
        meters.add(link("hopwise.link.nacks", "Negative acknowledgements received", tags.and("direction", "in"),
                peer, RealTimeChannel::nacksReceived));
        meters.add(link("hopwise.link.nacks", "Negative acknowledgements sent", tags.and("direction", "out"),
                peer, RealTimeChannel::nacksSent));
        meters.add(link("hopwise.link.recovered", "Real-time packets that filled a gap", tags, peer,
                RealTimeChannel::recovered));
        meters.add(link("hopwise.link.duplicates", "Real-time copies suppressed", tags, peer,
                RealTimeChannel::duplicates));
        meters.add(link("hopwise.link.retransmissions.refused", "Requests for packets past the history", tags
                .and("reason", "expired"), peer, RealTimeChannel::refusedExpired));
        meters.add(link("hopwise.link.retransmissions.refused", "Requests refused by the token bucket", tags
                .and("reason", "tokens"), peer, RealTimeChannel::refusedTokens));
        linkMeters.put(n, meters);
    }

    private Meter link(String name, String description, Tags tags, NodeId peer, ToLongFunction<RealTimeChannel> f) {
        return FunctionCounter.builder(name, engine, e -> {
                    RealTimeChannel c = e.realTimeChannel(peer);
                    return c == null ? 0 : f.applyAsLong(c);
                })
                .description(description).tags(tags).register(registry);
    }

    /** Removes the meters of a link that was removed. */
    public void removeLink(Neighbour n) {
        List<Meter> meters = linkMeters.remove(n);
        if (meters != null) {
            meters.forEach(registry::remove);
        }
    }

    @Override
    public void close() {
        nodeMeters.forEach(registry::remove);
        nodeMeters.clear();
        linkMeters.values().forEach(list -> list.forEach(registry::remove));
        linkMeters.clear();
    }
}

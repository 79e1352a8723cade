package net.hopwise.admin.overlay;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import net.hopwise.multicast.Multicast;
import net.hopwise.overlay.OverlayNode;

/**
 * Per-group meters of the local nodes for the groups this service names (group ids are hashes, so
 * only named groups can be asked for their counts): messages sent, delivered and relayed, local
 * members and member nodes, tagged with node and group, for Prometheus beside the node's own meters.
 */
public final class MulticastMeters {
    private MulticastMeters() {}

    /** Registers the meters of every local node with multicast for each of {@code groups}. */
    public static void register(MeterRegistry registry, LocalNodes nodes, Set<String> groups) {
        for (OverlayNode node : nodes.all().values()) {
            node.findModule(Multicast.class).ifPresent(m -> {
                for (String group : groups) {
                    String n = node.name();
                    FunctionCounter.builder("hopwise.multicast.group.sent", m, x -> x.statistics(group).sent())
                            .tag("node", n).tag("group", group).description("messages local applications sent to the group")
                            .register(registry);
                    FunctionCounter.builder("hopwise.multicast.group.delivered", m, x -> x.statistics(group).delivered())
                            .tag("node", n).tag("group", group).description("messages handed to local members")
                            .register(registry);
                    FunctionCounter.builder("hopwise.multicast.group.forwarded", m, x -> x.statistics(group).forwarded())
                            .tag("node", n).tag("group", group).description("fragments relayed on some source's tree")
                            .register(registry);
                    Gauge.builder("hopwise.multicast.group.local.members", m, x -> x.statistics(group).localMembers())
                            .tag("node", n).tag("group", group).register(registry);
                    Gauge.builder("hopwise.multicast.group.member.nodes", m, x -> x.statistics(group).memberNodes())
                            .tag("node", n).tag("group", group).description("nodes this node holds as members")
                            .register(registry);
                }
            });
        }
    }
}

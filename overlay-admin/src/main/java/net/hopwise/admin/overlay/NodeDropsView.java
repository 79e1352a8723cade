package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.node.NodeCounters;
import net.hopwise.overlay.wire.DropReason;

/**
 * The datagrams one local node dropped, by reason: every drop is counted under exactly one, so the
 * reasons add up to the total.
 */
public record NodeDropsView(
        String node,
        @Schema(description = "This service's own node") boolean self,
        @Schema(description = "Drops under every reason together") long total,
        @Schema(description = "Drops by reason, every reason listed (0 where none), in the core's order")
                Map<DropReason, Long> reasons) {

    /** The drops of every local node, the service's own first. */
    static List<NodeDropsView> of(LocalNodes nodes) {
        return nodes.selfFirst().stream().map(n -> of(n, n == nodes.self())).toList();
    }

    static NodeDropsView of(OverlayNode node, boolean self) {
        NodeCounters c = node.counters();
        Map<DropReason, Long> reasons = new EnumMap<>(DropReason.class);
        long total = 0;
        for (DropReason r : DropReason.values()) {
            long n = c.drops(r);
            reasons.put(r, n);
            total += n;
        }
        return new NodeDropsView(node.name(), self, total, reasons);
    }
}

package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.wire.DropReason;

/**
 * The overlay as the service's node knows it from its link-state database, with every link's cost
 * in each direction under every metric.
 */
public record TopologyView(
        @Schema(description = "The service's own node, whose database this is") String self,
        @Schema(description = "True when this is the in-process demo overlay") boolean demo,
        Instant time,
        List<Node> nodes,
        List<Link> links) {

    /** One node of the overlay. */
    public record Node(
            String name,
            @Schema(description = "64-bit node id, hex: the first 8 bytes of SHA-256 of the name") String id,
            @Schema(description = "This service's own node") boolean self,
            @Schema(description = "Run by this process: its links are measured here and can be impaired") boolean local,
            @Schema(description = "Reachable from the service's node under the hop-count metric") boolean reachable,
            @Schema(description = "Version of its advertisement held; null when none is held", nullable = true)
                    Long advertisementSequence,
            @Schema(description = "Age of that advertisement in seconds; null when none is held", nullable = true)
                    Double advertisementAgeSeconds,
            @Schema(description = "Links the node advertises") int advertisedLinks,
            @Schema(description = "UDP address of a local node; null for remote ones", nullable = true) String address,
            @Schema(description = "Datagrams a local node dropped, by reason, as /api/drops lists them; null for"
                    + " remote ones", nullable = true) Map<DropReason, Long> drops,
            @Schema(description = "Times a local node's timer ran more than a hello interval late: its thread was"
                    + " held, and a hold past the dead interval takes its links down though the peers are alive;"
                    + " null for remote ones", nullable = true) Long loopStalls,
            @Schema(description = "The longest of those holds in milliseconds, 0 if none; null for remote ones",
                    nullable = true) Double longestLoopStallMillis) {}

    /** One overlay link, undirected, with its cost in each direction. */
    public record Link(
            @Schema(description = "The link's id: the two names in order, joined by '~'") String id,
            String a,
            String b,
            LinkState state,
            @Schema(description = "At least one end is a local node") boolean local,
            List<Direction> directions) {}

    /** One direction of a link, costed from the advertisement of the node it starts at. */
    public record Direction(
            String from,
            String to,
            @Schema(description = "The 'from' node advertises this link") boolean advertised,
            @Schema(description = "Advertised one-way latency, ms", nullable = true) Double latencyMs,
            @Schema(description = "Advertised loss rate of packets sent this way, 0-1", nullable = true) Double lossRate,
            @Schema(description = "The link's cost under each routing metric (null where not advertised)")
                    Map<RoutingMetric, Double> costs) {}
}

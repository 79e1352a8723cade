package net.hopwise.admin.overlay;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import net.hopwise.overlay.routing.RoutingMetric;

/** Something that happened in the overlay, as the event stream and the event log carry it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OverlayEvent(
        @Schema(description = "Increasing number; the SSE event id, so a client can resume with Last-Event-ID")
                long id,
        Instant time,
        Type type,
        @Schema(description = "The node that reports it (for link events, the end that saw it)") String node,
        @Schema(description = "The other end of the link, for link and neighbour events") String peer,
        @Schema(description = "Destination of a rerouted route") String destination,
        RoutingMetric metric,
        @Schema(description = "The route before, empty when it was unreachable") List<String> oldPath,
        @Schema(description = "The route after, empty when it became unreachable") List<String> newPath,
        String detail) {

    /** The kinds of event. */
    public enum Type {
        /** A link came up: reported by a local end, or seen in the link-state database for remote links. */
        LINK_UP,
        LINK_DOWN,
        NEIGHBOUR_ADDED,
        NEIGHBOUR_REMOVED,
        /** A route of the service's node changed its path. */
        REROUTE,
        /** An impairment was set or cleared through the API. */
        IMPAIRMENT
    }
}

package net.hopwise.overlay.routing;

import java.util.List;

/** The body of one link-state update packet: several advertisements, aggregated. */
public record LinkStateUpdate(List<LinkStateAdvertisement> advertisements) {
    public LinkStateUpdate {
        advertisements = List.copyOf(advertisements);
    }
}

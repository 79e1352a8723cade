package net.hopwise.overlay.routing;

import java.util.List;
import java.util.Objects;
import net.hopwise.overlay.NodeId;

/** The body of one link-state ack packet: acknowledges advertisements, possibly from several updates. */
public record LinkStateAck(List<AckEntry> entries) {
    public LinkStateAck {
        entries = List.copyOf(entries);
    }

    /** Acknowledges the version {@code sequence} of {@code origin}'s advertisement, and every older one. */
    public record AckEntry(NodeId origin, long sequence) {
        public AckEntry {
            Objects.requireNonNull(origin, "origin");
            if (sequence < 0) {
                throw new IllegalArgumentException("sequence must be 0 or more: " + sequence);
            }
        }
    }
}

package net.hopwise.overlay.routing;

import java.util.List;
import java.util.Objects;
import net.hopwise.overlay.NodeId;

/** The body of one link-state extension ack packet: acknowledges extension records, possibly from several updates. */
public record ExtensionAck(List<Entry> entries) {
    public ExtensionAck {
        entries = List.copyOf(entries);
    }

    /** Acknowledges the version {@code sequence} of {@code origin}'s record of {@code kind}, and every older one. */
    public record Entry(NodeId origin, int kind, long sequence) {
        public Entry {
            Objects.requireNonNull(origin, "origin");
            ExtensionRecord.requireKind(kind);
            if (sequence < 0) {
                throw new IllegalArgumentException("sequence must be 0 or more: " + sequence);
            }
        }
    }
}

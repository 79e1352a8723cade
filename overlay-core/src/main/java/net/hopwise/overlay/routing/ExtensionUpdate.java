package net.hopwise.overlay.routing;

import java.util.List;

/** The body of one link-state extension packet: several origins' extension records, aggregated. */
public record ExtensionUpdate(List<ExtensionRecord> records) {
    public ExtensionUpdate {
        records = List.copyOf(records);
    }
}

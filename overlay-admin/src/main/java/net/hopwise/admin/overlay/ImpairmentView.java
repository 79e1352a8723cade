package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** The impairments on both directions of a link. */
public record ImpairmentView(String link, List<Direction> directions) {

    /** One direction's impairment and where it is applied. */
    public record Direction(
            String from,
            String to,
            @Schema(description = "The local node whose socket applies it") String appliedAt,
            @Schema(description = "OUTBOUND when applied by the sender, INBOUND when by the receiver")
                    String appliedTo,
            @Schema(description = "True when nothing is impaired") boolean none,
            @Schema(description = "Long-run loss rate of the loss model, 0-1") double lossRate,
            double delayMs,
            double jitterMs,
            @Schema(description = "Rate cap, kbit/s; 0 for none") double rateKbps,
            int queuePackets,
            double duplicateRate,
            double reorderRate,
            double reorderDelayMs,
            @Schema(description = "Readable summary, e.g. ImpairmentConfig[loss bernoulli(10%), delay 32ms]")
                    String description) {}
}

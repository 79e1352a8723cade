package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * An impairment to put on a link: what the link does to the datagrams crossing it. Unset fields
 * impair nothing; the request replaces whatever impairment the chosen directions had. The ranges
 * are the core's ({@code ImpairmentConfig}), which rejects a bad value with a message naming it.
 */
public record ImpairmentRequest(
        @Schema(description = "Which directions: BOTH (default), FORWARD (a to b as in the path) or REVERSE",
                nullable = true) Scope direction,
        @Schema(description = "Probability that a datagram is lost, 0-1", example = "0.05", nullable = true)
                Double lossRate,
        @Schema(description = "Extra one-way delay, ms (at most one hour)", example = "20", nullable = true)
                Double delayMs,
        @Schema(description = "Extra delay uniform in [0, jitter], ms; order is kept", nullable = true) Double jitterMs,
        @Schema(description = "Rate cap, kbit/s; 0 or unset for none", nullable = true) Long rateKbps,
        @Schema(description = "DropTail queue of the rate cap, packets", nullable = true) Integer queuePackets,
        @Schema(description = "Probability that a datagram is delivered twice, 0-1", nullable = true)
                Double duplicateRate,
        @Schema(description = "Probability that a datagram is held back so later ones overtake it, 0-1",
                nullable = true) Double reorderRate,
        @Schema(description = "How long a reordered datagram is held back, ms", nullable = true) Double reorderDelayMs) {

    /** The directions of a link a request applies to. */
    public enum Scope {
        BOTH,
        /** From the first node named in the path to the second. */
        FORWARD,
        /** From the second node named in the path to the first. */
        REVERSE
    }

    public Scope scope() {
        return direction == null ? Scope.BOTH : direction;
    }
}

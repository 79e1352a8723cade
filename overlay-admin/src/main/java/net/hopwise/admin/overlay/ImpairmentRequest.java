package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * An impairment to put on a link: what the link does to the datagrams crossing it. Unset fields
 * impair nothing; the request replaces whatever impairment the chosen directions had, so an empty
 * request clears them. Each bound is declared here, so the API rejects every bad field of a request
 * at once and the OpenAPI document states the ranges; the core's builder ({@code ImpairmentConfig})
 * still checks what involves two fields.
 */
@Schema(description = "An impairment; unset fields impair nothing, and {} clears the chosen directions."
        + " Fields not listed here are refused.")
public record ImpairmentRequest(
        @Schema(description = "Which directions: BOTH (default), FORWARD (a to b as in the path) or REVERSE",
                nullable = true) Scope direction,
        @Schema(description = "Probability that a datagram is lost, 0-1", example = "0.05", nullable = true)
                @DecimalMin("0") @DecimalMax("1") Double lossRate,
        @Schema(description = "Extra one-way delay, ms, 0-3600000 (one hour)", example = "20", nullable = true)
                @DecimalMin("0") @DecimalMax(MAX_MILLIS) Double delayMs,
        @Schema(description = "Extra delay uniform in [0, jitter], ms, 0-3600000; order is kept", nullable = true)
                @DecimalMin("0") @DecimalMax(MAX_MILLIS) Double jitterMs,
        @Schema(description = "Rate cap, kbit/s, an integer 0-10000000 (10 Gbit/s); 0 or unset for none",
                nullable = true)
                @Min(0) @Max(value = MAX_RATE_KBPS, message = "must be at most {value} kbit/s (10 Gbit/s): a"
                        + " faster cap limits nothing one node can send; was bit/s meant?") Long rateKbps,
        @Schema(description = "DropTail queue of the rate cap, packets, an integer 1-10000", nullable = true)
                @Min(1) @Max(value = MAX_QUEUE_PACKETS, message = "must be at most {value} packets: a deeper"
                        + " queue only adds memory and delay") Integer queuePackets,
        @Schema(description = "Probability that a datagram is delivered twice, 0-1", nullable = true)
                @DecimalMin("0") @DecimalMax("1") Double duplicateRate,
        @Schema(description = "Probability that a datagram is held back so later ones overtake it, 0-1;"
                + " needs reorderDelayMs", nullable = true)
                @DecimalMin("0") @DecimalMax("1") Double reorderRate,
        @Schema(description = "How long a reordered datagram is held back, ms, 0-3600000", nullable = true)
                @DecimalMin("0") @DecimalMax(MAX_MILLIS) Double reorderDelayMs) {

    /**
     * Largest rate cap, kbit/s: 10 Gbit/s is beyond what one node's UDP socket sends, so a larger cap
     * would limit nothing and is almost always bit/s written where kbit/s was asked for.
     */
    public static final long MAX_RATE_KBPS = 10_000_000L;

    /**
     * Deepest DropTail queue, packets: 10000 datagrams of at most 1200 bytes hold 12 MB per direction,
     * a hundred times the core's default of 100; deeper would only turn a typo into memory and delay.
     */
    public static final int MAX_QUEUE_PACKETS = 10_000;

    /** The core's longest delay, jitter or reorder hold ({@code ImpairmentConfig.MAX_DURATION}), in ms. */
    public static final String MAX_MILLIS = "3600000";

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

package net.hopwise.examples.fairness;

import java.util.List;
import java.util.Locale;

/**
 * The token-bucket filter ({@code tc ... tbf}) that makes the bottleneck: its rate, its bucket
 * depth (how many bytes may leave back to back after a pause) and the bytes it queues before
 * dropping.
 *
 * @param rateBitsPerSecond the rate packets leave at, Ethernet header included
 * @param burstBytes the bucket depth; tbf also splits larger (segmentation-offload) packets to fit it
 * @param limitBytes the queue; a packet that finds it full is dropped
 */
record Bottleneck(long rateBitsPerSecond, int burstBytes, int limitBytes) {
    /** A full Ethernet frame on the veth: 1500 bytes of IP packet and a 14-byte header. */
    static final int FRAME_BYTES = 1514;
    /**
     * Ten full frames: a bucket this deep lets a kernel timer tick late without the link idling,
     * and is still small beside the queue, so the rate holds over any interval worth measuring.
     */
    static final int DEFAULT_BURST_BYTES = 10 * FRAME_BYTES;

    Bottleneck {
        if (rateBitsPerSecond < 8_000) {
            throw new IllegalArgumentException("rate must be at least 8 kbit/s, got " + rateBitsPerSecond);
        }
        if (burstBytes < FRAME_BYTES) {
            throw new IllegalArgumentException("burst must hold a full frame (" + FRAME_BYTES + " bytes), got "
                    + burstBytes);
        }
        if (limitBytes < FRAME_BYTES) {
            throw new IllegalArgumentException("queue limit must hold a full frame (" + FRAME_BYTES
                    + " bytes), got " + limitBytes);
        }
    }

    /** A bottleneck whose queue holds {@code bufferMillis} of traffic at its rate. */
    static Bottleneck of(double rateMbit, double bufferMillis, int burstBytes) {
        long rate = Math.round(rateMbit * 1e6);
        long limit = Math.round(rate / 8.0 * bufferMillis / 1000);
        if (limit > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a queue of " + bufferMillis + " ms at " + rateMbit
                    + " Mbit/s is too large");
        }
        return new Bottleneck(rate, burstBytes, (int) Math.max(limit, FRAME_BYTES));
    }

    double rateMbit() {
        return rateBitsPerSecond / 1e6;
    }

    /** How long a full queue takes to drain. */
    double bufferMillis() {
        return limitBytes * 8.0 / rateBitsPerSecond * 1000;
    }

    /** Full-size frames the queue holds. */
    int limitFrames() {
        return limitBytes / FRAME_BYTES;
    }

    /** The arguments after {@code tc qdisc replace dev X root tbf}. */
    List<String> tcArguments() {
        return List.of("rate", rateBitsPerSecond + "bit", "burst", Integer.toString(burstBytes), "limit",
                Integer.toString(limitBytes));
    }

    /** 20 rather than 20.0, 12.5 as it is. */
    static String plain(double value) {
        return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "tbf rate %s Mbit/s, burst %d B, limit %d B (%.0f ms, %d full frames)",
                plain(rateMbit()), burstBytes, limitBytes, bufferMillis(), limitFrames());
    }
}

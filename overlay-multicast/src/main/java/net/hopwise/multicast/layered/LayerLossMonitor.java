package net.hopwise.multicast.layered;

import java.util.Arrays;

/**
 * Loss from gaps in each layer's sequence numbers, over a sliding window of adaptation intervals:
 * {@code l = nloss / (npkts + nloss)}, as the thesis's trace computes it. A layer's first packet
 * after it is joined only sets where its sequence stands, so the gap before a join is not loss;
 * a packet older than the one expected (reordered or duplicated) counts as received and fills no gap.
 */
final class LayerLossMonitor {
    private final long[] expected;
    private final boolean[] synced;
    private final long[] packets;
    private final long[] losses;
    private int bucket;
    private long lastEventNanos = Long.MIN_VALUE;

    /** @param buckets intervals in the window */
    LayerLossMonitor(int layers, int buckets) {
        this.expected = new long[layers];
        this.synced = new boolean[layers];
        this.packets = new long[Math.max(1, buckets)];
        this.losses = new long[Math.max(1, buckets)];
    }

    /**
     * @param eventNanos with a value > 0, losses less than this long after the start of the last
     *     loss event count as that event (TFRC's loss events, one round trip long), not one each
     */
    void onPacket(int layer, long sequence, long nowNanos, long eventNanos) {
        packets[bucket]++;
        if (!synced[layer]) {
            synced[layer] = true;
            expected[layer] = (sequence + 1) & 0xFFFF_FFFFL;
            return;
        }
        long gap = (sequence - expected[layer]) & 0xFFFF_FFFFL;
        if (gap < 0x8000_0000L) {
            if (gap > 0 && eventNanos > 0) {
                if (lastEventNanos == Long.MIN_VALUE || nowNanos - lastEventNanos >= eventNanos) {
                    lastEventNanos = nowNanos;
                    losses[bucket]++;
                }
            } else {
                losses[bucket] += gap;
            }
            expected[layer] = (sequence + 1) & 0xFFFF_FFFFL;
        }
    }

    /** The layer was left (or is about to be joined): its next packet starts afresh. */
    void forget(int layer) {
        synced[layer] = false;
    }

    /** An interval ended: the oldest bucket leaves the window. */
    void rotate() {
        bucket = (bucket + 1) % packets.length;
        packets[bucket] = 0;
        losses[bucket] = 0;
    }

    long packets() {
        return Arrays.stream(packets).sum();
    }

    long losses() {
        return Arrays.stream(losses).sum();
    }

    double rate() {
        long lost = losses();
        long total = packets() + lost;
        return total == 0 ? 0 : (double) lost / total;
    }
}

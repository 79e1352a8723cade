package net.hopwise.multicast.layered;

/**
 * The receiver's packet-bunch bandwidth probe (Paxson's bunches, Keshav's pairs for B = 2): a
 * bunch starts at a packet with the first-packet flag and counts only if its B packets arrive one
 * after another, in sequence on one layer; then {@code R'_pp = 8 M (B - 1) / (t_last - t_first)}.
 * Any other arrival in between (a gap in the sequence, another layer's packet) aborts the bunch:
 * its dispersion no longer measures the bottleneck alone.
 */
final class BunchProbe {
    private int layer = -1;
    private long nextSequence;
    private int seen;
    private int length;
    private long firstNanos;

    /**
     * @return the sample in bits per second (+infinity for bunches that arrived with no spacing at
     *     all: an unconstrained path), or NaN when this arrival completes no bunch
     */
    double onPacket(LayeredPacket p, int packetBytes, long arrivalNanos) {
        if (p.firstOfBunch()) {
            layer = p.layer();
            nextSequence = (p.sequence() + 1) & 0xFFFF_FFFFL;
            seen = 1;
            length = p.bunchLength();
            firstNanos = arrivalNanos;
            return Double.NaN;
        }
        if (layer != p.layer() || p.sequence() != nextSequence || seen == 0) {
            seen = 0;
            layer = -1;
            return Double.NaN;
        }
        seen++;
        nextSequence = (nextSequence + 1) & 0xFFFF_FFFFL;
        if (seen < length) {
            return Double.NaN;
        }
        seen = 0;
        layer = -1;
        long gap = arrivalNanos - firstNanos;
        if (gap < 0) {
            return Double.NaN;
        }
        return gap == 0 ? Double.POSITIVE_INFINITY : 8.0 * packetBytes * (length - 1) * 1e9 / gap;
    }
}

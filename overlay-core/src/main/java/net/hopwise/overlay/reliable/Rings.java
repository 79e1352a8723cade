package net.hopwise.overlay.reliable;

/**
 * Ring buffers indexed by sequence number ({@code seq & mask}) that grow: the links' and sessions'
 * slot arrays start small and double when a flight or a buffer needs them.
 */
public final class Rings {
    private Rings() {}

    /**
     * Copies the entries of sequence numbers {@code from} (inclusive) to {@code to} (exclusive) from
     * one ring array to another of the same type, each indexed by its own mask; at most a few
     * {@link System#arraycopy} calls, whatever the array's element type.
     */
    public static void copy(Object src, int srcMask, Object dst, int dstMask, long from, long to) {
        long seq = from;
        while (seq < to) {
            int s = (int) (seq & srcMask);
            int d = (int) (seq & dstMask);
            int n = (int) Math.min(to - seq, Math.min(srcMask + 1 - s, dstMask + 1 - d));
            System.arraycopy(src, s, dst, d, n);
            seq += n;
        }
    }
}

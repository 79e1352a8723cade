package net.hopwise.overlay.reliable;

import java.lang.reflect.Array;

/**
 * Ring buffers indexed by sequence number ({@code seq & mask}) that grow: the links' and sessions'
 * slot arrays start at {@link #INITIAL_SLOTS} and double when a flight or a buffer needs them, so
 * that idle and thin links and sessions cost little memory.
 */
public final class Rings {
    /** Slots a ring starts with; a power of two. */
    public static final int INITIAL_SLOTS = 64;

    private Rings() {}

    /**
     * A ring array of {@code size} slots, of the same element type as {@code ring}, holding the
     * entries of sequence numbers {@code from} (inclusive) to {@code to} (exclusive) at their slots
     * under the new size's mask.
     */
    @SuppressWarnings("unchecked")
    public static <A> A grown(A ring, int mask, int size, long from, long to) {
        A bigger = (A) Array.newInstance(ring.getClass().getComponentType(), size);
        copy(ring, mask, bigger, size - 1, from, to);
        return bigger;
    }

    /**
     * Copies the entries of sequence numbers {@code from} to {@code to} from one ring array to
     * another of the same type, each indexed by its own mask: at most a few {@link System#arraycopy}
     * calls, whatever the element type.
     */
    static void copy(Object src, int srcMask, Object dst, int dstMask, long from, long to) {
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

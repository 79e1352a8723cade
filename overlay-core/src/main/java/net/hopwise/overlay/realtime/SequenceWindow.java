package net.hopwise.overlay.realtime;

/**
 * Which sequence numbers of a stream have arrived, over a window below the highest one seen: the
 * basis of gap detection and duplicate suppression on links and flows.
 *
 * <p>Sequence numbers travel as 32 bits and are widened here to the 64-bit value nearest the highest
 * seen, so a stream may wrap around without a hiccup.
 */
public final class SequenceWindow {
    /** {@link #accept} result: a number below the highest that had not arrived yet. */
    public static final long FILLED = -1;
    /** {@link #accept} result: a number that had arrived already. */
    public static final long DUPLICATE = -2;
    /** {@link #accept} result: a number too far below the highest to tell; treat as a duplicate. */
    public static final long STALE = -3;

    private final int size;
    private final long[] bits;
    private long highest = -1;

    /** @param size a power of two, at least 64 */
    public SequenceWindow(int size) {
        if (size < 64 || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("window size must be a power of two of at least 64, got " + size);
        }
        this.size = size;
        this.bits = new long[size / 64];
    }

    /** The highest number seen, or -1 before the first. */
    public long highest() {
        return highest;
    }

    public boolean isEmpty() {
        return highest < 0;
    }

    /** Widens a 32-bit wire value to the 64-bit number nearest the highest seen. */
    public long unwrap(long wire) {
        long w = wire & 0xFFFF_FFFFL;
        if (highest < 0) {
            return w;
        }
        long candidate = (highest & ~0xFFFF_FFFFL) | w;
        if (candidate - highest > 0x8000_0000L && candidate >= 0x1_0000_0000L) {
            candidate -= 0x1_0000_0000L;
        } else if (highest - candidate > 0x8000_0000L) {
            candidate += 0x1_0000_0000L;
        }
        return candidate;
    }

    /**
     * Records an arrival.
     *
     * @return the number of sequence numbers skipped (0 for the next in order) when {@code seq} is a
     *     new highest, otherwise {@link #FILLED}, {@link #DUPLICATE} or {@link #STALE}
     */
    public long accept(long seq) {
        if (highest < 0) {
            highest = seq;
            set(seq);
            return 0;
        }
        if (seq > highest) {
            long skipped = seq - highest - 1;
            if (seq - highest >= size) {
                java.util.Arrays.fill(bits, 0);
            } else {
                for (long s = highest + 1; s < seq; s++) {
                    clear(s);
                }
            }
            highest = seq;
            set(seq);
            return skipped;
        }
        if (highest - seq >= size) {
            return STALE;
        }
        if (isSet(seq)) {
            return DUPLICATE;
        }
        set(seq);
        return FILLED;
    }

    /** Forgets everything, as for a stream that restarted. */
    public void reset() {
        java.util.Arrays.fill(bits, 0);
        highest = -1;
    }

    private int index(long seq) {
        return (int) (seq & (size - 1));
    }

    private void set(long seq) {
        int i = index(seq);
        bits[i >>> 6] |= 1L << (i & 63);
    }

    private void clear(long seq) {
        int i = index(seq);
        bits[i >>> 6] &= ~(1L << (i & 63));
    }

    private boolean isSet(long seq) {
        int i = index(seq);
        return (bits[i >>> 6] & (1L << (i & 63))) != 0;
    }
}

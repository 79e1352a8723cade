package net.hopwise.overlay.security;

/**
 * Which packet counters of a session were already accepted: a sliding window of a bitmap in 64-bit
 * blocks, as in RFC 6479. The ring has one block more than the window covers, so that moving the
 * window forward clears whole blocks (no bit shifting) and a packet up to {@link #size()} counters
 * behind the newest is still judged exactly. Anything older is refused: it may be a replay, and a
 * packet that late is of no use to a link layer that measures and retransmits by itself.
 *
 * <p>{@link #check} before authenticating, {@link #accept} after: a forged packet must not move the
 * window.
 */
public final class ReplayWindow {
    private final long[] blocks;
    private final int mask;
    private long top = -1;

    /** @param bits how far behind the newest counter a packet may arrive; rounded up to blocks of 64 */
    public ReplayWindow(int bits) {
        if (bits < 64 || bits > 1 << 20) {
            throw new IllegalArgumentException("a replay window is 64 to 2^20 bits, not " + bits);
        }
        int needed = (bits + 63) / 64 + 1;
        this.blocks = new long[Integer.highestOneBit(needed - 1) << 1]; // a power of two, for the mask
        this.mask = blocks.length - 1;
    }

    /** Counters behind the newest that are still judged exactly. */
    public long size() {
        return (long) (blocks.length - 1) * 64;
    }

    /** The newest counter accepted, or -1. */
    public long newest() {
        return top;
    }

    /** Whether {@code counter} may be accepted: not seen, and not too old. Counters are non-negative. */
    public boolean check(long counter) {
        if (counter < 0) {
            return false;
        }
        if (counter > top) {
            return true;
        }
        if (top - counter >= size()) {
            return false;
        }
        return (blocks[(int) (counter >>> 6) & mask] & (1L << (counter & 63))) == 0;
    }

    /** Records an authenticated counter; false (and nothing changed) when {@link #check} refuses it. */
    public boolean accept(long counter) {
        if (!check(counter)) {
            return false;
        }
        if (counter > top) {
            long newBlock = counter >>> 6;
            long clear = top < 0 ? blocks.length : Math.min(newBlock - (top >>> 6), blocks.length);
            for (long i = 0; i < clear; i++) {
                blocks[(int) (newBlock - i) & mask] = 0;
            }
            top = counter;
        }
        blocks[(int) (counter >>> 6) & mask] |= 1L << (counter & 63);
        return true;
    }
}

package net.hopwise.voip.relay;

import java.util.BitSet;
import java.util.function.IntPredicate;

/**
 * The relay's media ports facing its phones: even RTP ports with RTCP on the next odd one (RFC 3550
 * section 11), from a configured range, handed out round-robin so that a port just released is not
 * reused at once (late packets of the old call would land in the new one). A pair that cannot be
 * bound (another program holds it) is skipped for this turn. Every pair taken is given back; the
 * pool is full again when no call holds media.
 */
public final class PortPool {
    private final int first;
    private final int pairs;
    private final BitSet used;
    private int next;

    /** RTP ports {@code min} (rounded up to even) to {@code max}, each with its RTCP port above it. */
    public PortPool(int min, int max) {
        int start = (min + 1) & ~1;
        if (min < 1024 || max > 65535 || max - 1 < start) {
            throw new IllegalArgumentException("media port range " + min + "-" + max + " holds no RTP/RTCP pair above 1023");
        }
        this.first = start;
        this.pairs = (max - start + 1) / 2;
        this.used = new BitSet(pairs);
    }

    /**
     * Takes a free pair whose sockets {@code bind} manages to open (true); -1 when every free pair
     * was tried.
     */
    public int acquire(IntPredicate bind) {
        for (int tried = 0; tried < pairs; tried++) {
            int i = (next + tried) % pairs;
            if (used.get(i)) {
                continue;
            }
            int port = first + 2 * i;
            if (bind.test(port)) {
                used.set(i);
                next = (i + 1) % pairs;
                return port;
            }
        }
        return -1;
    }

    /** The RTP port the next {@link #acquire} tries first; -1 when every pair is taken. */
    public int peek() {
        for (int tried = 0; tried < pairs; tried++) {
            int i = (next + tried) % pairs;
            if (!used.get(i)) {
                return first + 2 * i;
            }
        }
        return -1;
    }

    public void release(int rtpPort) {
        int i = (rtpPort - first) / 2;
        if (rtpPort < first || (rtpPort - first) % 2 != 0 || i >= pairs || !used.get(i)) {
            throw new IllegalArgumentException("port " + rtpPort + " was not taken from this pool");
        }
        used.clear(i);
    }

    public int capacity() {
        return pairs;
    }

    public int available() {
        return pairs - used.cardinality();
    }
}

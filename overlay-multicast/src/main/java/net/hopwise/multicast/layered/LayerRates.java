package net.hopwise.multicast.layered;

import java.util.Arrays;

/**
 * The constant rates of a session's cumulative layers, in bits per second. A receiver at level
 * {@code i} holds layers 0..i and receives {@link #cumulative(int) R_i}, the sum of their rates.
 * Immutable.
 */
public final class LayerRates {
    private final long[] rates;
    private final long[] cumulative;

    private LayerRates(long[] rates) {
        if (rates.length == 0) {
            throw new IllegalArgumentException("a session has at least one layer");
        }
        this.rates = rates.clone();
        this.cumulative = new long[rates.length];
        long sum = 0;
        for (int i = 0; i < rates.length; i++) {
            if (rates[i] <= 0 || rates[i] > 0xFFFF_FFFFL) {
                throw new IllegalArgumentException("layer " + i + " rate must be in 1..2^32-1 bit/s, got " + rates[i]);
            }
            sum += rates[i];
            cumulative[i] = sum;
        }
    }

    /** Any list of rates, base layer first. */
    public static LayerRates of(long... bitsPerSecond) {
        return new LayerRates(bitsPerSecond);
    }

    /** {@code count} layers of {@code bitsPerSecond} each (ERA's experiments: 100 of 20 Kbit/s). */
    public static LayerRates equal(int count, long bitsPerSecond) {
        long[] r = new long[requireCount(count)];
        Arrays.fill(r, bitsPerSecond);
        return new LayerRates(r);
    }

    /** RLC's scheme: cumulative rate doubles with each layer, {@code R_i = 2^i R_0}. */
    public static LayerRates doubling(int count, long baseBitsPerSecond) {
        return multiplicative(count, baseBitsPerSecond, 2.0);
    }

    /** FLID-DL's scheme: cumulative rate {@code R_i = C^i R_0} (C = 1.3 there). */
    public static LayerRates multiplicative(int count, long baseBitsPerSecond, double factor) {
        if (!(factor > 1)) {
            throw new IllegalArgumentException("factor must be > 1, got " + factor);
        }
        long[] r = new long[requireCount(count)];
        long previous = 0;
        for (int i = 0; i < r.length; i++) {
            long cum = Math.round(baseBitsPerSecond * Math.pow(factor, i));
            r[i] = cum - previous;
            previous = cum;
        }
        return new LayerRates(r);
    }

    private static int requireCount(int count) {
        if (count < 1 || count > SessionAnnouncement.MAX_LAYERS) {
            throw new IllegalArgumentException("layer count must be in 1.." + SessionAnnouncement.MAX_LAYERS + ", got " + count);
        }
        return count;
    }

    public int count() {
        return rates.length;
    }

    /** L_j: the rate of layer {@code j} alone. */
    public long rate(int layer) {
        return rates[layer];
    }

    /** R_i = sum of L_0..L_i (Eq. 5-1). */
    public long cumulative(int level) {
        return cumulative[level];
    }

    /** The rates, base layer first (a copy). */
    public long[] toArray() {
        return rates.clone();
    }

    /**
     * The level a target rate allows: the highest {@code i} with {@code R_i} strictly below
     * round(target) when {@code strictlyBelow} (the ns-2 code of ERA and PLM), or with {@code R_i <=
     * target} otherwise (the thesis's text); -1 when not even the base layer fits.
     */
    public int levelFor(double targetBitsPerSecond, boolean strictlyBelow) {
        if (Double.isNaN(targetBitsPerSecond)) {
            return -1;
        }
        double bound = strictlyBelow ? Math.rint(targetBitsPerSecond) : targetBitsPerSecond;
        int lo = 0;
        int hi = cumulative.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            boolean fits = strictlyBelow ? cumulative[mid] < bound : cumulative[mid] <= bound;
            if (fits) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LayerRates other && Arrays.equals(rates, other.rates);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(rates);
    }

    @Override
    public String toString() {
        return rates.length + " layers, " + cumulative[rates.length - 1] + " bit/s in all";
    }
}

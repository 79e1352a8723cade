package net.hopwise.examples.fairness;

/**
 * Jain's fairness index of n throughputs, J = (Σx)² / (n Σx²): 1 when every flow gets the same,
 * 1/n when one flow takes everything (Jain, Chiu and Hawe, DEC-TR-301, 1984).
 */
final class JainIndex {
    private JainIndex() {}

    /**
     * @throws IllegalArgumentException with no throughput, a negative one or one that is not finite
     * @return the index in [1/n, 1]; NaN when every throughput is zero (nothing to share)
     */
    static double of(double... throughputs) {
        if (throughputs.length == 0) {
            throw new IllegalArgumentException("Jain's index needs at least one throughput");
        }
        double sum = 0;
        double squares = 0;
        for (double x : throughputs) {
            if (!(x >= 0) || Double.isInfinite(x)) {
                throw new IllegalArgumentException("throughputs must be finite and non-negative, got " + x);
            }
            sum += x;
            squares += x * x;
        }
        return squares == 0 ? Double.NaN : sum * sum / (throughputs.length * squares);
    }
}

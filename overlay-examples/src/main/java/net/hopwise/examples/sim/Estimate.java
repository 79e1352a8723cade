package net.hopwise.examples.sim;

import java.util.Locale;

/**
 * The mean of one measure over several seeds with its 95% confidence interval (Student's t, since
 * a handful of seeds is far from normal-theory sample sizes).
 */
record Estimate(double mean, double halfWidth, int samples) {
    /** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042};

    static Estimate of(double[] values) {
        int n = values.length;
        double mean = 0;
        for (double v : values) {
            mean += v;
        }
        mean /= n;
        if (n < 2) {
            return new Estimate(mean, Double.NaN, n);
        }
        double ss = 0;
        for (double v : values) {
            ss += (v - mean) * (v - mean);
        }
        double sd = Math.sqrt(ss / (n - 1));
        double t = n - 1 <= T975.length ? T975[n - 2] : 1.960;
        return new Estimate(mean, t * sd / Math.sqrt(n), n);
    }

    String format(int decimals) {
        String f = "%." + decimals + "f";
        if (Double.isNaN(halfWidth)) {
            return String.format(Locale.ROOT, f, mean);
        }
        return String.format(Locale.ROOT, f + " ± " + f, mean, halfWidth);
    }
}

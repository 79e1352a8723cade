package net.hopwise.multicast;

/**
 * One client's purse under Cost-Benefit flow control (Danilov 2004, section 4.2.3): a token bucket of
 * dollars filled by a salary every salary period, the admission of each packet against it, and the
 * TCP-like adaptation of the salary period. Sans-IO: time and the random draw are handed in.
 *
 * <p>Two readings the thesis leaves open are settled here. "Afford" is the budget: a packet goes only
 * when its cost is within the tokens held (and, as the theory asks, within the benefit of Eq 4.9, which
 * is at least the tokens while the savings cap is C_max); a test against the benefit alone would let a
 * client with an empty purse send free packets on idle links, which the fee exists to prevent. And a
 * client blocked through a whole period without buying anything is judged by the cost it was blocked
 * on, since that is what it "tried to buy".
 */
final class ClientBudget {
    enum Decision {
        /** Bought: send it now (the cost was taken from the budget). */
        SEND,
        /** Affordable, but the 1/C_p draw holds it back: try again later, nothing was charged. */
        HOLD,
        /** Not affordable: the client is blocked until a salary or cheaper links. */
        BLOCKED
    }

    private final CostBenefitConfig config;
    private double tokens;
    private long periodNanos;
    private long nextSalaryNanos;
    private boolean blocked;
    private boolean bought;
    private double maxBought;
    private double maxBlockedOn;

    /** A new client gets its first salary at once, so that it can send before its first period ends. */
    ClientBudget(CostBenefitConfig config, long nowNanos) {
        this.config = config;
        this.tokens = Math.min(config.savings(), config.salary());
        this.periodNanos = config.initialSalaryPeriodNanos();
        this.nextSalaryNanos = nowNanos + periodNanos;
    }

    /**
     * Decides on one packet of cost {@code packetCost} (fee included).
     *
     * @param draw a uniform draw in [0, 1) for the 1/C_p randomisation
     */
    Decision offer(double packetCost, double draw) {
        if (packetCost > tokens || packetCost > config.benefit(tokens)) {
            blocked = true;
            maxBlockedOn = Math.max(maxBlockedOn, packetCost);
            return Decision.BLOCKED;
        }
        if (config.randomised() && draw >= 1 / packetCost) {
            return Decision.HOLD;
        }
        tokens -= packetCost;
        bought = true;
        maxBought = Math.max(maxBought, packetCost);
        return Decision.SEND;
    }

    /**
     * Pays the salaries due by {@code nowNanos}, adapting the period at each (Eq 4.10-4.12).
     *
     * @return whether any salary was paid
     */
    boolean paySalaries(long nowNanos) {
        boolean paid = false;
        while (nowNanos >= nextSalaryNanos) {
            paid = true;
            tokens = Math.min(config.savings(), tokens + config.salary());
            if (blocked) {
                double cost = bought ? maxBought : maxBlockedOn;
                long t = periodNanos;
                if (cost < config.threshold()) {
                    long update = config.fastUpdateNanos();
                    t = Math.max(config.minSalaryPeriodNanos(), (long) ((double) t * update / (t + update)));
                } else {
                    t = Math.min(config.maxSalaryPeriodNanos(), 2 * t);
                }
                periodNanos = t;
            }
            blocked = false;
            bought = false;
            maxBought = 0;
            maxBlockedOn = 0;
            nextSalaryNanos += periodNanos;
        }
        return paid;
    }

    double tokens() {
        return tokens;
    }

    long periodNanos() {
        return periodNanos;
    }

    long nextSalaryNanos() {
        return nextSalaryNanos;
    }

    boolean blocked() {
        return blocked;
    }
}

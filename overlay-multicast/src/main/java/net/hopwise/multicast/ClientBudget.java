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
 * client blocked through a whole period without buying anything compares "the most expensive packet
 * it sent" (none: 0) with H, so its period shortens: judging it by the cost it was blocked on instead
 * doubles the period of every client that waits out a congestion, period after period, until the
 * clients hold periods of many seconds and leave the links idle once the congestion clears (in S1 that
 * reading lost a fifth of the throughput).
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
     * <p>The randomisation is one draw per packet: a packet that loses it waits until the hold ends (a
     * cost update, or the short timeout) and then goes if it is still affordable, without drawing
     * again. The thesis says the client "delays the packet" until one of those events and that the
     * delay leaves admission control unchanged; drawing again at each event would make the draw a rate
     * limit of its own, and a client held by it never runs out of budget, is never blocked and so
     * never adapts its period (in S1 that left a few clients with periods of milliseconds and the
     * rest starved at the longest period).
     *
     * @param draw a uniform draw in [0, 1) for the 1/C_p randomisation; 0 for a packet that already
     *     had its draw
     */
    Decision offer(double packetCost, double draw) {
        if (packetCost > tokens || packetCost > config.benefit(tokens)) {
            blocked = true;
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
                double cost = bought ? maxBought : 0;
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

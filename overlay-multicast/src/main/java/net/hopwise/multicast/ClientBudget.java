package net.hopwise.multicast;

import java.util.function.DoubleSupplier;

/**
 * One client's purse under Cost-Benefit flow control (Danilov 2004, section 4.2.3): a token bucket of
 * dollars filled by a salary every salary period, the admission of each packet against it, and the
 * TCP-like adaptation of the salary period. Sans-IO: time and the random draw are handed in.
 *
 * <p>Two readings the thesis leaves open are settled here. "Afford" is the budget: a packet goes only
 * when its cost is within the tokens held (and, as the theory asks, within the benefit of Eq 4.9, which
 * is at least the tokens while the savings cap is C_max); a test against the benefit alone would let a
 * client with an empty purse send free packets on idle links, which the fee exists to prevent. And a
 * client blocked through a whole period without buying anything is judged by the cost it was refused
 * at: the thesis compares "the most expensive packet it sent" with H because a client above H "tried to
 * buy expensive packets", and a client that could not buy a single one with a fresh salary in hand
 * tried the dearest of all. Counting its purchases as 0 instead shortens the period of every client
 * that waits out a congestion, so that they all hold short periods and full purses when the cost dips
 * and send at once: the buffer peaks the thesis's rule exists to prevent.
 *
 * <p>Three additions keep the rule working where the thesis's experiments did not take it: periods
 * adapt at most once per T_update (see {@code paySalaries}), packets bought within
 * {@link CostBenefitConfig#halvingSettleNanos()} of a halving do not count towards the next, and each
 * period is drawn around its length (see {@code spaced}).
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
    private final DoubleSupplier jitter;
    private double tokens;
    private long periodNanos;
    private long nextSalaryNanos;
    private boolean blocked;
    private boolean bought;
    private double maxBought;
    /** Whether a packet bought since the last adaptation counts towards the next (see staleUntilNanos). */
    private boolean judged;
    private double refusedCost;
    /** Whether its latest attempt was refused at a cost beyond what full savings could buy. */
    private boolean pricedOut;
    /** Whether its period is past the ordinary bound because it was priced out. */
    private boolean extended;
    /** The salary at which the period was last adapted. */
    private long adaptedNanos;
    /** Until when the costs the client pays still reflect its rate before its last halving. */
    private long staleUntilNanos = Long.MIN_VALUE;
    /** The latest instant handed in. */
    private long nowNanos;

    /** A client whose salaries come exactly one period apart: for checking the rules one by one. */
    ClientBudget(CostBenefitConfig config, long nowNanos) {
        this(config, nowNanos, () -> 0.5);
    }

    /**
     * A new client gets its first salary at once, so that it can send before its first period ends.
     *
     * @param jitter uniform draws in [0, 1) that place each salary between half a period and one and a
     *     half after the last
     */
    ClientBudget(CostBenefitConfig config, long nowNanos, DoubleSupplier jitter) {
        this.config = config;
        this.jitter = jitter;
        this.tokens = Math.min(config.savings(), config.salary());
        this.periodNanos = config.initialSalaryPeriodNanos();
        this.nextSalaryNanos = nowNanos + spaced(periodNanos);
        this.adaptedNanos = nowNanos;
        this.nowNanos = nowNanos;
    }

    /**
     * Decides on one packet of cost {@code packetCost} (fee included).
     *
     * <p>The randomisation draws at each attempt: a packet that loses the draw waits for a cost update
     * or the short timeout and then draws again. The thesis sends an affordable packet "with
     * probability 1/C_p" and otherwise delays it until one of those events; a delayed packet that went
     * without a new draw made the draw a delay of one update at most, so that when the cost dipped
     * under the clients' bids every client still bought at once, only a little later (200 clients on
     * one link: peaks of 290 packets with it as without it; drawing again, 160). A held client is
     * not blocked and keeps its period; the bound on the period keeps those still blocked from falling
     * far behind.
     *
     * @param draw a uniform draw in [0, 1) for the 1/C_p randomisation
     */
    Decision offer(double packetCost, double draw) {
        if (packetCost > tokens || packetCost > config.benefit(tokens)) {
            blocked = true;
            refusedCost = packetCost;
            pricedOut = packetCost > config.dearestAffordable();
            return Decision.BLOCKED;
        }
        if (config.randomised() && draw >= 1 / packetCost) {
            return Decision.HOLD;
        }
        tokens -= packetCost;
        bought = true;
        pricedOut = false;
        if (nowNanos >= staleUntilNanos) {
            judged = true;
            maxBought = Math.max(maxBought, packetCost);
        }
        return Decision.SEND;
    }

    /**
     * Pays the salaries due by {@code nowNanos}, adapting the period (Eq 4.10-4.12) at each salary that
     * comes at least T_update after the last adaptation.
     *
     * <p>The thesis adapts at every salary, and its clients' periods are of a second or so, far longer
     * than T_update, the interval at which the costs they judge by are renewed. A client alone on a
     * link needs periods of a few milliseconds: adapting at each of them judges the same stale cost
     * many times over, so that it doubles its period five times before the cost has moved, then adds a
     * salary per T_update five times over on an empty buffer, and the link swings between a burst and
     * silence (in the thesis's chain, half its capacity unused). Adapting at most once per T_update, on
     * what the client met since the last adaptation, is the rule as the thesis's clients saw it, as TCP
     * halves its window at most once per round trip.
     *
     * @return whether any salary was paid
     */
    boolean paySalaries(long nowNanos) {
        this.nowNanos = Math.max(this.nowNanos, nowNanos);
        boolean paid = false;
        while (nowNanos >= nextSalaryNanos) {
            paid = true;
            tokens = Math.min(config.savings(), tokens + config.salary());
            if (nextSalaryNanos - adaptedNanos >= config.fastUpdateNanos()) {
                adapt();
                adaptedNanos = nextSalaryNanos;
            }
            nextSalaryNanos += spaced(periodNanos);
        }
        return paid;
    }

    /**
     * A period drawn around {@code period}, its mean. Clients whose periods double together keep their
     * salaries within the one short period they had before the first doubling, however long their
     * periods grow: after a congestion, a hundred clients' salaries all fall within some 50 ms, on a
     * link idle by then, at the fee, where the 1/C_p draw holds nothing back; they spend them at once
     * and the buffer overflows. The draw spreads the salaries again at each period.
     */
    private long spaced(long period) {
        return Math.max(1, (long) (period * (0.5 + jitter.getAsDouble())));
    }

    private void adapt() {
        // Bought only at costs that predate its last halving: no news yet, the period stays.
        if (blocked && (judged || !bought)) {
            double cost = judged ? maxBought : refusedCost;
            long t = periodNanos;
            if (cost < config.threshold()) {
                long update = config.fastUpdateNanos();
                t = Math.max(config.minSalaryPeriodNanos(), (long) ((double) t * update / (t + update)));
                extended = false;
            } else if (pricedOut) {
                t = Math.min(config.pricedOutSalaryPeriodNanos(), 2 * t);
                extended = t > config.maxSalaryPeriodNanos();
                staleUntilNanos = nextSalaryNanos + config.halvingSettleNanos();
            } else if (!extended) {
                t = Math.min(config.maxSalaryPeriodNanos(), 2 * t);
                staleUntilNanos = nextSalaryNanos + config.halvingSettleNanos();
            }
            // An extended period within the purse's reach again is held: back at the bound, the clients'
            // income would again exceed what the link can carry at any price they can pay.
            periodNanos = t;
        }
        blocked = false;
        bought = false;
        judged = false;
        maxBought = 0;
        refusedCost = 0;
        pricedOut = false;
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

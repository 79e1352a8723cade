package net.hopwise.multicast;

import java.time.Duration;
import java.util.Objects;

/**
 * The parameters of Cost-Benefit global flow control (Danilov 2004, chapter 4), each with the thesis's
 * value as its default. Build with {@link #builder()}; {@link #thesis()} is the thesis's table.
 *
 * <p>Link cost from the average queue {@code n} of a link's buffer: {@code C_l(n) = C_max (e^(n/M) - 1)
 * / (e - 1)}; packet cost {@code C_p = fee + sum of C_l over the packet's tree}; a client's budget is a
 * token bucket of {@code savings} dollars refilled by {@code salary} every salary period, and a packet
 * goes when {@code C_p} is within the budget, then with probability {@code 1 / C_p}.
 *
 * <p>About 400 lines, at the house's limit: one immutable configuration with its builder, each of
 * the thesis's parameters declared once with its reason and validated; split, a user would need two
 * builders for one mechanism.
 */
public final class CostBenefitConfig {
    /** $20: the prohibitive link cost, above any benefit a client can bid (thesis, S1-S4). */
    public static final double DEFAULT_MAX_LINK_COST = 20;
    /** 100 packets: the soft buffer limit per link of the thesis's simulations; at n = M a link costs C_max. */
    public static final int DEFAULT_SOFT_BUFFER_PACKETS = 100;
    /** $1 per packet: the processing fee that caps what a client sends between two updates on an idle network. */
    public static final double DEFAULT_FEE = 1;
    /** $10: the salary of the thesis's experiments, half the bucket, so two salaries fill it. */
    public static final double DEFAULT_SALARY = 10;
    /** $20 = C_max: the thesis's savings cap S, so a client that saved all it can bids the prohibitive cost. */
    public static final double DEFAULT_SAVINGS = DEFAULT_MAX_LINK_COST;
    /** 2: the thesis's threshold H, just above the fee, telling a blocked client on idle links from a congested one. */
    public static final double DEFAULT_THRESHOLD = 2;
    /** 1 s: the thesis's initial salary period. */
    public static final Duration DEFAULT_INITIAL_SALARY_PERIOD = Duration.ofSeconds(1);
    /** 50 ms: T_min, the update interval of links with a queue, and T_update of the salary's increase. */
    public static final Duration DEFAULT_FAST_UPDATE = Duration.ofMillis(50);
    /** 2.5 s: T_max, the update interval of links with an empty buffer (cost 0). */
    public static final Duration DEFAULT_SLOW_UPDATE = Duration.ofMillis(2500);
    /**
     * 5 ms [not in the thesis, which leaves it open]: how long a packet the 1/C_p draw held back waits
     * at most for another reason to try again; a tenth of T_min, short against the cost feedback.
     */
    public static final Duration DEFAULT_HOLD_TIMEOUT = Duration.ofMillis(5);
    /**
     * 1 ms [not in the thesis]: the shortest salary period, a floor on repeated increases (10,000
     * packets a second per client at the fee) that keeps the timer finite on idle fast links.
     */
    public static final Duration DEFAULT_MIN_SALARY_PERIOD = Duration.ofMillis(1);
    /**
     * 250 ms [not in the thesis, which sets no bound]: the longest salary period, reached from the
     * thesis's initial 1 s at the first adaptation. It leaves every client at least $40 a second, so
     * that clients of a shared bottleneck hold, together, more than its packets cost at a moderate
     * price and the price rations it, equally for all who pay the same; a longer bound lets the
     * halved clients fall below their share and the bottleneck goes to the few whose period an
     * increase cut to T_update, for seconds (S2: the 20 clients of a class 100% apart at a 30 s bound,
     * 15% at 1 s, 5% at 500 ms, 2% at 250 ms).
     */
    public static final Duration DEFAULT_MAX_SALARY_PERIOD = Duration.ofMillis(250);
    /**
     * 16 s [not in the thesis, which sets no bound]: the longest salary period of a client priced out of
     * its purse, refused a packet dearer than it could buy with full savings. The 250 ms bound leaves
     * every client $40 a second, and past about 100 clients on one 2 Mbit/s link that is more than the
     * link's packets cost even at the dearest price a purse can pay: the price can no longer ration it,
     * every client sits with a full purse until the buffer drains under the purse's reach and they all
     * buy at once (800 clients: the buffer swinging from 150 to the hard bound every 1.5 s). A priced-out
     * client's period keeps doubling past the bound, as the thesis's would, until the price is within
     * reach again; 16 s leaves 7,000 such clients enough together to keep a 2 Mbit/s link busy at $20.
     */
    public static final Duration DEFAULT_PRICED_OUT_SALARY_PERIOD = Duration.ofSeconds(16);
    /**
     * 200 ms [not in the thesis], four T_update: how long after a halving the costs a client pays still
     * reflect its rate before it, so that they do not halve it again: one interval for the average that
     * still spans the time before, one for the update carrying it, two for the buffer the old rate built
     * to drain. The thesis's clients, with periods of a second, never met it; a client alone on a link
     * halves every few tens of milliseconds and, judging stale costs, halved two or three times for one
     * congestion and left its link idle (the thesis's chain S3: 8.1 of 10 Mbit/s with one interval, 8.8
     * with two, 9.3 with four or eight).
     */
    public static final Duration DEFAULT_HALVING_SETTLE = Duration.ofMillis(200);
    /**
     * 400 packets [not in the thesis, whose buffers are soft]: the hard bound of a link's buffer, four
     * times M, above the 170 the thesis saw at 800 senders; past it a packet is dropped and counted.
     */
    public static final int DEFAULT_HARD_BUFFER_PACKETS = 400;
    /**
     * 20 packets [not in the thesis's text: ns-2's default TCP window, which its simulated links ran
     * with]: the most a link's channel has sent and not had acknowledged. Beyond the path's
     * bandwidth-delay product it is the link's reserve, which keeps the link busy while its clients
     * react to a price (the chain S3: a Vegas window's two to four packets left a lone client's link
     * idle after each halving, 9.37-9.47 of 10 Mbit/s; with this cap 9.56-9.59); within a 50-packet
     * queue at the link, so that it costs no loss. A link whose bandwidth-delay product exceeds it
     * (1094-byte packets: 10 Mbit/s at a round trip over 17 ms, 100 Mbit/s over 1.7 ms) carries at
     * most the cap a round trip: raise it there.
     */
    public static final int DEFAULT_LINK_WINDOW_PACKETS = 20;
    /**
     * On [not in the thesis, which floods every node's costs every T_max]: a node whose links all cost
     * 0, and advertised no other cost since its last T_max update, skips that update. Its receivers
     * already hold 0 for each of its links, explicitly or because they forgot the origin after three
     * T_max, and an unknown link costs 0, so no cost anyone computes changes. The last cost above 0 is
     * still followed by its 0 and by one T_max update repeating it, so a lost update is repaired as
     * before. What it saves is the flood itself: every idle node's update reaches every node and rides
     * across every link, the congested ones included (S4: the updates of 800 idle senders behind A took
     * 0.073 Mbit/s of the 2 Mbit/s A-B bottleneck, and the clients bought 1.899 Mbit/s of it; 1.988
     * without them).
     */
    public static final boolean DEFAULT_QUIET_WHEN_IDLE = true;

    private final double maxLinkCost;
    private final int softBufferPackets;
    private final double fee;
    private final double salary;
    private final double savings;
    private final double threshold;
    private final long initialSalaryPeriodNanos;
    private final long fastUpdateNanos;
    private final long slowUpdateNanos;
    private final long holdTimeoutNanos;
    private final long minSalaryPeriodNanos;
    private final long maxSalaryPeriodNanos;
    private final long pricedOutSalaryPeriodNanos;
    private final int hardBufferPackets;
    private final int linkWindowPackets;
    private final long halvingSettleNanos;
    private final boolean randomised;
    private final boolean quietWhenIdle;

    private CostBenefitConfig(Builder b) {
        maxLinkCost = positive("maxLinkCost", b.maxLinkCost);
        softBufferPackets = (int) positive("softBufferPackets", b.softBufferPackets);
        fee = positive("fee", b.fee);
        salary = positive("salary", b.salary);
        savings = positive("savings", b.savings);
        threshold = positive("threshold", b.threshold);
        initialSalaryPeriodNanos = nanos("initialSalaryPeriod", b.initialSalaryPeriod);
        fastUpdateNanos = nanos("fastUpdate", b.fastUpdate);
        slowUpdateNanos = nanos("slowUpdate", b.slowUpdate);
        holdTimeoutNanos = nanos("holdTimeout", b.holdTimeout);
        minSalaryPeriodNanos = nanos("minSalaryPeriod", b.minSalaryPeriod);
        maxSalaryPeriodNanos = nanos("maxSalaryPeriod", b.maxSalaryPeriod);
        // Never shorter than the ordinary bound: a longer maxSalaryPeriod alone then means what it says.
        pricedOutSalaryPeriodNanos = Math.max(maxSalaryPeriodNanos,
                nanos("pricedOutSalaryPeriod", b.pricedOutSalaryPeriod));
        hardBufferPackets = (int) positive("hardBufferPackets", b.hardBufferPackets);
        linkWindowPackets = (int) positive("linkWindowPackets", b.linkWindowPackets);
        if (linkWindowPackets > LinkChannel.MAX_WINDOW) {
            throw new IllegalArgumentException("linkWindowPackets must be at most " + LinkChannel.MAX_WINDOW
                    + ", got " + linkWindowPackets);
        }
        halvingSettleNanos = nanos("halvingSettle", b.halvingSettle);
        randomised = b.randomised;
        quietWhenIdle = b.quietWhenIdle;
        if (slowUpdateNanos < fastUpdateNanos) {
            throw new IllegalArgumentException("slowUpdate must be at least fastUpdate");
        }
        // The initial period may exceed the bound: the first adaptation brings it within.
        if (minSalaryPeriodNanos > initialSalaryPeriodNanos || minSalaryPeriodNanos > maxSalaryPeriodNanos) {
            throw new IllegalArgumentException("need minSalaryPeriod <= initialSalaryPeriod and <= maxSalaryPeriod");
        }
        if (hardBufferPackets < softBufferPackets) {
            throw new IllegalArgumentException("hardBufferPackets must be at least softBufferPackets");
        }
        if (threshold <= fee) {
            throw new IllegalArgumentException("threshold H must exceed the fee, got " + threshold + " <= " + fee);
        }
    }

    /** The thesis's parameter table. */
    public static CostBenefitConfig thesis() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Eq 4.7: what a link whose buffer held {@code averageQueue} packets on average costs (at most a full hard buffer's). */
    public double linkCost(double averageQueue) {
        if (!(averageQueue > 0)) {
            return 0;
        }
        // The priced buffer never holds more than the hard bound, but the reliable queues priced with it
        // are bounded by their own windows: beyond the hard bound a link costs what a full buffer does,
        // already more than any client can pay, rather than an exponent that grows without end.
        double queue = Math.min(averageQueue, hardBufferPackets);
        return maxLinkCost * Math.expm1(queue / softBufferPackets) / (Math.E - 1);
    }

    /** Eq 4.9: the benefit of a packet to a client holding {@code tokens} dollars. */
    public double benefit(double tokens) {
        return 1 + tokens / savings * (maxLinkCost - 1);
    }

    public double maxLinkCost() {
        return maxLinkCost;
    }

    public int softBufferPackets() {
        return softBufferPackets;
    }

    public double fee() {
        return fee;
    }

    public double salary() {
        return salary;
    }

    public double savings() {
        return savings;
    }

    public double threshold() {
        return threshold;
    }

    public long initialSalaryPeriodNanos() {
        return initialSalaryPeriodNanos;
    }

    public long fastUpdateNanos() {
        return fastUpdateNanos;
    }

    public long slowUpdateNanos() {
        return slowUpdateNanos;
    }

    public long holdTimeoutNanos() {
        return holdTimeoutNanos;
    }

    public long minSalaryPeriodNanos() {
        return minSalaryPeriodNanos;
    }

    public long maxSalaryPeriodNanos() {
        return maxSalaryPeriodNanos;
    }

    /** The longest salary period of a client refused packets dearer than its full savings could buy. */
    public long pricedOutSalaryPeriodNanos() {
        return pricedOutSalaryPeriodNanos;
    }

    /** The dearest packet a client can ever buy: with full savings, within both its tokens and Eq 4.9's benefit. */
    public double dearestAffordable() {
        return Math.min(savings, benefit(savings));
    }

    public int hardBufferPackets() {
        return hardBufferPackets;
    }

    /** The most packets a link's channel has in flight: the reserve that keeps the link busy. */
    public int linkWindowPackets() {
        return linkWindowPackets;
    }

    /** How long after a halving the packets a client buys do not count towards its next adaptation. */
    public long halvingSettleNanos() {
        return halvingSettleNanos;
    }

    /** Whether an affordable packet still goes only with probability 1/C_p (the thesis's anti-synchronisation). */
    public boolean randomised() {
        return randomised;
    }

    /**
     * Whether a node whose links all cost 0, and cost 0 since its last T_max update, skips its T_max
     * update; false floods every T_max whatever the costs, the thesis's literal rule.
     */
    public boolean quietWhenIdle() {
        return quietWhenIdle;
    }

    private static double positive(String name, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(name + " must be positive and finite, got " + v);
        }
        return v;
    }

    private static long nanos(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
        return d.toNanos();
    }

    public static final class Builder {
        private double maxLinkCost = DEFAULT_MAX_LINK_COST;
        private int softBufferPackets = DEFAULT_SOFT_BUFFER_PACKETS;
        private double fee = DEFAULT_FEE;
        private double salary = DEFAULT_SALARY;
        private double savings = DEFAULT_SAVINGS;
        private double threshold = DEFAULT_THRESHOLD;
        private Duration initialSalaryPeriod = DEFAULT_INITIAL_SALARY_PERIOD;
        private Duration fastUpdate = DEFAULT_FAST_UPDATE;
        private Duration slowUpdate = DEFAULT_SLOW_UPDATE;
        private Duration holdTimeout = DEFAULT_HOLD_TIMEOUT;
        private Duration minSalaryPeriod = DEFAULT_MIN_SALARY_PERIOD;
        private Duration maxSalaryPeriod = DEFAULT_MAX_SALARY_PERIOD;
        private Duration pricedOutSalaryPeriod = DEFAULT_PRICED_OUT_SALARY_PERIOD;
        private int hardBufferPackets = DEFAULT_HARD_BUFFER_PACKETS;
        private int linkWindowPackets = DEFAULT_LINK_WINDOW_PACKETS;
        private Duration halvingSettle = DEFAULT_HALVING_SETTLE;
        private boolean randomised = true;
        private boolean quietWhenIdle = DEFAULT_QUIET_WHEN_IDLE;

        private Builder() {}

        public Builder maxLinkCost(double v) {
            maxLinkCost = v;
            return this;
        }

        public Builder softBufferPackets(int v) {
            softBufferPackets = v;
            return this;
        }

        public Builder fee(double v) {
            fee = v;
            return this;
        }

        public Builder salary(double v) {
            salary = v;
            return this;
        }

        public Builder savings(double v) {
            savings = v;
            return this;
        }

        public Builder threshold(double v) {
            threshold = v;
            return this;
        }

        public Builder initialSalaryPeriod(Duration v) {
            initialSalaryPeriod = v;
            return this;
        }

        public Builder fastUpdate(Duration v) {
            fastUpdate = v;
            return this;
        }

        public Builder slowUpdate(Duration v) {
            slowUpdate = v;
            return this;
        }

        public Builder holdTimeout(Duration v) {
            holdTimeout = v;
            return this;
        }

        public Builder minSalaryPeriod(Duration v) {
            minSalaryPeriod = v;
            return this;
        }

        public Builder maxSalaryPeriod(Duration v) {
            maxSalaryPeriod = v;
            return this;
        }

        public Builder pricedOutSalaryPeriod(Duration v) {
            pricedOutSalaryPeriod = v;
            return this;
        }

        public Builder hardBufferPackets(int v) {
            hardBufferPackets = v;
            return this;
        }

        public Builder linkWindowPackets(int v) {
            linkWindowPackets = v;
            return this;
        }

        public Builder halvingSettle(Duration v) {
            halvingSettle = v;
            return this;
        }

        public Builder randomised(boolean v) {
            randomised = v;
            return this;
        }

        public Builder quietWhenIdle(boolean v) {
            quietWhenIdle = v;
            return this;
        }

        public CostBenefitConfig build() {
            return new CostBenefitConfig(this);
        }
    }
}

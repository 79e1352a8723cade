package net.hopwise.multicast.layered;

import java.time.Duration;

/**
 * Every parameter of an ERA (Explicit Rate Adjustment) session, sender and receivers, immutable;
 * build with {@link #builder()}. Each default is declared once, with its reason; they are the
 * thesis's (Puangpronpitag 2003, Table 6-1 and chapter 5) unless the reason says otherwise.
 *
 * <p>About 910 lines, over the house's 400: one immutable configuration with its builder and presets,
 * each parameter declared once with its reason and validated; split, a user would need two builders
 * for one receiver.
 */
public final class EraConfig {
    /** The thesis's packet size for every protocol it simulated. */
    public static final int DEFAULT_PACKET_BYTES = 512;
    /** Packet pairs, as the thesis's simulations sent them; longer bunches are for noisier real paths. */
    public static final int DEFAULT_BUNCH_LENGTH = 2;
    /** "Min PP required": fewer samples in an interval means the pairs themselves were lost. */
    public static final int DEFAULT_MIN_SAMPLES = 3;
    /** The thesis's Rate Adaptation Interval, the same for every receiver of a session. */
    public static final Duration DEFAULT_ADAPTATION_INTERVAL = Duration.ofSeconds(1);
    /**
     * The loss rate's observation window: PLM's loss cycle, which ERA's code reused, lasts about
     * 5 s, and the thesis's trace counts about 9 s of packets; 5 s reacts within a few intervals and
     * still sees tens of packets on one layer.
     */
    public static final Duration DEFAULT_LOSS_WINDOW = Duration.ofSeconds(5);
    /** t_RTO = 4 t_RTT in the TCP equation, as ERA (after TFMCC) simplified it. */
    public static final double DEFAULT_RTO_FACTOR = 4.0;
    /**
     * Subscribe to the highest cumulative rate strictly below round(target), as the ns-2 code did
     * (it reproduces the thesis's measured 271.93 Kbit/s on 300); false: at most the target.
     */
    public static final boolean DEFAULT_STRICTLY_BELOW = true;
    /** No packet at all for this long drops one layer (PLM's timeout): four bunches of a 20 Kbit/s layer. */
    public static final Duration DEFAULT_SILENCE_TIMEOUT = Duration.ofSeconds(2);
    /** After leaving every layer, re-join the base layer after this back-off, as PLM's code does. */
    public static final Duration DEFAULT_REJOIN_AFTER = Duration.ofSeconds(30);
    /** t_announce = n RAI with n = 1: a joiner waits at most one interval, for one small packet a second. */
    public static final int DEFAULT_ANNOUNCE_EVERY_INTERVALS = 1;

    /**
     * Count lost packets (the thesis's PLR) rather than TFRC's loss events (losses within one round
     * trip as one): the thesis's rule by default. Padhye's equation is a function of the loss event
     * rate, and a bunch lost whole at a full queue is one event, so loss events make the TCP rate
     * what TCP itself would get (see docs/layered-multicast.md for the figures).
     */
    public static final boolean DEFAULT_LOSS_EVENTS = false;

    /**
     * Each bunch moves off its grid point by up to 2% of the layer's spacing either way: 8 ms for
     * pairs of 512 bytes on 20 Kbit/s layers. That is about the packet time of a Mbit/s bottleneck,
     * enough that other periodic traffic (CBR, TCP's packets clocked by the bottleneck) falls between
     * a pair's packets at random rather than always or never, and less than the gap between two
     * layers' bunches at 98% of such a bottleneck (8.4 ms), so the layers' even spread stays and
     * their bunches do not pile up in its queue (see {@link EraSender}).
     */
    public static final double DEFAULT_BUNCH_JITTER = 0.02;

    /**
     * Off (zero), each bunch's jitter is {@link #DEFAULT_BUNCH_JITTER} of its own layer's spacing,
     * whatever that is. A positive cap bounds it in time: the 2% were chosen on 20 Kbit/s layers (8.2 ms, the
     * gap between two pairs of 512 bytes at a 1 Mbit/s bottleneck), and on slower layers they are
     * more (16 ms on 10 Kbit/s layers), so that bunches of several layers arrive together, queue
     * each other by four packet times at 97-99% of a bottleneck and make the queue rule drop
     * (E 0.90 on 300 Kbit/s with 10 Kbit/s layers). 8.192 ms in {@link #recommended()}: exactly the
     * jitter of the thesis's layers, which it leaves as it was.
     */
    public static final Duration DEFAULT_BUNCH_JITTER_CAP = Duration.ZERO;

    /**
     * Zero, the thesis's rule: without loss the target is the pair estimate, and the strict choice
     * leaves one layer of it free, 2% of 1 Mbit/s on 20 Kbit/s layers but 1% on 10 Kbit/s ones. A
     * positive headroom h makes the loss-free target (1 - h) times the estimate, whatever the
     * layering: at 99% of a bottleneck the bunches' jitter alone walks its queue up by the queue
     * rule's threshold every few seconds (79 false drops in 20 runs of 120 s on 10 Kbit/s layers).
     * 2.5% in {@link #recommended()}: on the thesis's layers it takes 960 of 1000 Kbit/s rather than
     * 980, which leaves the halving's step room enough to be seen before the queue overflows (every
     * one of 20 runs under 1% in its worst second, against 19), and the levels it took on 300, 320,
     * 400 and 600 Kbit/s. With loss in the window the estimate reads the share left, which the
     * session takes whole.
     */
    public static final double DEFAULT_HEADROOM = 0;

    /**
     * Off, {@link #queueDrain()} empties the whole queue the step built. That is right for one
     * session beside a flow that does not yield, but every session behind one bottleneck sees the
     * same step and each emptied all of it: when a third session arrived beside two (B8), they left
     * far more than it took, and their levels spread (I 0.54 after it). On, each session empties
     * its own share of the queue, R / (C (1 + s)) of it: the fraction of the bottleneck's input
     * that is its own (R its rate, C the capacity, s the queue's slope). B8's I after the third
     * session 0.707 against 0.540 and the halving still under 1% in every run, but beside one TCP
     * flow behind 10 Mbit/s links one run of 20 collapsed (F 0.29: TCP's slow start fired the rule
     * twice within 0.3 s, the level went from 19 layers to the base, and the equation's rate was
     * then under the base layer), so it is in no preset (docs/layered-multicast.md, "Which preset").
     */
    public static final boolean DEFAULT_QUEUE_DRAIN_SHARE = false;

    /**
     * Off (zero), the thesis's rise: the target goes to whatever the pair estimate and the equation
     * allow (within {@link #DEFAULT_RISE_CAP}'s doubling), so after a queue drop that halves (the queue
     * rule's R / 2 bound) the rise doubles, increase and decrease are both multiplicative, and sessions
     * that share a bottleneck keep the ratios of their rates. A positive n: after a queue drop the
     * receiver climbs back at most n layers an interval until it is again at the level the drop left,
     * so that every session behind the bottleneck regains the same rate an interval while the drop
     * took each a share of its own (additive increase, multiplicative decrease; Chiu and Jain 1989).
     * Such a drop also keeps the base layer (leaving the session is the equation's to decide), and a
     * rise the cap holds at the level held keeps that level rather than the strict choice's layer
     * below it. Measured in B8 (three sessions on 600 Kbit/s): Jain's index after the third session
     * 0.930 against 0.908 without, 0.962 with {@link #DEFAULT_QUEUE_FLOOR_PACKETS} 4 against 0.985 with
     * the floor alone: the sessions' unequal shares came from the queue rule's false drops, not from the
     * rise. In no preset.
     */
    public static final int DEFAULT_ADDITIVE_RISE = 0;

    /**
     * Off (zero), the queue rule's delay floor is the least delay over the last quarter of its window
     * (25 ms). A session on a few layers has one bunch in that quarter, and a bunch that met a
     * passing burst of other sessions' bunches then reads as growth: in B8 (three sessions on
     * 600 Kbit/s) the sessions at 140-240 Kbit/s dropped to 20-40 on such rises (slopes 0.3-0.9)
     * while the one at 280 Kbit/s, whose floor held more packets, almost never did, so the queue rule took
     * from the smaller sessions and kept them small (Jain's index 0.91 after the third session).
     * A positive n: the floor is over at least the last n packets, so a slow session's floor lags as
     * a fast one's does. 4 (two pairs) leaves every session of more than 160 packets a second
     * (655 Kbit/s of 512-byte packets) as it was. On ERA_RECOMMENDED in B8: Jain's index 0.985
     * against 0.908 and 191 Kbit/s each against 166, but the sessions' loss 11.5% against 3.8% (the
     * false drops had also kept the three under the capacity), so it is in no preset; the halving,
     * the TCP rows, B5-B10, the late joiners and the rows on 10 Kbit/s layers keep their verdicts with it (docs/benchmarks.md,
     * "Layered multicast: B8's fairness").
     */
    public static final int DEFAULT_QUEUE_FLOOR_PACKETS = 0;

    /**
     * Off (zero), the queue rule drops only on a queue growing fast. A positive n (packets, with
     * {@link #DEFAULT_QUEUE_RISE} on): a receiver on a loss-free path whose share of the standing queue,
     * R q (its rate times the queue's delay q above the least delay seen, which a FIFO gives each
     * session in proportion to its rate), is over n packets drops at once to n 8 M / q and remembers
     * that rate as a sample. Why: sessions behind one bottleneck read the same q, so the cap is the
     * same rate for all of them, and the largest meet it first; the queue rule's slope, by contrast,
     * takes the same absolute rate from each session whatever its size, and with
     * {@link #DEFAULT_QUEUE_FLOOR_PACKETS} on (no false drops) nothing took the three sessions of B8
     * under the capacity: their loss windows held loss, which turns the queue rule off, and the loss
     * history's episodes counted the lasting overflow as one event (12% of the packets lost). Measured
     * in B8 with a floor of 3 packets: n 1.5 gives Jain's index 0.993 after the third session and 0.05%
     * loss, but each session 125 of its 200 Kbit/s; on a path of one session its own jitter's queue
     * meets the cap (B5's E 0.79 against 0.933, B7 behind 1 Mbit/s links F 0.75), so it is in no preset
     * (docs/benchmarks.md, "Layered multicast: each session's share of the standing queue").
     */
    public static final double DEFAULT_QUEUE_OWN_PACKETS = 0;

    /**
     * Zero, the thesis's rule 6: whenever a decision finds even the base layer above its target (a
     * bunch sample under it, a queue drop or its drain, an interval's target), the receiver leaves the
     * session (EXIT) and rejoins after {@link #DEFAULT_REJOIN_AFTER}. A positive n: the receiver keeps
     * the base layer for congestion, and leaves the session only when n interval decisions in a row
     * found its target under the base layer's rate with loss in the window (or on silence,
     * {@link #DEFAULT_SILENCE_TIMEOUT}).
     * Why: a bunch sample, a queue rise or one interval's equation reads the congestion of the moment,
     * which beside TCP on a path many times the base layer's rate is shared, and the base layer is a
     * small part of it; leaving for it starves the user for the whole back-off. Beside kernel Reno
     * (the simulator of the live topology, TCP first, seed 5; traced live runs went the first part of
     * the way) TCP's refills of the queue its cuts had emptied, read as steps while the session's own
     * window held no loss yet, took ERA_RECOMMENDED from 9 layers to 2 by a queue drop and its drain,
     * and 0.4 s later below the base layer: out of the session for the 30 s back-off. A path that does not carry the base layer
     * loses packets interval after interval, and is left after n such intervals in a row (an interval
     * without loss resets the count: the base layer arrived whole). In {@link #recommended()} 5, the
     * loss window's intervals.
     */
    public static final int DEFAULT_EXIT_INTERVALS = 0;

    /** The recommended sender's jitter cap: 2% of a 20 Kbit/s layer's spacing of 512-byte pairs, 8.192 ms. */
    private static final long RECOMMENDED_JITTER_CAP_NANOS = 8_192_000;
    /** The recommended loss-free headroom (see {@link #DEFAULT_HEADROOM}). */
    private static final double RECOMMENDED_HEADROOM = 0.025;
    /** The recommended receiver's intervals under the base layer before it leaves: the default loss window's. */
    private static final int RECOMMENDED_EXIT_INTERVALS = 5;

    /**
     * R_pp is the minimum sample of the last interval, as the thesis specifies. Cross traffic
     * shows in a pair's dispersion only when one of its packets falls between the pair's two, so
     * an interval may pass with none split (at 24 layers of pairs beside a 500 Kbit/s flow, about
     * one interval in 18), and its minimum then reads the capacity: the receiver rejoins every
     * layer and overflows the queue. More than one interval (the minimum over the last n, each
     * stability drop's sample included) rejoins only after n intervals without a split pair; the
     * drop on a sample stays immediate.
     */
    public static final int DEFAULT_ESTIMATE_INTERVALS = 1;

    /**
     * The strict rule keeps a receiver off the layer that would fill an idle bottleneck to exactly
     * its capacity, where the bunches' jitter alone builds a queue. With loss in the window the
     * bottleneck is shared and its queue full already, and the pair minimum reads the share left to
     * the session (a pair split by one TCP packet on 400 Kbit/s reads exactly 200 Kbit/s): strictly
     * below that the session takes one layer less than its share, which held F at 0.88 beside TCP.
     * True applies the thesis's rule with loss too.
     */
    public static final boolean DEFAULT_STRICT_WITH_LOSS = true;

    /**
     * Samples the first decision after a join needs: the thesis's minimum, 3. On the base layer
     * alone (2.44 pairs a second of a 20 Kbit/s layer) that takes more than one interval, so a
     * late joiner reached the shared level only at its second boundary, 1.5-1.8 s after joining.
     * One sample suffices to start where a single pair says the path stands: a sample that reads
     * too high is corrected by the next pair's stability drop, as at any level.
     */
    public static final int DEFAULT_START_SAMPLES = DEFAULT_MIN_SAMPLES;

    /**
     * Off (zero), the thesis's rules: a receiver reacts to the bunches' dispersion and, at the next
     * boundary, to loss. A positive rise drops at once when the delay floor of the session's packets
     * rises by that much (and by three packet times of the bottleneck) within
     * {@link #DEFAULT_QUEUE_WINDOW}: the queue is growing fast enough to overflow before a split pair
     * or a boundary would say so (see {@link QueueGrowthDetector}). 20 ms in {@link #prompt()}: a
     * 2 x BDP queue of a 40 ms path holds 80 ms, so the drop comes with a quarter of it used, while
     * TCP's congestion avoidance (one segment per round trip) raises it by a few milliseconds within
     * the window.
     */
    public static final Duration DEFAULT_QUEUE_RISE = Duration.ZERO;

    /**
     * The send time over which a rise of the delay floor counts: about two round trips of the
     * thesis's paths, long enough to hold a few bunches of a low level, short enough that a queue
     * growing at TCP's congestion-avoidance pace stays under the rise within it.
     */
    public static final Duration DEFAULT_QUEUE_WINDOW = Duration.ofMillis(100);

    /**
     * Off, the thesis's rule: l over the loss window. On, the TCP equation takes TFRC's loss-event
     * rate (RFC 5348, section 5: events at most one per round trip, by the lost packets' send times,
     * and the weighted mean of the last eight loss intervals; see {@link LossHistory}), which does
     * not forget a loss when a window passes it. The window still says whether the path is losing
     * now, for the layer choice and the queue rule.
     */
    public static final boolean DEFAULT_LOSS_HISTORY = false;

    /**
     * Off (zero), the thesis's rule: the target may rise to whatever the pair estimate and the
     * equation allow. A positive factor caps a rise at that many times the rate received in the
     * interval just ended, once the path has lost anything since the join, also after the loss
     * window has emptied again (TFRC's X = min(X_calc, 2 X_recv), RFC
     * 5348, section 4.3): a pair estimate read through a FIFO where no cross traffic split the
     * pair says the capacity, not the share. Before any loss the pair estimate alone decides, as
     * the thesis's start does: doubling once an interval (a second, where TFRC doubles once a round
     * trip) would take 4 s to reach 300 Kbit/s from the base layer.
     */
    public static final double DEFAULT_RISE_CAP = 0;

    /**
     * Off, a queue-growth drop keeps the rate the queue's slope says is left, and the queue the step
     * built stays: at 98% load it drains at 2% of capacity and overflows on jitter half a second
     * after a correct drop. On, a queue-growth drop of more than one layer (a step of cross traffic,
     * not a sawtooth) also leaves the rate that empties the standing queue within half an interval
     * (capacity x queue delay / half the interval, at most half of what is left); the next boundary
     * rejoins, at most twice what arrived. The queue is the one the newest packet met, grown by the
     * slope until the drop reaches the bottleneck: the floor of the window lags it, and a drain sized
     * on the floor once landed exactly on what is left. Within a whole interval: 16 of 20 halving
     * seeds under 1%; within half: 19 of 20. On in {@link #recommended()}.
     */
    public static final boolean DEFAULT_QUEUE_DRAIN = false;

    /**
     * Off (zero), TFRC's rule in {@link #lossHistory()}: losses sent within one round trip of an
     * event's first loss are that event. A positive k: losses sent within k round trips of the
     * event's latest loss extend it, so one congestion episode is one event however long it lasts.
     * TCP meets an episode once: it halves a round trip after its first loss there, and its
     * halving is what ends the episode; an open-loop session keeps sending through it and, grouped
     * by TFRC's rule, counts each round trip of the episode again (beside one TCP flow the queue
     * stays full for two to three round trips before TCP loses; see docs/layered-multicast.md,
     * "ERA_FRIENDLY").
     */
    public static final double DEFAULT_LOSS_EPISODE_RTTS = 0;

    /**
     * Off, every loss may open a loss event, as TFRC counts. On, a packet lost right behind a packet
     * of its own bunch that arrived opens none (it still counts in the loss interval, and joins an
     * event that is open): the bunch's back-to-back burst found the queue one packet from full,
     * where the same packets paced, as an ACK-clocked TCP sends them, would have passed. Beside TCP
     * 55-70% of ERA's lost packets are such tails.
     */
    public static final boolean DEFAULT_PACED_LOSS = false;

    /**
     * Off, the equation takes the history's loss-event rate per packet this receiver got, as TFRC
     * does. That is what a TCP flow of the session's rate would see only if, like TCP, the session
     * met fewer overflows of a shared queue as it backed off; an open-loop session meets every one
     * of them whatever it holds (beside nine TCP flows 0.9-1.2 episodes a second from 20 to
     * 280 Kbit/s), so its loss-event rate rises as it backs off, and the equation's fixed point is
     * a knife edge: a tenth more events than TCP's runs the session out, a tenth fewer gives it
     * twice its share. On, the history's events a second, E, are taken per packet of the rate the
     * equation then gives: the rate of a TCP flow that meets E loss events a second
     * ({@link TcpFriendlyRate#forEventRate}), whatever the session holds. In no preset: on
     * {@link #recommended()} with episodes of 3 round trips, at most 8, no tail rule and t_RTO = 3
     * t_RTT, B7' (nine TCP flows) F 0.96 where the preset gives 2.29, but beside one flow behind
     * 10 Mbit/s links 0.94 where it gives 1.01 (docs/layered-multicast.md, "Loss events a second"),
     * and B7' is met at those episodes alone: 2.75 and 3.25 round trips give 0.74 and 1.14.
     */
    public static final boolean DEFAULT_LOSS_EVENTS_PER_SECOND = false;

    /**
     * Off (zero), an episode chained by {@link #DEFAULT_LOSS_EPISODE_RTTS} lasts as long as losses
     * keep coming within its span. Beside nine TCP flows that keep the queue near full a session that
     * takes more than its share loses often enough to chain every loss into one endless event, and
     * with {@link #DEFAULT_LOSS_EVENTS_PER_SECOND} its events a second then fall as it takes more.
     * A positive k bounds an event to k round trips of send time from its first loss: TCP, still in
     * a full queue after its cut has reached it, loses and cuts again. In no preset.
     */
    public static final double DEFAULT_LOSS_EPISODE_MAX_RTTS = 0;

    /**
     * How many loss intervals the events a second of {@link #DEFAULT_LOSS_EVENTS_PER_SECOND} average,
     * weighted as RFC 5348 weights n intervals: 8, TFRC's. Beside one TCP flow the session meets about
     * 0.6 events a second, so eight intervals are some thirteen seconds whose count varies by a third,
     * and each high reading binds the equation under the pair estimate's share.
     */
    public static final int DEFAULT_LOSS_EVENT_INTERVALS = 8;

    private final int packetBytes;
    private final int bunchLength;
    private final int minSamples;
    private final long adaptationIntervalNanos;
    private final long lossWindowNanos;
    private final double rtoFactor;
    private final boolean strictlyBelow;
    private final long silenceTimeoutNanos;
    private final long rejoinAfterNanos;
    private final int announceEveryIntervals;
    private final boolean lossEvents;
    private final double bunchJitter;
    private final long bunchJitterCapNanos;
    private final double headroom;
    private final boolean queueDrainShare;
    private final int estimateIntervals;
    private final boolean strictWithLoss;
    private final int startSamples;
    private final long queueRiseNanos;
    private final long queueWindowNanos;
    private final boolean lossHistory;
    private final double riseCap;
    private final boolean queueDrain;
    private final double lossEpisodeRtts;
    private final boolean pacedLoss;
    private final int additiveRise;
    private final int queueFloorPackets;
    private final double queueOwnPackets;
    private final int exitIntervals;
    private final boolean lossEventsPerSecond;
    private final double lossEpisodeMaxRtts;
    private final int lossEventIntervals;

    private EraConfig(Builder b) {
        this.packetBytes = b.packetBytes;
        this.bunchLength = b.bunchLength;
        this.minSamples = b.minSamples;
        this.adaptationIntervalNanos = b.adaptationInterval.toNanos();
        this.lossWindowNanos = b.lossWindow.toNanos();
        this.rtoFactor = b.rtoFactor;
        this.strictlyBelow = b.strictlyBelow;
        this.silenceTimeoutNanos = b.silenceTimeout.toNanos();
        this.rejoinAfterNanos = b.rejoinAfter.toNanos();
        this.announceEveryIntervals = b.announceEveryIntervals;
        this.lossEvents = b.lossEvents;
        this.bunchJitter = b.bunchJitter;
        this.bunchJitterCapNanos = b.bunchJitterCap.toNanos();
        this.headroom = b.headroom;
        this.queueDrainShare = b.queueDrainShare;
        this.estimateIntervals = b.estimateIntervals;
        this.strictWithLoss = b.strictWithLoss;
        this.startSamples = b.startSamples;
        this.queueRiseNanos = b.queueRise.toNanos();
        this.queueWindowNanos = b.queueWindow.toNanos();
        this.lossHistory = b.lossHistory;
        this.riseCap = b.riseCap;
        this.queueDrain = b.queueDrain;
        this.lossEpisodeRtts = b.lossEpisodeRtts;
        this.pacedLoss = b.pacedLoss;
        this.additiveRise = b.additiveRise;
        this.queueFloorPackets = b.queueFloorPackets;
        this.queueOwnPackets = b.queueOwnPackets;
        this.exitIntervals = b.exitIntervals;
        this.lossEventsPerSecond = b.lossEventsPerSecond;
        this.lossEpisodeMaxRtts = b.lossEpisodeMaxRtts;
        this.lossEventIntervals = b.lossEventIntervals;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static EraConfig defaults() {
        return builder().build();
    }

    /**
     * The receiver's rules as the thesis ran them ({@link #defaults()}): lost packets counted, the
     * one-interval minimum, the strict layer choice also with loss. Named, so that comparisons say
     * which ERA they compare with when the defaults move.
     */
    public static EraConfig thesis() {
        return builder().build();
    }

    /**
     * Ours, the rules that meet the TCP-friendliness goal |F - 1| at most 0.1 beside one TCP Reno
     * flow behind slow and fast exterior links in both start orders (docs/layered-multicast.md,
     * "ERA_FAIR"): TFRC's loss events in Padhye's equation ({@link Builder#lossEvents}), the bunch
     * estimate over three intervals ({@link Builder#estimateIntervals}), the layers at most the
     * target when the decision sees loss ({@link Builder#strictWithLoss}), and a first decision on
     * one sample ({@link Builder#startSamples}), so late joiners align within one interval. Everything else, the
     * sender's side included, is the thesis's, so receivers of either kind share a session.
     */
    public static EraConfig fair() {
        return builder().lossEvents(true).estimateIntervals(3).strictWithLoss(false).startSamples(1).build();
    }

    /**
     * ERA_FAIR ({@link #fair()}) and a drop at once when the queue at the bottleneck grows fast
     * ({@link Builder#queueRise}): when cross traffic takes half the path, the receiver leaves the
     * layers the path no longer carries before the queue overflows, instead of after the first split
     * pair or loss (docs/layered-multicast.md, "Halving"). Once the path has lost anything, a rise
     * goes at most to twice the rate received ({@link Builder#riseCap}, TFRC's limit), so that a
     * loss window that empties does not send the target to a pair estimate that read the capacity.
     */
    public static EraConfig prompt() {
        return fair().toBuilder().queueRise(Duration.ofMillis(20)).riseCap(2).build();
    }

    /**
     * ERA_PROMPT ({@link #prompt()}) with TFRC's loss-event history in the equation
     * ({@link Builder#lossHistory}), so that a loss-free spell does not let the equation forget.
     * Experimental: with the thesis's constant 50 ms round trip it leaves TCP more than its share
     * behind fast exterior links in the simulator; it is meant for a measured round trip
     * (docs/layered-multicast.md, "ERA_TFRC").
     */
    public static EraConfig tfrc() {
        return prompt().toBuilder().lossHistory(true).build();
    }

    /**
     * TCP-friendly with a measured round trip (the receiver's {@link RttEstimator} should measure
     * through the queue, as TCP's own round trip does: {@link RttEstimator#forwardQueue} or
     * {@link RttEstimator#perHopSum}): ERA_TFRC ({@link #tfrc()}) with its loss events counted as
     * TCP meets them, one per congestion episode ({@link Builder#lossEpisodeRtts}).
     */
    public static EraConfig friendly() {
        return tfrc().toBuilder().lossEpisodeRtts(2).pacedLoss(true).build();
    }

    /**
     * The preset to pick: ERA_FRIENDLY ({@link #friendly()}, TCP-friendly with a measured round trip)
     * whose halving-sized queue drops also empty the queue the step built ({@link Builder#queueDrain}),
     * whose loss-free target leaves 2.5% of the pair estimate free ({@link Builder#headroom}), and whose
     * sender caps its bunches' jitter at 8.192 ms ({@link Builder#bunchJitterCap}), and whose receiver keeps
     * its base layer for congestion ({@link Builder#exitIntervals}, 5), so that one preset
     * comes closest to every simulator goal together (docs/layered-multicast.md, "Which preset"). The
     * drain acts only on a path without loss in the window, so beside TCP it is ERA_FRIENDLY but for
     * the start.
     */
    public static EraConfig recommended() {
        return friendly().toBuilder().queueDrain(true).bunchJitterCap(Duration.ofNanos(RECOMMENDED_JITTER_CAP_NANOS))
                .headroom(RECOMMENDED_HEADROOM).exitIntervals(RECOMMENDED_EXIT_INTERVALS).build();
    }

    public Builder toBuilder() {
        return new Builder().packetBytes(packetBytes).bunchLength(bunchLength).minSamples(minSamples)
                .adaptationInterval(Duration.ofNanos(adaptationIntervalNanos)).lossWindow(Duration.ofNanos(lossWindowNanos))
                .rtoFactor(rtoFactor).strictlyBelow(strictlyBelow).silenceTimeout(Duration.ofNanos(silenceTimeoutNanos))
                .rejoinAfter(Duration.ofNanos(rejoinAfterNanos)).announceEveryIntervals(announceEveryIntervals).lossEvents(lossEvents)
                .bunchJitter(bunchJitter).bunchJitterCap(Duration.ofNanos(bunchJitterCapNanos)).headroom(headroom)
                .queueDrainShare(queueDrainShare).estimateIntervals(estimateIntervals).strictWithLoss(strictWithLoss)
                .startSamples(startSamples).queueRise(Duration.ofNanos(queueRiseNanos))
                .queueWindow(Duration.ofNanos(queueWindowNanos)).lossHistory(lossHistory).riseCap(riseCap)
                .queueDrain(queueDrain).lossEpisodeRtts(lossEpisodeRtts).pacedLoss(pacedLoss)
                .additiveRise(additiveRise).queueFloorPackets(queueFloorPackets).exitIntervals(exitIntervals)
                .queueOwnPackets(queueOwnPackets).lossEventsPerSecond(lossEventsPerSecond).lossEpisodeMaxRtts(lossEpisodeMaxRtts)
                .lossEventIntervals(lossEventIntervals);
    }

    /** Round trips of send time a chained loss event lasts at most from its first loss; 0: no bound. */
    public double lossEpisodeMaxRtts() {
        return lossEpisodeMaxRtts;
    }

    /** Loss intervals the events a second average (RFC 5348's weights for n intervals). */
    public int lossEventIntervals() {
        return lossEventIntervals;
    }

    /** Whether the equation takes the history's loss events a second, solved for the rate that meets them, rather than its events per packet received. */
    public boolean lossEventsPerSecond() {
        return lossEventsPerSecond;
    }

    /** Interval decisions in a row under the base layer's rate that leave the session; 0: any decision under it leaves at once. */
    public int exitIntervals() {
        return exitIntervals;
    }

    /** The fewest packets the queue rule's delay floor is taken over; 0: the last quarter of its window alone. */
    public int queueFloorPackets() {
        return queueFloorPackets;
    }

    /** The packets of the standing queue a session may hold before the queue rule caps its rate; 0: no cap. */
    public double queueOwnPackets() {
        return queueOwnPackets;
    }

    /** Layers an interval a receiver climbs at most after a congestion drop until back at the level it left; 0: no limit. */
    public int additiveRise() {
        return additiveRise;
    }

    /** Round trips of send time within which a loss extends the latest loss of an event; 0: TFRC's grouping. */
    public double lossEpisodeRtts() {
        return lossEpisodeRtts;
    }

    /** Whether a loss right behind an arrived packet of its own bunch opens no loss event. */
    public boolean pacedLoss() {
        return pacedLoss;
    }

    /** Whether a queue-growth drop of more than one layer also leaves the rate that drains the standing queue within an interval. */
    public boolean queueDrain() {
        return queueDrain;
    }

    /** Whether the TCP equation takes TFRC's loss-event history rather than the window's rate. */
    public boolean lossHistory() {
        return lossHistory;
    }

    /** How many times the rate received in the last interval a rise may reach once the path lost anything since the join; 0: no cap. */
    public double riseCap() {
        return riseCap;
    }

    /** The rise of the delay floor within {@link #queueWindowNanos()} that drops at once; 0: the rule is off. */
    public long queueRiseNanos() {
        return queueRiseNanos;
    }

    public long queueWindowNanos() {
        return queueWindowNanos;
    }

    /** The samples the first decision after a join or rejoin needs (later ones: {@link #minSamples()}). */
    public int startSamples() {
        return startSamples;
    }

    /** Whether {@link #strictlyBelow()} holds also for decisions made with loss in the window. */
    public boolean strictWithLoss() {
        return strictWithLoss;
    }

    /** Whether l counts loss events (TFRC) rather than lost packets. */
    public boolean lossEvents() {
        return lossEvents;
    }

    /** How far each bunch may move off its place on the layer's grid, a fraction of the spacing in [0, 0.5). */
    public double bunchJitter() {
        return bunchJitter;
    }

    /** The most a bunch moves off its grid point either way, whatever its layer's spacing; 0: no cap. */
    public long bunchJitterCapNanos() {
        return bunchJitterCapNanos;
    }

    /** The fraction of the pair estimate a loss-free target leaves free; 0: the thesis's rule. */
    public double headroom() {
        return headroom;
    }

    /** Whether {@link #queueDrain()} empties only the session's share of the queue rather than all of it. */
    public boolean queueDrainShare() {
        return queueDrainShare;
    }

    /** Intervals whose samples the bunch estimate R_pp takes the minimum of; 1 is the thesis's rule. */
    public int estimateIntervals() {
        return estimateIntervals;
    }

    /** M: bytes of one data packet, what the bandwidth estimate and the TCP equation count. */
    public int packetBytes() {
        return packetBytes;
    }

    /** B: packets per bunch, sent back to back; 2 is a packet pair. */
    public int bunchLength() {
        return bunchLength;
    }

    public int minSamples() {
        return minSamples;
    }

    /** The RAI. */
    public long adaptationIntervalNanos() {
        return adaptationIntervalNanos;
    }

    public long lossWindowNanos() {
        return lossWindowNanos;
    }

    public double rtoFactor() {
        return rtoFactor;
    }

    public boolean strictlyBelow() {
        return strictlyBelow;
    }

    public long silenceTimeoutNanos() {
        return silenceTimeoutNanos;
    }

    public long rejoinAfterNanos() {
        return rejoinAfterNanos;
    }

    public int announceEveryIntervals() {
        return announceEveryIntervals;
    }

    public static final class Builder {
        private int packetBytes = DEFAULT_PACKET_BYTES;
        private int bunchLength = DEFAULT_BUNCH_LENGTH;
        private int minSamples = DEFAULT_MIN_SAMPLES;
        private Duration adaptationInterval = DEFAULT_ADAPTATION_INTERVAL;
        private Duration lossWindow = DEFAULT_LOSS_WINDOW;
        private double rtoFactor = DEFAULT_RTO_FACTOR;
        private boolean strictlyBelow = DEFAULT_STRICTLY_BELOW;
        private Duration silenceTimeout = DEFAULT_SILENCE_TIMEOUT;
        private Duration rejoinAfter = DEFAULT_REJOIN_AFTER;
        private int announceEveryIntervals = DEFAULT_ANNOUNCE_EVERY_INTERVALS;
        private boolean lossEvents = DEFAULT_LOSS_EVENTS;
        private double bunchJitter = DEFAULT_BUNCH_JITTER;
        private Duration bunchJitterCap = DEFAULT_BUNCH_JITTER_CAP;
        private double headroom = DEFAULT_HEADROOM;
        private boolean queueDrainShare = DEFAULT_QUEUE_DRAIN_SHARE;
        private int estimateIntervals = DEFAULT_ESTIMATE_INTERVALS;
        private boolean strictWithLoss = DEFAULT_STRICT_WITH_LOSS;
        private int startSamples = DEFAULT_START_SAMPLES;
        private Duration queueRise = DEFAULT_QUEUE_RISE;
        private Duration queueWindow = DEFAULT_QUEUE_WINDOW;
        private boolean lossHistory = DEFAULT_LOSS_HISTORY;
        private double riseCap = DEFAULT_RISE_CAP;
        private boolean queueDrain = DEFAULT_QUEUE_DRAIN;
        private double lossEpisodeRtts = DEFAULT_LOSS_EPISODE_RTTS;
        private boolean pacedLoss = DEFAULT_PACED_LOSS;
        private int additiveRise = DEFAULT_ADDITIVE_RISE;
        private int queueFloorPackets = DEFAULT_QUEUE_FLOOR_PACKETS;
        private double queueOwnPackets = DEFAULT_QUEUE_OWN_PACKETS;
        private int exitIntervals = DEFAULT_EXIT_INTERVALS;
        private boolean lossEventsPerSecond = DEFAULT_LOSS_EVENTS_PER_SECOND;
        private double lossEpisodeMaxRtts = DEFAULT_LOSS_EPISODE_MAX_RTTS;
        private int lossEventIntervals = DEFAULT_LOSS_EVENT_INTERVALS;

        private Builder() {
        }

        public Builder lossEventsPerSecond(boolean perSecond) {
            this.lossEventsPerSecond = perSecond;
            return this;
        }

        public Builder lossEpisodeMaxRtts(double rtts) {
            if (!(rtts >= 0) || Double.isInfinite(rtts)) {
                throw new IllegalArgumentException("lossEpisodeMaxRtts must be >= 0, got " + rtts);
            }
            this.lossEpisodeMaxRtts = rtts;
            return this;
        }

        public Builder lossEventIntervals(int intervals) {
            if (intervals < 1 || intervals > 256) {
                throw new IllegalArgumentException("lossEventIntervals must be in 1..256, got " + intervals);
            }
            this.lossEventIntervals = intervals;
            return this;
        }

        public Builder exitIntervals(int intervals) {
            if (intervals < 0) {
                throw new IllegalArgumentException("exitIntervals must be >= 0, got " + intervals);
            }
            this.exitIntervals = intervals;
            return this;
        }

        public Builder queueFloorPackets(int packets) {
            // The window holds at most its history; more would make the floor the whole window.
            if (packets < 0 || packets > 64) {
                throw new IllegalArgumentException("queueFloorPackets must be in 0..64, got " + packets);
            }
            this.queueFloorPackets = packets;
            return this;
        }

        public Builder queueOwnPackets(double packets) {
            if (!(packets >= 0) || Double.isInfinite(packets)) {
                throw new IllegalArgumentException("queueOwnPackets must be finite and >= 0, got " + packets);
            }
            this.queueOwnPackets = packets;
            return this;
        }

        public Builder additiveRise(int layersPerInterval) {
            if (layersPerInterval < 0) {
                throw new IllegalArgumentException("additiveRise must be >= 0, got " + layersPerInterval);
            }
            this.additiveRise = layersPerInterval;
            return this;
        }

        public Builder lossEpisodeRtts(double rtts) {
            if (!(rtts >= 0) || Double.isInfinite(rtts)) {
                throw new IllegalArgumentException("lossEpisodeRtts must be >= 0, got " + rtts);
            }
            this.lossEpisodeRtts = rtts;
            return this;
        }

        public Builder pacedLoss(boolean paced) {
            this.pacedLoss = paced;
            return this;
        }

        public Builder lossHistory(boolean history) {
            this.lossHistory = history;
            return this;
        }

        public Builder riseCap(double factor) {
            // Below 1 the cap would be a drop, which is the equation's and the estimate's to make.
            if (!(factor == 0 || factor >= 1) || Double.isInfinite(factor)) {
                throw new IllegalArgumentException("riseCap must be 0 (off) or >= 1, got " + factor);
            }
            this.riseCap = factor;
            return this;
        }

        public Builder queueRise(Duration rise) {
            if (rise == null || rise.isNegative()) {
                throw new IllegalArgumentException("queueRise must be >= 0, got " + rise);
            }
            this.queueRise = rise;
            return this;
        }

        public Builder queueWindow(Duration window) {
            this.queueWindow = positive("queueWindow", window);
            return this;
        }

        public Builder startSamples(int samples) {
            if (samples < 1) {
                throw new IllegalArgumentException("startSamples must be >= 1, got " + samples);
            }
            this.startSamples = samples;
            return this;
        }

        public Builder strictWithLoss(boolean strict) {
            this.strictWithLoss = strict;
            return this;
        }

        public Builder packetBytes(int bytes) {
            if (bytes < LayeredPacket.HEADER || bytes > 0xFFFF) {
                throw new IllegalArgumentException("packetBytes must be in " + LayeredPacket.HEADER + "..65535, got " + bytes);
            }
            this.packetBytes = bytes;
            return this;
        }

        public Builder bunchLength(int packets) {
            if (packets < 2 || packets > LayeredPacket.MAX_BUNCH) {
                throw new IllegalArgumentException("bunchLength must be in 2.." + LayeredPacket.MAX_BUNCH + ", got " + packets);
            }
            this.bunchLength = packets;
            return this;
        }

        public Builder minSamples(int samples) {
            if (samples < 1) {
                throw new IllegalArgumentException("minSamples must be >= 1, got " + samples);
            }
            this.minSamples = samples;
            return this;
        }

        public Builder adaptationInterval(Duration interval) {
            this.adaptationInterval = positive("adaptationInterval", interval);
            return this;
        }

        public Builder lossWindow(Duration window) {
            this.lossWindow = positive("lossWindow", window);
            return this;
        }

        public Builder rtoFactor(double factor) {
            if (!(factor > 0) || Double.isInfinite(factor)) {
                throw new IllegalArgumentException("rtoFactor must be > 0, got " + factor);
            }
            this.rtoFactor = factor;
            return this;
        }

        public Builder strictlyBelow(boolean strict) {
            this.strictlyBelow = strict;
            return this;
        }

        public Builder silenceTimeout(Duration timeout) {
            this.silenceTimeout = positive("silenceTimeout", timeout);
            return this;
        }

        public Builder rejoinAfter(Duration backoff) {
            this.rejoinAfter = positive("rejoinAfter", backoff);
            return this;
        }

        public Builder announceEveryIntervals(int n) {
            if (n < 1 || n > 0xFFFF) {
                throw new IllegalArgumentException("announceEveryIntervals must be in 1..65535, got " + n);
            }
            this.announceEveryIntervals = n;
            return this;
        }

        public Builder queueDrain(boolean drain) {
            this.queueDrain = drain;
            return this;
        }

        public Builder lossEvents(boolean events) {
            this.lossEvents = events;
            return this;
        }

        public Builder bunchJitter(double fraction) {
            // Below half a spacing a layer's bunches keep their order.
            if (!(fraction >= 0 && fraction < 0.5)) {
                throw new IllegalArgumentException("bunchJitter must be in [0, 0.5), got " + fraction);
            }
            this.bunchJitter = fraction;
            return this;
        }

        public Builder bunchJitterCap(Duration cap) {
            if (cap == null || cap.isNegative()) {
                throw new IllegalArgumentException("bunchJitterCap must be >= 0, got " + cap);
            }
            this.bunchJitterCap = cap;
            return this;
        }

        public Builder queueDrainShare(boolean share) {
            this.queueDrainShare = share;
            return this;
        }

        public Builder headroom(double fraction) {
            // Half the estimate or more would be a drop the estimate does not call for.
            if (!(fraction >= 0 && fraction < 0.5)) {
                throw new IllegalArgumentException("headroom must be in [0, 0.5), got " + fraction);
            }
            this.headroom = fraction;
            return this;
        }

        public Builder estimateIntervals(int intervals) {
            if (intervals < 1 || intervals > 64) {
                throw new IllegalArgumentException("estimateIntervals must be in 1..64, got " + intervals);
            }
            this.estimateIntervals = intervals;
            return this;
        }

        public EraConfig build() {
            // Each shapes or reads the events of TFRC's history; the window's rate counts no events of its own.
            if ((lossEpisodeRtts > 0 || pacedLoss || lossEventsPerSecond || lossEpisodeMaxRtts > 0) && !lossHistory) {
                throw new IllegalArgumentException("lossEpisodeRtts, lossEpisodeMaxRtts, pacedLoss and lossEventsPerSecond need lossHistory(true)");
            }
            // The standing queue is read by the queue rule's detector, which exists only with a rise.
            if (queueOwnPackets > 0 && queueRise.isZero()) {
                throw new IllegalArgumentException("queueOwnPackets needs queueRise > 0");
            }
            return new EraConfig(this);
        }

        private static Duration positive(String name, Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be > 0, got " + d);
            }
            return d;
        }
    }
}

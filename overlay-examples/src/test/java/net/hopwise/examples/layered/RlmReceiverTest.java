package net.hopwise.examples.layered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import net.hopwise.examples.layered.LayeredScenarios.Protocol;
import net.hopwise.multicast.layered.LayerRates;
import net.hopwise.multicast.layered.LayerSubscriber;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.SessionAnnouncement;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;
import org.junit.jupiter.api.Test;

/**
 * RLM's baseline on virtual time: the detection-time estimator, the join timer's draw, the timers'
 * back-off and relax, and shared learning, first against a scripted bottleneck, then behind a
 * simulated one.
 */
class RlmReceiverTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final SessionAnnouncement ANNOUNCEMENT = new SessionAnnouncement(1, 1, 512, 1_000_000, 1, 0, 0, 0,
            LayerRates.equal(8, 20_000));

    /**
     * Each experiment on layer 1 congests a bottleneck that carries the base layer only, 1 s after the
     * join (the queue filling): the receiver drops the layer as soon as the loss shows, and each
     * failure moves the mean detection time a quarter of the way from 5 s to the 1 s it measured
     * (within the 20 ms the loss takes to show as a gap), the deviation likewise, and doubles the
     * join timer to at most 60 s. Then the bottleneck widens: the next experiment succeeds after one
     * detection timer, the estimated one, and relaxes the timer x0.75.
     */
    @Test
    void theDetectionTimeIsEstimatedFromFailedExperimentsAndBoundsTheMeasurement() {
        for (long seed = 1; seed <= 3; seed++) {
            Bottleneck b = new Bottleneck(0, SECOND);
            Subscriber joins = new Subscriber();
            RlmReceiver r = b.add(joins, seed, null);
            assertThat(r.detectionNanos()).as("seed %d", seed).isEqualTo(9 * SECOND);
            double mean = 5.0;
            double deviation = 2.0;
            for (int n = 1; n <= 6; n++) {
                int failures = n;
                assertThat(b.runUntil(() -> r.activity().failed() == failures, 1000 * SECOND)).as("seed %d", seed).isTrue();
                double error = 1.01 - mean;
                mean += 0.25 * error;
                deviation += 0.25 * (Math.abs(error) - deviation);
                assertThat(r.detectionMeanNanos() / 1e9).as("seed %d, failure %d", seed, n).isCloseTo(mean, within(0.011));
                assertThat(r.detectionNanos() / 1e9).as("seed %d, failure %d", seed, n).isCloseTo(mean + 2 * deviation, within(0.033));
                assertThat(r.joinTimerNanos(1)).as("seed %d, failure %d", seed, n).isEqualTo(Math.min(60 * SECOND, (5 * SECOND) << n));
                long[] join = joins.last(1);
                assertThat(joins.leftAt(1) - join[1]).as("dropped as the loss shows, seed %d", seed).isBetween(SECOND, SECOND + 100 * MS);
            }
            assertThat(mean).isLessThan(2.0);
            b.capacity = 7;
            assertThat(b.runUntil(() -> joins.last(1)[1] > joins.leftAt(1), 200 * SECOND)).as("seed %d", seed).isTrue();
            long joined = joins.last(1)[1];
            long timer = r.detectionNanos();
            assertThat(b.runUntil(() -> joins.last(2) != null, 200 * SECOND)).as("seed %d", seed).isTrue();
            // Success after one detection timer, then the join timer of layer 2 (5 s): T_J/2 to 3 T_J/2.
            assertThat(joins.last(2)[1] - joined).as("seed %d", seed)
                    .isBetween(timer + 2500 * MS, timer + 7500 * MS + 2 * Bottleneck.STEP);
            assertThat(r.joinTimerNanos(1)).as("seed %d", seed).isEqualTo(45 * SECOND);
            assertThat(r.activity().failed()).as("seed %d", seed).isEqualTo(6);
        }
    }

    /**
     * T_J/2 plus an exponential of mean T_J conditioned on [0, T_J]: within T_J/2..3T_J/2, a mean of
     * T_J/2 + T_J (1 - 2/e)/(1 - 1/e) = 0.918 T_J where a uniform draw gives T_J, and 62% of the draws
     * in the lower half of the range (a uniform draw: 50%). The receiver's first experiment comes
     * one such draw after its start.
     */
    @Test
    void joinTimersAreHalfTheTimerPlusATruncatedExponential() {
        long tj = 5 * SECOND;
        double expectedMean = tj / 2.0 + tj * (1 - 2 / Math.E) / (1 - 1 / Math.E);
        double expectedLowerHalf = -Math.expm1(-0.5) / -Math.expm1(-1);
        for (long seed = 1; seed <= 3; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int n = 200_000;
            double sum = 0;
            int lowerHalf = 0;
            for (int i = 0; i < n; i++) {
                long d = RlmReceiver.drawJoin(random, tj);
                assertThat(d).as("seed %d", seed).isBetween(tj / 2, tj / 2 + tj - 1);
                sum += d;
                lowerHalf += d < tj ? 1 : 0;
            }
            assertThat(sum / n).as("seed %d", seed).isCloseTo(expectedMean, within(0.01 * SECOND));
            assertThat((double) lowerHalf / n).as("seed %d", seed).isCloseTo(expectedLowerHalf, within(0.005));
        }
        for (long seed = 1; seed <= 20; seed++) {
            Bottleneck b = new Bottleneck(7, SECOND);
            Subscriber joins = new Subscriber();
            b.add(joins, seed, null);
            assertThat(b.runUntil(() -> joins.last(1) != null, 20 * SECOND)).as("seed %d", seed).isTrue();
            assertThat(joins.last(1)[1]).as("seed %d", seed).isBetween(tj / 2, tj / 2 + tj + Bottleneck.STEP);
        }
    }

    /**
     * Another receiver's experiment on layer 2 congests the bottleneck 0.3 s after its "add 2": with
     * shared learning the receiver at level 1 keeps its level and backs off its own timer for layer 2
     * (it never ran that experiment), re-drawing its next join from the doubled timer; alone, it takes
     * the loss for its own and drops a layer, its timers untouched.
     */
    @Test
    void aReceiverLearnsFromAnotherReceiversFailedExperimentInsteadOfDropping() {
        for (long seed = 1; seed <= 3; seed++) {
            for (boolean shared : new boolean[] {true, false}) {
                RlmSharedLearning bus = RlmSharedLearning.constantDelay(10 * MS);
                Bottleneck b = new Bottleneck(7, SECOND);
                RlmReceiver r = b.add(new Subscriber(), seed, shared ? bus.member("B") : null);
                RlmSharedLearning.Member other = bus.member("A");
                assertThat(b.runUntil(() -> r.activity().experiments() == 1 && r.nextJoinNanos() != Long.MAX_VALUE, 60 * SECOND))
                        .as("seed %d", seed).isTrue();
                long t = b.now;
                long next = r.nextJoinNanos();
                assertThat(next).as("seed %d", seed).isGreaterThan(t + 2 * SECOND);
                other.announce(2, t);
                b.lossFrom = t + 300 * MS;
                b.lossUntil = t + SECOND;
                b.runUntil(t + 2 * SECOND);
                RlmReceiver.Activity a = r.activity();
                String what = "seed " + seed + ", shared " + shared + ", " + a;
                if (shared) {
                    assertThat(r.level()).as(what).isEqualTo(1);
                    assertThat(a.steadyDrops()).as(what).isZero();
                    assertThat(a.learnedBackoffs()).as(what).isEqualTo(1);
                    assertThat(a.failed()).as(what).isZero();
                    assertThat(r.joinTimerNanos(2)).as(what).isEqualTo(10 * SECOND);
                    assertThat(r.nextJoinNanos()).as(what).isNotEqualTo(next).isGreaterThanOrEqualTo(t + 300 * MS + 5 * SECOND);
                } else {
                    assertThat(r.level()).as(what).isZero();
                    assertThat(a.steadyDrops()).as(what).isEqualTo(1);
                    assertThat(a.learnedBackoffs()).as(what).isZero();
                    assertThat(r.joinTimerNanos(2)).as(what).isEqualTo(5 * SECOND);
                }
            }
        }
    }

    /**
     * The announcing side: "add 1" reaches another member one bus delay after the join, and each
     * experiment is announced once.
     */
    @Test
    void eachExperimentIsAnnouncedToTheOtherReceiversAtItsJoin() {
        RlmSharedLearning bus = RlmSharedLearning.constantDelay(10 * MS);
        Bottleneck b = new Bottleneck(7, SECOND);
        Subscriber joins = new Subscriber();
        RlmReceiver r = b.add(joins, 1, bus.member("B"));
        RlmSharedLearning.Member listener = bus.member("A");
        assertThat(b.runUntil(() -> joins.last(1) != null, 20 * SECOND)).isTrue();
        long joined = joins.last(1)[1];
        listener.hear(joined + 10 * MS - 1, SECOND);
        assertThat(listener.lowestAbove(-1)).isEqualTo(-1);
        listener.hear(joined + 10 * MS, SECOND);
        assertThat(listener.lowestAbove(-1)).isEqualTo(1);
        assertThat(listener.endAbove(0)).isEqualTo(joined + 10 * MS + SECOND);
        b.runUntil(60 * SECOND);
        assertThat(r.activity().experiments()).isGreaterThan(1);
        assertThat(bus.messagesSent()).isEqualTo(r.activity().experiments());
    }

    /**
     * A receiver at level 2 whose join timer fires while another receiver's experiment on layer 1
     * runs waits until that experiment's end by its own detection timer; one on layer 3, its own next
     * layer, does not hold it back.
     */
    @Test
    void aReceiverDefersItsExperimentWhileALowerOneRunsButNotForTheSameLayer() {
        for (long seed = 1; seed <= 3; seed++) {
            for (int layer : new int[] {1, 3}) {
                RlmSharedLearning bus = RlmSharedLearning.constantDelay(10 * MS);
                Bottleneck b = new Bottleneck(7, SECOND);
                Subscriber joins = new Subscriber();
                RlmReceiver r = b.add(joins, seed, bus.member("B"));
                RlmSharedLearning.Member other = bus.member("A");
                assertThat(b.runUntil(() -> r.activity().experiments() == 2 && r.nextJoinNanos() != Long.MAX_VALUE, 60 * SECOND))
                        .as("seed %d", seed).isTrue();
                long next = r.nextJoinNanos();
                b.runUntil(next - 500 * MS);
                other.announce(layer, b.now);
                long end = b.now + 10 * MS + r.detectionNanos();
                assertThat(b.runUntil(() -> joins.last(3) != null, 60 * SECOND)).as("seed %d", seed).isTrue();
                String what = "seed " + seed + ", add " + layer + ", " + r.activity();
                if (layer == 1) {
                    assertThat(joins.last(3)[1]).as(what).isBetween(end, end + Bottleneck.STEP);
                    assertThat(r.activity().deferrals()).as(what).isEqualTo(1);
                } else {
                    assertThat(joins.last(3)[1]).as(what).isBetween(next, next + Bottleneck.STEP);
                    assertThat(r.activity().deferrals()).as(what).isZero();
                }
            }
        }
    }

    /**
     * Four receivers behind one 200 Kbit/s bottleneck on RLM's doubling layers (20 Kbit/s x 2^i):
     * 160 Kbit/s fits, 320 Kbit/s loses 37%, so every experiment on layer 4 fails. Alone, each
     * receiver fails its own, and takes the others' for congestion of its own and drops; with shared
     * learning (the receivers made as the scenarios make them, through {@link Controllers#of}) they
     * learn from each other's: every receiver backs off for experiments it did not run, nobody drops
     * a layer in the steady state, and fewer than 70% as many experiments fail (about half, over the
     * same seeds).
     */
    @Test
    void behindOneBottleneckSharedLearningSparesFailedExperimentsAndDrops() {
        long failedShared = 0;
        long failedAlone = 0;
        long dropsShared = 0;
        long dropsAlone = 0;
        for (long seed = 1; seed <= 3; seed++) {
            for (boolean shared : new boolean[] {true, false}) {
                List<RlmReceiver> rs = fourBehindOneBottleneck(seed, shared, 200);
                for (RlmReceiver r : rs) {
                    RlmReceiver.Activity a = r.activity();
                    String what = "seed " + seed + ", shared " + shared + ", " + a;
                    if (shared) {
                        failedShared += a.failed();
                        dropsShared += a.steadyDrops();
                        assertThat(a.learnedBackoffs()).as(what).isGreaterThanOrEqualTo(2);
                        assertThat(a.steadyDrops()).as(what).isZero();
                    } else {
                        failedAlone += a.failed();
                        dropsAlone += a.steadyDrops();
                        assertThat(a.learnedBackoffs()).as(what).isZero();
                    }
                }
            }
        }
        String totals = "failed " + failedShared + " shared, " + failedAlone + " alone; drops " + dropsShared + " / " + dropsAlone
                + " (seeds 1-3)";
        assertThat(failedShared).as(totals).isLessThan(failedAlone * 7 / 10);
        assertThat(dropsAlone).as(totals).isGreaterThan(dropsShared + 10);
    }

    private static List<RlmReceiver> fourBehindOneBottleneck(long seed, boolean shared, int seconds) {
        SplittableRandom random = new SplittableRandom(seed);
        try (SimNetwork net = new SimNetwork(seed)) {
            for (String n : List.of("S", "R0", "R1", "E1", "E2", "E3", "E4")) {
                net.plainNode(n);
            }
            net.link("S", "R0", LayeredScenarios.link(10_000_000, 5, LayeredScenarios.twiceBdp(10_000_000, 0.06)));
            net.link("R0", "R1", LayeredScenarios.link(200_000, 20, LayeredScenarios.twiceBdp(200_000, 0.06)));
            Map<String, String> parents = new HashMap<>(Map.of("R0", "S", "R1", "R0"));
            for (int i = 1; i <= 4; i++) {
                net.link("R1", "E" + i, LayeredScenarios.link(10_000_000, 5, LayeredScenarios.twiceBdp(10_000_000, 0.06)));
                parents.put("E" + i, "R1");
            }
            net.start();
            long start = Simulator.START_NANOS;
            LayeredSession session = new LayeredSession(net, "S", parents, LayerRates.doubling(6, 20_000), LayeredScenarios.cfg(),
                    start, 0, seed);
            // The bus's delay between two receivers: their links to R1, 5 ms each; up to the source, 30 ms.
            assertThat(session.treeDelayNanos("E1", "E2")).isEqualTo(10 * MS);
            assertThat(session.treeDelayNanos("E3", "E3")).isZero();
            assertThat(session.treeDelayNanos("E4", "S")).isEqualTo(30 * MS);
            List<RlmReceiver> rs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                long own = seed * 1000 + i;
                session.receiver("E" + (i + 1), s -> {
                    RlmReceiver r = shared ? (RlmReceiver) Controllers.of(Protocol.RLM, LayeredScenarios.cfg(), s, own)
                            : RlmReceiver.inSession(s, own, false);
                    rs.add(r);
                    return r;
                }, start + 3 * SECOND + random.nextLong(SECOND));
            }
            net.runUntil(start + seconds * SECOND);
            long experiments = rs.stream().mapToLong(r -> r.activity().experiments()).sum();
            if (shared) {
                assertThat(session.rlmLearning().members()).isEqualTo(4);
                assertThat(session.rlmLearning().messagesSent()).as("seed %d", seed).isEqualTo(experiments);
            }
            return rs;
        }
    }

    /** The grafts and prunes a receiver asks for, with their instants. */
    private static final class Subscriber implements LayerSubscriber {
        private final List<long[]> joins = new ArrayList<>();
        private final Map<Integer, Long> left = new HashMap<>();

        @Override
        public void join(int layer, long now) {
            joins.add(new long[] {layer, now});
        }

        @Override
        public void leave(int layer, long now) {
            left.put(layer, now);
        }

        /** The last join of {@code layer}, {layer, instant}; null when none. */
        long[] last(int layer) {
            for (int i = joins.size() - 1; i >= 0; i--) {
                if (joins.get(i)[0] == layer) {
                    return joins.get(i);
                }
            }
            return null;
        }

        long leftAt(int layer) {
            return left.getOrDefault(layer, -1L);
        }
    }

    /**
     * Receivers behind a bottleneck that carries levels up to {@code capacity}, on virtual time: every
     * {@link #STEP} each receiver gets one packet of each layer it holds (100 a second); once the
     * highest level any of them holds has been above the capacity for {@code latency} (the queue
     * filling), every other packet of every layer is lost until none is. Loss from {@link #lossFrom}
     * until {@link #lossUntil} is the same, scripted.
     */
    private static final class Bottleneck {
        static final long STEP = 10 * MS;
        private final List<RlmReceiver> receivers = new ArrayList<>();
        private final List<long[]> sequences = new ArrayList<>();
        private final long latency;
        int capacity;
        long now;
        long lossFrom = Long.MAX_VALUE;
        long lossUntil = Long.MAX_VALUE;
        private long overSince = -1;

        Bottleneck(int capacity, long latency) {
            this.capacity = capacity;
            this.latency = latency;
        }

        RlmReceiver add(LayerSubscriber subscriber, long seed, RlmSharedLearning.Member member) {
            RlmReceiver r = new RlmReceiver(1, subscriber, seed, member);
            r.onAnnouncement(ANNOUNCEMENT, now);
            r.join(now);
            receivers.add(r);
            sequences.add(new long[ANNOUNCEMENT.layers().count()]);
            return r;
        }

        void runUntil(long t) {
            while (now < t) {
                step();
            }
        }

        /** Steps until {@code done} holds, false if {@code limit} of virtual time passes first. */
        boolean runUntil(BooleanSupplier done, long limit) {
            long until = now + limit;
            while (!done.getAsBoolean()) {
                if (now >= until) {
                    return false;
                }
                step();
            }
            return true;
        }

        private void step() {
            int highest = -1;
            for (RlmReceiver r : receivers) {
                for (int i = 0; r.nextDeadlineNanos() <= now; i++) {
                    assertThat(i).as("timer at %d ns does not move on", now).isLessThan(100);
                    r.onTimer(now);
                }
                highest = Math.max(highest, r.level());
            }
            overSince = highest <= capacity ? -1 : overSince < 0 ? now : overSince;
            boolean lossy = overSince >= 0 && now - overSince >= latency || now >= lossFrom && now < lossUntil;
            for (int k = 0; k < receivers.size(); k++) {
                RlmReceiver r = receivers.get(k);
                long[] seq = sequences.get(k);
                for (int layer = 0; layer <= r.level(); layer++) {
                    long s = seq[layer]++;
                    if (!lossy || s % 2 == 0) {
                        r.onPacket(new LayeredPacket(1, 0, layer, s, 0, true, 2, 1), now);
                    }
                }
            }
            now += STEP;
        }
    }
}

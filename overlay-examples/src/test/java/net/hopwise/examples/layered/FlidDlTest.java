package net.hopwise.examples.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import net.hopwise.multicast.layered.LayerSubscriber;
import net.hopwise.multicast.layered.LayeredOutput;
import net.hopwise.multicast.layered.LayeredPacket;
import net.hopwise.multicast.layered.SessionAnnouncement;
import org.junit.jupiter.api.Test;

/** FLID-DL's dynamic layering, its increase signals and its receiver's per-slot rules, on virtual time. */
class FlidDlTest {
    private static final long SLOT = FlidDl.SLOT;
    private final FlidDl flid = FlidDl.defaults(0.06);

    @Test
    void aDynamicGroupFallsOneLayerEachSlotRestsThenReturnsAsTheTopLayer() {
        int top = flid.layers() - 1;
        for (int g = 1; g < flid.groups(); g++) {
            long t0 = 0;
            while (flid.layerOf(g, t0) != top) {
                t0++;
            }
            for (int k = 0; k < top; k++) {
                assertThat(flid.layerOf(g, t0 + k)).isEqualTo(top - k);
                if (k > 0 && top - k >= 1 && top - k + 1 >= 2) {
                    // Each slot the group's rate falls by the factor C.
                    assertThat((double) flid.groupRate(g, t0 + k - 1) / flid.groupRate(g, t0 + k))
                            .isCloseTo(FlidDl.FACTOR, org.assertj.core.data.Offset.offset(0.01));
                }
            }
            for (int k = top; k < top + flid.quiescentSlots(); k++) {
                assertThat(flid.layerOf(g, t0 + k)).as("silent").isGreaterThanOrEqualTo(flid.layers());
                assertThat(flid.groupRate(g, t0 + k)).isZero();
            }
            assertThat(flid.layerOf(g, t0 + top + flid.quiescentSlots())).isEqualTo(top);
        }
        for (long t = 0; t < 100; t++) {
            for (int l = 0; l < flid.layers(); l++) {
                assertThat(flid.layerOf(flid.groupOf(l, t), t)).isEqualTo(l);
            }
        }
        assertThat(flid.groupRate(0, 7)).isEqualTo(12_000);
    }

    /**
     * Without loss the expected increase per slot is one packet per simulated round trip per
     * round trip (8 M T / RTT^2 bit/s), and the signal allows the levels 0..s together.
     */
    @Test
    void increaseSignalsAddOnePacketPerRoundTripPerRoundTripAndAreNested() {
        double perSlot = 8.0 * 512 * 0.5 / (0.06 * 0.06);
        int capped = 0;
        for (int i = 0; i < flid.layers() - 1; i++) {
            double p = flid.increaseProbability(i);
            double step = flid.rates().cumulative(i + 1) - flid.rates().cumulative(i);
            if (p < 1) {
                assertThat(p * step).isCloseTo(perSlot, org.assertj.core.data.Percentage.withPercentage(1e-9));
            } else {
                capped++;
                assertThat(step).isLessThanOrEqualTo(perSlot);
            }
            if (i > 0) {
                assertThat(p).isLessThanOrEqualTo(flid.increaseProbability(i - 1));
            }
        }
        assertThat(capped).isBetween(1, flid.layers() - 2);
        assertThat(flid.increaseProbability(flid.layers() - 1)).isZero();
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int k = 0; k < 1000; k++) {
            double u = random.nextDouble();
            int s = flid.signal(u);
            for (int i = 0; i < flid.layers() - 1; i++) {
                assertThat(i <= s).as("u %s level %d", u, i).isEqualTo(u < flid.increaseProbability(i));
            }
        }
    }

    /** Each group sends its current layer's rate; every packet of a slot carries the slot and its one signal. */
    @Test
    void theSenderSendsEachGroupAtItsLayersRateForTheSlot() {
        // A round trip of 1 s makes the signals' probabilities fall below 1 at these rates, so that they vary.
        FlidDl small = new FlidDl(8, net.hopwise.multicast.layered.LayerRates.multiplicative(8, 12_000, 1.3), SLOT, 2,
                1.0, 512);
        List<LayeredPacket> sent = new ArrayList<>();
        long[] at = new long[1];
        List<Long> times = new ArrayList<>();
        FlidDlSender sender = new FlidDlSender(1, small, 0, new LayeredOutput() {
            @Override
            public void data(LayeredPacket header, long now) {
                sent.add(header);
                times.add(now);
            }

            @Override
            public void announce(SessionAnnouncement announcement, long now) {
            }
        }, 3);
        long slots = 2000;
        while ((at[0] = sender.nextDeadlineNanos()) < slots * SLOT) {
            sender.onTimer(at[0]);
        }
        Map<Long, Long> signalOf = new HashMap<>();
        long[][] count = new long[(int) slots][small.groups()];
        for (int i = 0; i < sent.size(); i++) {
            LayeredPacket p = sent.get(i);
            assertThat(times.get(i) / SLOT).isEqualTo(p.epoch());
            assertThat(signalOf.computeIfAbsent(p.epoch(), e -> p.objectId())).isEqualTo(p.objectId());
            count[(int) p.epoch()][p.layer()]++;
            assertThat(small.groupRate(p.layer(), p.epoch())).as("a silent group sends nothing").isPositive();
        }
        // Over many slots each layer's packets average its rate, whichever group carried it.
        for (int l = 0; l < small.layers(); l++) {
            long packets = 0;
            for (long t = 0; t < slots; t++) {
                packets += count[(int) t][small.groupOf(l, t)];
            }
            double expected = small.rates().rate(l) * slots * 0.5 / (8 * 512);
            assertThat((double) packets).as("layer %d", l).isCloseTo(expected, org.assertj.core.data.Percentage.withPercentage(10));
        }
        assertThat(signalOf.values().stream().distinct().count()).isGreaterThan(1);
        assertThat(signalOf.values()).allSatisfy(v -> assertThat(v).isBetween(0L, (long) small.layers() - 1));
    }

    /** Keeping a level costs one join a slot; the group left is the one that just fell silent. */
    @Test
    void withoutSignalOrLossTheLevelHoldsByJoiningOneGroupASlot() {
        Harness h = new Harness();
        h.climbTo(5);
        long first = h.slot + 1;
        for (long t = first; t < first + 5; t++) {
            h.record.clear();
            h.slot(t, -1, -1);
            assertThat(h.receiver.level()).isEqualTo(5);
            assertThat(h.joins()).containsExactly(flid.groupOf(5, t));
            assertThat(h.leaves()).hasSize(1);
            assertThat(flid.layerOf(h.leaves().get(0), t)).as("the group left is silent").isGreaterThanOrEqualTo(flid.layers());
            assertThat(h.held).isEqualTo(h.groupsOf(5, t));
        }
    }

    /** A signal covering the level raises it by one at the next slot, not before: two joins then. */
    @Test
    void aSignalCoveringTheLevelRaisesItByOneAtTheNextSlot() {
        Harness h = new Harness();
        h.climbTo(3);
        long t = h.slot + 1;
        h.record.clear();
        h.slot(t, 3, -1);
        assertThat(h.receiver.level()).isEqualTo(3);
        h.record.clear();
        h.slot(t + 1, -1, -1);
        assertThat(h.receiver.level()).isEqualTo(4);
        assertThat(h.joins()).containsExactlyInAnyOrder(flid.groupOf(3, t + 1), flid.groupOf(4, t + 1));
        assertThat(h.held).isEqualTo(h.groupsOf(4, t + 1));
        // A signal for lower levels only does not raise it.
        h.slot(t + 2, 3, -1);
        h.slot(t + 3, -1, -1);
        assertThat(h.receiver.level()).isEqualTo(4);
    }

    /** A loss lowers the level by one at the end of the slot (none joined), never within it, signal or not. */
    @Test
    void aLossLowersTheLevelByOneAtTheEndOfTheSlot() {
        Harness h = new Harness();
        h.climbTo(6);
        long t = h.slot + 1;
        h.slot(t, 20, flid.groupOf(4, t));
        assertThat(h.receiver.level()).as("the level holds for the rest of the slot").isEqualTo(6);
        h.record.clear();
        h.slot(t + 1, -1, -1);
        assertThat(h.receiver.level()).isEqualTo(5);
        assertThat(h.joins()).isEmpty();
        assertThat(h.held).isEqualTo(h.groupsOf(5, t + 1));
    }

    /** A loss on the base layer alone exits the session; it rejoins 30 s later. */
    @Test
    void aLossAtTheBaseLayerExitsAndRejoinsLater() {
        Harness h = new Harness();
        h.slot(0, -1, -1);
        h.slot(1, -1, 0);
        h.slot(2, -1, -1);
        assertThat(h.receiver.level()).isEqualTo(-1);
        assertThat(h.held).isEmpty();
        long exit = 2 * SLOT + 1;
        assertThat(h.receiver.nextDeadlineNanos()).isEqualTo(exit + FlidDlReceiver.REJOIN);
        h.receiver.onTimer(exit + FlidDlReceiver.REJOIN);
        assertThat(h.receiver.level()).isZero();
        assertThat(h.held).containsExactly(0);
    }

    /** Drives a receiver with one packet per held group per slot, consecutive per group unless a loss is asked for. */
    private final class Harness implements LayerSubscriber {
        final FlidDlReceiver receiver = new FlidDlReceiver(1, flid, this);
        final TreeSet<Integer> held = new TreeSet<>();
        final List<int[]> record = new ArrayList<>();
        final long[] sequence = new long[flid.groups()];
        long slot = -1;

        Harness() {
            receiver.join(0);
        }

        @Override
        public void join(int layer, long nowNanos) {
            held.add(layer);
            record.add(new int[] {layer, 1});
        }

        @Override
        public void leave(int layer, long nowNanos) {
            held.remove(layer);
            record.add(new int[] {layer, 0});
        }

        List<Integer> joins() {
            return record.stream().filter(r -> r[1] == 1).map(r -> r[0]).toList();
        }

        List<Integer> leaves() {
            return record.stream().filter(r -> r[1] == 0).map(r -> r[0]).toList();
        }

        TreeSet<Integer> groupsOf(int level, long t) {
            TreeSet<Integer> g = new TreeSet<>();
            for (int l = 0; l <= level; l++) {
                g.add(flid.groupOf(l, t));
            }
            return g;
        }

        /**
         * Slot {@code t}: a packet on the base layer first (it reveals the new slot, so the receiver
         * decides on the last one), then one on each group held after that decision.
         */
        void slot(long t, int signal, int lossOnGroup) {
            slot = t;
            long now = t * SLOT + 1;
            send(0, t, signal, lossOnGroup, now);
            for (int g : new ArrayList<>(held)) {
                if (g != 0) {
                    send(g, t, signal, lossOnGroup, now);
                }
            }
        }

        private void send(int g, long t, int signal, int lossOnGroup, long now) {
            if (g == lossOnGroup) {
                sequence[g]++;
            }
            receiver.onPacket(new LayeredPacket(1, signal + 1, g, sequence[g]++, 0, false, 2, t), now);
        }

        void climbTo(int level) {
            long t = 0;
            while (receiver.level() < level) {
                slot(t++, receiver.level(), -1);
            }
            // One slot without a signal, so that the level is settled for the caller.
            slot(t, -1, -1);
            assertThat(receiver.level()).isEqualTo(level);
        }
    }
}

package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ERA source: constant-rate layers in bunches, announcements, and no receiver state or feedback. */
class EraSenderTest {
    private static final long SECOND = 1_000_000_000L;

    private record Sent(long at, LayeredPacket p) {
    }

    private static final class Capture implements LayeredOutput {
        final List<Sent> data = new ArrayList<>();
        final List<Long> announced = new ArrayList<>();

        @Override
        public void data(LayeredPacket header, long nowNanos) {
            data.add(new Sent(nowNanos, header));
        }

        @Override
        public void announce(SessionAnnouncement announcement, long nowNanos) {
            assertThat(announcement.sentAtMicros()).isEqualTo(nowNanos / 1000);
            announced.add(nowNanos);
        }
    }

    private static Capture run(EraSender sender, Capture out, long until) {
        while (sender.nextDeadlineNanos() <= until) {
            sender.onTimer(sender.nextDeadlineNanos());
        }
        return out;
    }

    @Test
    void everyLayerKeepsItsRateInBunchesOfBackToBackPackets() {
        Capture out = new Capture();
        LayerRates rates = LayerRates.of(20_000, 40_000, 100_000);
        EraConfig config = EraConfig.builder().bunchLength(3).build();
        EraSender sender = new EraSender(5, 9, rates, config, 0, SECOND, out);
        run(sender, out, 11 * SECOND - 1);
        for (int j = 0; j < 3; j++) {
            int layer = j;
            long n = out.data.stream().filter(s -> s.p.layer() == layer).count();
            double expected = rates.rate(j) * 10.0 / (8 * 512);
            assertThat((double) n).as("layer %d", j).isBetween(expected - 3, expected + 3);
        }
        for (int i = 0; i < out.data.size(); i += 3) {
            Sent first = out.data.get(i);
            assertThat(first.p.firstOfBunch()).isTrue();
            for (int k = 1; k < 3; k++) {
                Sent s = out.data.get(i + k);
                assertThat(s.p.firstOfBunch()).isFalse();
                assertThat(s.at).isEqualTo(first.at);
                assertThat(s.p.layer()).isEqualTo(first.p.layer());
                assertThat(s.p.sequence()).isEqualTo(first.p.sequence() + k);
                assertThat(s.p.bunchLength()).isEqualTo(3);
            }
        }
        assertThat(out.announced).hasSize(10);
        assertThat(out.announced.get(1) - out.announced.get(0)).isEqualTo(SECOND);
    }

    @Test
    void announcementsComeEveryNIntervalsFromTheEpochStart() {
        Capture out = new Capture();
        EraSender sender = new EraSender(5, 9, LayerRates.equal(4, 20_000),
                EraConfig.builder().announceEveryIntervals(3).build(), 0, 2 * SECOND, out);
        run(sender, out, 12 * SECOND);
        assertThat(out.announced).containsExactly(2 * SECOND, 5 * SECOND, 8 * SECOND, 11 * SECOND);
        assertThat(sender.announcement().epochStartMicros()).isEqualTo(2_000_000);
    }

    /**
     * A 20 Kbit/s layer's pairs are 409.6 ms apart, 50 times a 500 Kbit/s CBR flow's packet time
     * of 512 bytes: on an exact grid every pair meets that flow at the same phase, so it splits
     * them always or never. Off the grid by up to 2% of the spacing, the phases spread over most of
     * the 8.192 ms, while each bunch stays within 8.2 ms of its grid point and the rate is kept.
     */
    @Test
    void bunchesMoveOffTheGridEnoughToMeetPeriodicTrafficAtEveryPhase() {
        EraConfig[] configs = {EraConfig.builder().bunchJitter(0).build(), EraConfig.defaults()};
        for (int c = 0; c < configs.length; c++) {
            EraConfig config = configs[c];
            double jitter = config.bunchJitter();
            Capture out = new Capture();
            EraSender sender = new EraSender(1, 1, LayerRates.equal(3, 20_000), config, 0, SECOND, out, 42);
            run(sender, out, 61 * SECOND - 1);
            List<Long> firsts = out.data.stream().filter(s -> s.p.layer() == 0 && s.p.firstOfBunch()).map(Sent::at).toList();
            assertThat(firsts).hasSizeBetween(145, 148).isSorted();
            double spacing = 409_600_000;
            long period = 8_192_000;
            long lowest = Long.MAX_VALUE;
            long highest = Long.MIN_VALUE;
            for (int k = 0; k < firsts.size(); k++) {
                double grid = firsts.get(0) + k * spacing;
                assertThat(Math.abs(firsts.get(k) - grid)).isLessThanOrEqualTo((long) (2 * jitter * spacing) + 1);
                long phase = Math.floorMod(firsts.get(k) - firsts.get(0) + period / 2, period);
                lowest = Math.min(lowest, phase);
                highest = Math.max(highest, phase);
            }
            if (c == 0) {
                assertThat(highest - lowest).as("on the grid").isLessThanOrEqualTo(1);
            } else {
                assertThat(highest - lowest).as("off the grid by default").isGreaterThan(period * 3 / 4);
            }
        }
    }

    @Test
    void theSenderKeepsNoReceiverStateAndTakesNoFeedback() {
        // Its only input is time: no public method takes anything but a long.
        for (Method m : EraSender.class.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers())) {
                assertThat(m.getParameterTypes()).as(m.toString()).allMatch(t -> t == long.class);
            }
        }
        // Its state is fixed at construction: final fields of fixed size, no collection to grow per receiver.
        Set<Class<?>> allowed = Set.of(int.class, long.class, long[].class, double[].class, LayerRates.class,
                EraConfig.class, LayeredOutput.class, SessionAnnouncement.class);
        for (Field f : EraSender.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                assertThat(Modifier.isFinal(f.getModifiers())).as("a constant: %s", f).isTrue();
                continue;
            }
            assertThat(allowed).as(f.toString()).contains(f.getType());
            if (!f.getName().equals("announcements") && !f.getName().equals("packetsSent")) {
                assertThat(Modifier.isFinal(f.getModifiers())).as(f.toString()).isTrue();
            }
        }
        // And what it sends depends on time alone: two senders driven differently agree packet for packet.
        Capture one = new Capture();
        Capture other = new Capture();
        EraSender s1 = new EraSender(1, 1, LayerRates.equal(10, 20_000), EraConfig.defaults(), 0, SECOND, one);
        EraSender s2 = new EraSender(1, 1, LayerRates.equal(10, 20_000), EraConfig.defaults(), 0, SECOND, other);
        run(s1, one, 5 * SECOND);
        for (long t = SECOND; t <= 5 * SECOND; t += 1_000_000) {
            s2.onTimer(t);
        }
        assertThat(other.data).hasSize(one.data.size()).isNotEmpty();
        assertThat(other.data.stream().map(s -> s.p.layer() + ":" + s.p.sequence()).sorted().toList())
                .isEqualTo(one.data.stream().map(s -> s.p.layer() + ":" + s.p.sequence()).sorted().toList());
    }
}

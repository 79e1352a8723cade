package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Seeded properties of ERA's layer choice and of a receiver behind one bottleneck. */
class EraProperties {
    @Property
    void theStrictLayerChoiceIsTheHighestLevelStrictlyBelowTheTarget(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] rates = new long[1 + r.nextInt(40)];
        for (int i = 0; i < rates.length; i++) {
            rates[i] = 1 + r.nextInt(200_000);
        }
        LayerRates layers = LayerRates.of(rates);
        double target = r.nextDouble() * layers.cumulative(rates.length - 1) * 1.2;
        int strict = layers.levelFor(target, true);
        if (strict >= 0) {
            assertThat(layers.cumulative(strict)).isLessThan(Math.round(target));
        }
        if (strict + 1 < rates.length) {
            assertThat(layers.cumulative(strict + 1)).isGreaterThanOrEqualTo(Math.round(target));
        }
        int loose = layers.levelFor(target, false);
        assertThat(loose).isGreaterThanOrEqualTo(strict);
        if (loose >= 0) {
            assertThat((double) layers.cumulative(loose)).isLessThanOrEqualTo(target);
        }
    }

    @Property
    void padhyesRateFallsAsLossRises(@ForAll @IntRange(min = 1, max = 9999) int a, @ForAll @IntRange(min = 1, max = 9999) int b,
            @ForAll @IntRange(min = 1, max = 500) int rttMillis) {
        double l1 = Math.min(a, b) / 10_000.0;
        double l2 = Math.max(a, b) / 10_000.0;
        double rtt = rttMillis / 1000.0;
        assertThat(TcpFriendlyRate.padhye(l1, rtt, 512, 4)).isGreaterThanOrEqualTo(TcpFriendlyRate.padhye(l2, rtt, 512, 4));
    }

    /**
     * A sender's real bunches through a FIFO bottleneck of capacity C with room for everything (no
     * loss): whatever C, the receiver ends at the highest level strictly below the dispersion it
     * measures, which is C up to the bottleneck's rounding to whole nanoseconds.
     */
    @Property(tries = 60)
    void aReceiverConvergesToTheHighestLevelItsBottleneckCarries(@ForAll @LongRange(min = 25_000, max = 2_500_000) long capacity,
            @ForAll @IntRange(min = 0, max = 900) int joinMillis) {
        long second = 1_000_000_000L;
        LayerRates layers = LayerRates.equal(100, 20_000);
        EraConfig config = EraConfig.defaults();
        long service = (8L * config.packetBytes() * second + capacity - 1) / capacity;
        long[] busyUntil = {0};
        EraReceiver[] receiver = new EraReceiver[1];
        int[] held = {-1};
        receiver[0] = new EraReceiver(1, config, RttEstimator.fixed(Duration.ofMillis(50)), new LayerSubscriber() {
            @Override
            public void join(int layer, long nowNanos) {
                held[0] = layer;
            }

            @Override
            public void leave(int layer, long nowNanos) {
                held[0] = layer - 1;
            }
        }, null);
        java.util.PriorityQueue<long[]> arrivals = new java.util.PriorityQueue<>((x, y) -> Long.compare(x[0], y[0]) != 0
                ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
        java.util.List<Object> payloads = new java.util.ArrayList<>();
        EraSender sender = new EraSender(1, 1, layers, config, 0, second, new LayeredOutput() {
            @Override
            public void data(LayeredPacket header, long nowNanos) {
                if (header.layer() > held[0]) {
                    return;
                }
                long departs = Math.max(nowNanos, busyUntil[0]) + service;
                busyUntil[0] = departs;
                payloads.add(header);
                arrivals.add(new long[] {departs + 10_000_000, payloads.size() - 1});
            }

            @Override
            public void announce(SessionAnnouncement a, long nowNanos) {
                payloads.add(a);
                arrivals.add(new long[] {nowNanos + 10_000_000, payloads.size() - 1});
            }
        });
        long join = second + 1_500_000_000L + joinMillis * 1_000_000L;
        boolean joined = false;
        long end = join + 12 * second;
        while (true) {
            long next = Math.min(sender.nextDeadlineNanos(), receiver[0].nextDeadlineNanos());
            if (!arrivals.isEmpty()) {
                next = Math.min(next, arrivals.peek()[0]);
            }
            if (!joined) {
                next = Math.min(next, join);
            }
            if (next > end) {
                break;
            }
            if (!joined && next == join) {
                joined = true;
                receiver[0].join(join);
            } else if (!arrivals.isEmpty() && arrivals.peek()[0] == next) {
                Object p = payloads.get((int) arrivals.poll()[1]);
                if (p instanceof LayeredPacket lp) {
                    receiver[0].onPacket(lp, next);
                } else {
                    receiver[0].onAnnouncement((SessionAnnouncement) p, next);
                }
            } else if (sender.nextDeadlineNanos() == next) {
                sender.onTimer(next);
            } else {
                receiver[0].onTimer(next);
            }
        }
        double measured = 8.0 * config.packetBytes() * second / service;
        assertThat(receiver[0].level()).isEqualTo(layers.levelFor(measured, true));
        assertThat(held[0]).isEqualTo(receiver[0].level());
    }
}

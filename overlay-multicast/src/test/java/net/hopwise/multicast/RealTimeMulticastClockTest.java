package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.spi.RealTimeStatistics;
import org.junit.jupiter.api.Test;

/**
 * A real-time group whose source, relay and member run on clocks hours apart, as three machines'
 * monotonic clocks are: the member's delays are the tree's, since each relay reads the source's send
 * time onto its own clock.
 */
class RealTimeMulticastClockTest {
    private static final long MS = 1_000_000;
    private static final long HOUR = 3_600_000 * MS;

    @Test
    void aMembersDelaysAreTheTreesWhateverTheClocks() {
        try (SimNetwork net = new SimNetwork(5, b -> b.module(new MulticastModule()))) {
            net.node("a").clockOffsetNanos(-40 * HOUR);
            net.node("b").clockOffsetNanos(2 * HOUR);
            net.node("c").clockOffsetNanos(11 * HOUR + 123 * MS);
            net.link("a", "b", LinkSpec.delay(Duration.ofMillis(5)));
            net.link("b", "c", LinkSpec.delay(Duration.ofMillis(7)));
            net.start();
            net.runFor(Duration.ofSeconds(3));
            int[] delivered = {0};
            net.nodeNamed("c").interact(s -> s.module(Multicast.class).join("talk", 5004, m -> delivered[0]++));
            net.runFor(Duration.ofSeconds(2));
            RealTimeGroupSender[] sender = new RealTimeGroupSender[1];
            net.nodeNamed("a").interact(s -> sender[0] = s.module(Multicast.class).realTimeSender("talk", 5004, null,
                    Duration.ofMillis(100)));
            byte[] frame = new byte[160];
            for (int i = 0; i < 200; i++) {
                net.nodeNamed("a").interact(s -> assertThat(sender[0].send(frame).accepted()).isTrue());
                net.runFor(Duration.ofMillis(20));
            }
            net.runFor(Duration.ofMillis(500));
            List<RealTimeMemberStatistics> streams = net.engine("c").module(Multicast.class).realTimeStatistics("talk");
            assertThat(streams).hasSize(1);
            RealTimeStatistics s = streams.get(0).stats();
            assertThat(delivered[0]).isEqualTo(200);
            assertThat(s.received()).isEqualTo(200);
            assertThat(s.late()).as("none late against a 100 ms deadline").isZero();
            assertThat(s.minDelayNanos()).isBetween(12 * MS, 12 * MS + MS / 10);
            assertThat(s.maxDelayNanos()).isLessThan(12 * MS + MS / 10);
        }
    }
}

package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.List;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.RealTimeStatistics;
import net.hopwise.overlay.testing.VirtualOverlay;
import org.junit.jupiter.api.Test;

/** Real-time multicast on virtual time: recovery on lossy tree links, drop-late, the API's checks. */
class RealTimeMulticastTest {
    private static final long MS = RealTimeScenario.MS;

    @Test
    void residualLossAtMembersIsNearTheModelAtFivePercentPerLink() {
        int packets = 2000;
        RealTimeScenario.Result r = RealTimeScenario.run(17, 0.05, packets, 10, 5, Duration.ofMillis(100));
        // 2p^2 - 3p^3 = 0.46% per link at p = 5%: about 9 packets per hop of 2000, 65 over the four
        // members' seven hops; plain forwarding would lose 5% per hop, about 700 (ten times the model).
        assertThat(r.lossOverModel(packets)).as("observed over model loss").isBetween(0.5, 1.6);
        for (RealTimeStatistics s : r.stats().values()) {
            assertThat(s.late()).isZero();
            assertThat(s.duplicates()).isZero();
            assertThat(s.recovered()).as("recovered on the way").isGreaterThan(packets / 40);
            assertThat(s.minDelayNanos()).isIn(5 * MS, 10 * MS);
            assertThat(s.jitterNanos()).isGreaterThan(0);
        }
        assertThat(r.stats().get("e").recovered()).as("one lossy hop recovers less than two")
                .isLessThan(r.stats().get("c").recovered());
        r.inboxes().forEach((m, inbox) -> assertThat((long) inbox.size()).as(m)
                .isEqualTo(r.stats().get(m).received()).isEqualTo(packets + RealTimeScenario.TAIL
                        - r.stats().get(m).lost()));
    }

    @Test
    void packetsPastTheirDeadlineAreCountedAndNeverDelivered() {
        // 40 ms: an original crosses two 5 ms hops in 10 ms, a recovery on one hop takes about 20 more,
        // and a second recovery on the next hop would arrive too late: the relay does not even try.
        int packets = 800;
        RealTimeScenario.Result r = RealTimeScenario.run(23, 0.10, packets, 10, 5, Duration.ofMillis(40));
        assertThat(r.maxDeliveredDelayNanos()).isLessThanOrEqualTo(40 * MS);
        long late = r.stats().values().stream().mapToLong(RealTimeStatistics::late).sum();
        assertThat(late).as("late packets").isEqualTo(r.lateDrops());
        assertThat(r.refusedForDeadline()).as("resends the deadline ruled out at the relays").isPositive();
        r.inboxes().forEach((m, inbox) -> assertThat((long) inbox.size()).as(m)
                .isEqualTo(r.stats().get(m).received() - r.stats().get(m).late()));
    }

    @Test
    void aMemberBeyondTheDeadlineGetsNothingAndCountsEveryPacketLate() {
        try (VirtualOverlay overlay = new VirtualOverlay(3,
                b -> b.module(new MulticastModule()).defaultMetric(RoutingMetric.HOPS))) {
            for (String n : List.of("a", "b", "c")) {
                overlay.node(n);
            }
            overlay.link("a", "b", 20 * MS);
            overlay.link("b", "c", 20 * MS);
            overlay.startAll();
            overlay.runFor(3_000 * MS);
            Inbox atB = new Inbox();
            Inbox atC = new Inbox();
            RealTimeScenario.multicast(overlay, "b").join("g", 1, atB);
            RealTimeScenario.multicast(overlay, "c").join("g", 1, atC);
            overlay.runFor(1_000 * MS);
            RealTimeGroupSender sender = RealTimeScenario.multicast(overlay, "a").realTimeSender("g", 1, null,
                    Duration.ofMillis(30));
            for (int i = 0; i < 20; i++) {
                RealTimeScenario.multicast(overlay, "a");
                assertThat(sender.send(new byte[] {(byte) i}).accepted()).isTrue();
                overlay.runFor(20 * MS);
            }
            overlay.runFor(200 * MS);
            assertThat(atB.size()).as("20 ms away: in time").isEqualTo(20);
            assertThat(atC.size()).as("40 ms away: too late").isZero();
            RealTimeStatistics c = RealTimeScenario.multicast(overlay, "c").realTimeStatistics("g").get(0).stats();
            assertThat(c.received()).isEqualTo(20);
            assertThat(c.late()).isEqualTo(20);
            assertThat(c.minDelayNanos()).isEqualTo(40 * MS);
            RealTimeMemberStatistics b = RealTimeScenario.multicast(overlay, "b").realTimeStatistics("g").get(0);
            assertThat(b.sourceName()).isEqualTo("a");
            assertThat(b.delivered()).isEqualTo(20);
            assertThat(atB.messages.get(5).payload()).containsExactly(5);
            assertThat(atB.messages.get(5).messageId()).isEqualTo(5);
        }
    }

    @Test
    void theApiChecksItsArgumentsAndReturnsOneSenderPerStream() {
        try (VirtualOverlay overlay = new VirtualOverlay(1, b -> b.module(new MulticastModule()))) {
            overlay.node("a");
            overlay.startAll();
            Multicast a = RealTimeScenario.multicast(overlay, "a");
            RealTimeGroupSender s = a.realTimeSender("g", 1, null, null);
            assertThat(s.deadline()).isEqualTo(RealTimeGroupSender.DEFAULT_DEADLINE);
            assertThat(a.realTimeSender("g", 1, null, Duration.ofMillis(5))).isSameAs(s);
            assertThat(a.realTimeSender("g", 2, null, null)).isNotSameAs(s);
            assertThatThrownBy(() -> a.realTimeSender("g", -1, null, null)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> a.realTimeSender("g", 1, RoutingMetric.HOPS, Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(s.send(new byte[s.maxPayload() + 1]).status()).isEqualTo(SendResult.Status.TOO_LARGE);
            ByteBuf payload = Unpooled.wrappedBuffer(new byte[] {1, 2, 3});
            assertThat(s.send(payload).accepted()).isTrue();
            assertThat(payload.readableBytes()).as("the caller's buffer is left as it was").isEqualTo(3);
            assertThat(s.packetsSent()).isEqualTo(1);
            assertThat(a.realTimeStatistics("g")).isEmpty();
        }
    }
}

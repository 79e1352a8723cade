package net.hopwise.overlay.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.reliable.ReliableLinkConfig;
import net.hopwise.overlay.reliable.ReliableLinkStatistics;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.PacketType;
import org.junit.jupiter.api.Test;

/**
 * The receiving edge's session acknowledgements travel on the reliable link back to the sending
 * edge, and the link acknowledges them in turn. Nobody waits on that second acknowledgement, so the
 * sending edge holds it (up to {@link ReliableLinkConfig#ackDelay()}) for its next data packet to
 * carry, instead of answering every session acknowledgement with a datagram of its own.
 */
class LinkAckDelayTest {
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;
    private static final int MESSAGES = 3000;

    /** What one bulk transfer a to b put on the wire. */
    private record Run(long sessionAckPackets, long standaloneLinkAcks, ReliableLinkStatistics reverse,
            long linkAcksAfterIdle) {}

    private static Run transfer(Duration ackDelay) {
        try (VirtualOverlay o = new VirtualOverlay(7, b -> b.reliableLink(
                ReliableLinkConfig.builder().ackDelay(ackDelay).build()))) {
            o.node("a");
            o.node("b");
            o.link("a", "b", 100 * US);
            o.startAll();
            o.runFor(3000 * MS);
            SessionScenario s = new SessionScenario(o, "a", "b");
            s.open(RoutingMetric.HOPS);
            SplittableRandom r = new SplittableRandom(3);
            int[] lengths = new int[MESSAGES];
            Arrays.fill(lengths, 1000);
            long reliableBefore = o.datagrams("b", "a", PacketType.RELIABLE_DATA);
            long linkAcksBefore = o.datagrams("a", "b", PacketType.LINK_ACK);
            s.run(MESSAGES, lengths, 10 * US, 10_000 * MS, r, null);
            assertThat(s.received).hasSize(MESSAGES);
            for (int i = 0; i < MESSAGES; i++) {
                assertThat(Arrays.equals(s.received.get(i), s.sent.get(i))).as("message %d", i).isTrue();
            }
            long sessionAcks = o.datagrams("b", "a", PacketType.RELIABLE_DATA) - reliableBefore;
            long linkAcks = o.datagrams("a", "b", PacketType.LINK_ACK) - linkAcksBefore;
            // With no data left to carry it, the acknowledgement held last still leaves: b's link
            // keeps nothing unacknowledged once the flow has ended.
            o.runFor(50 * MS);
            ReliableLinkStatistics reverse = o.engine("b").neighbour(NodeId.ofName("a")).reliableStatistics();
            long afterIdle = o.datagrams("a", "b", PacketType.LINK_ACK) - linkAcksBefore - linkAcks;
            return new Run(sessionAcks, linkAcks, reverse, afterIdle);
        }
    }

    @Test
    void sessionAcknowledgementsDoNotDrawLinkAcknowledgementsOfTheirOwn() {
        Run held = transfer(ReliableLinkConfig.DEFAULT_ACK_DELAY);
        Run immediate = transfer(Duration.ZERO);

        assertThat(held.sessionAckPackets()).isGreaterThan(MESSAGES / 20);
        // Acknowledged at once, almost every session acknowledgement is answered by a link
        // acknowledgement (a's data is not always ready at that moment); held, almost none is.
        assertThat(immediate.standaloneLinkAcks()).isGreaterThan(immediate.sessionAckPackets() / 2);
        assertThat(held.standaloneLinkAcks()).isLessThan(held.sessionAckPackets() / 10);

        // Held acknowledgements still arrive before b's link would resend or probe anything.
        assertThat(held.reverse().retransmissions()).isZero();
        assertThat(held.reverse().tailProbes()).isZero();
        assertThat(held.reverse().timeouts()).isZero();
        assertThat(held.reverse().unacknowledged()).isZero();
        assertThat(held.linkAcksAfterIdle()).isPositive();
    }
}

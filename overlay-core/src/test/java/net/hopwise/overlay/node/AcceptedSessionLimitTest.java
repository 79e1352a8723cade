package net.hopwise.overlay.node;

import static net.hopwise.overlay.node.TwoNodeWire.MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionConfig;
import net.hopwise.overlay.session.SessionEndpoint;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node takes a bounded number of sessions from other nodes, and the sender of one refused for
 * lack of room gets through once room is made: it retries end to end.
 */
class AcceptedSessionLimitTest {
    private final TwoNodeWire wire = new TwoNodeWire(b -> b.session(SessionConfig.builder().maxAcceptedSessions(2).build()));

    @AfterEach
    void close() {
        wire.close();
    }

    private SessionEndpoint open(int localPort) {
        SessionEndpoint s = wire.a.openSession(localPort, NodeId.ofName("b"), 9, RoutingMetric.LATENCY, m -> {}, null,
                wire.now());
        assertThat(wire.a.sessionSend(s, Unpooled.wrappedBuffer(new byte[10]), wire.now()))
                .isEqualTo(SendResult.ACCEPTED);
        return s;
    }

    @Test
    void sessionsBeyondTheLimitAreRefusedAndCountedUntilOneCloses() {
        int[] delivered = {0};
        wire.b.openPort(9, m -> {});
        wire.b.acceptSessions(9, s -> {
            s.handler(m -> delivered[0]++);
            return true;
        });
        wire.runFor(2_000 * MS);
        open(1);
        open(2);
        open(3);
        wire.runFor(100 * MS);
        assertThat(wire.b.sessions()).hasSize(2);
        assertThat(delivered[0]).isEqualTo(2);
        assertThat(wire.b.counters().drops(DropReason.SESSION_LIMIT)).isPositive();

        wire.b.closeSession(wire.b.sessions().get(0));
        wire.runFor(3_000 * MS);
        assertThat(wire.b.sessions()).hasSize(2);
        assertThat(delivered[0]).isEqualTo(3);
    }
}

package net.hopwise.overlay.node;

import static net.hopwise.overlay.node.TwoNodeWire.MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.time.Duration;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.realtime.RealTimeConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node keeps state for a bounded number of arriving real-time flows: packets of made-up flows
 * cannot grow it without bound, and a flow that went silent gives its slot to a new one.
 */
class RealTimeFlowLimitTest {
    private final TwoNodeWire wire = new TwoNodeWire(b -> b.realTime(RealTimeConfig.builder()
            .maxFlows(2).flowIdleTimeout(Duration.ofSeconds(1)).build()));
    private int delivered;

    @AfterEach
    void close() {
        wire.close();
    }

    private SendResult send(int sourcePort, long sequence) {
        return wire.a.sendRealTime(sourcePort, NodeId.ofName("b"), 9, sequence, Unpooled.wrappedBuffer(new byte[20]),
                RoutingMetric.LATENCY, wire.now());
    }

    @Test
    void newFlowsBeyondTheLimitAreDroppedUntilAnOldOneFallsSilent() {
        wire.b.openPort(9, m -> delivered++);
        wire.runFor(2_000 * MS);
        for (long seq = 1; seq <= 3; seq++) {
            assertThat(send(1, seq)).isEqualTo(SendResult.ACCEPTED);
            assertThat(send(2, seq)).isEqualTo(SendResult.ACCEPTED);
            assertThat(send(3, seq)).isEqualTo(SendResult.ACCEPTED);
            wire.runFor(20 * MS);
        }
        assertThat(delivered).isEqualTo(6);
        assertThat(wire.b.realTimeFlows(9)).hasSize(2);
        assertThat(wire.b.counters().drops(DropReason.FLOW_LIMIT)).isEqualTo(3);

        // Flow 1 keeps talking, flow 2 falls silent for the idle timeout: flow 3 takes its slot.
        for (int i = 0; i < 12; i++) {
            send(1, 10 + i);
            wire.runFor(100 * MS);
        }
        assertThat(send(3, 10)).isEqualTo(SendResult.ACCEPTED);
        wire.runFor(20 * MS);
        assertThat(wire.b.realTimeFlows(9)).hasSize(2)
                .extracting(f -> f.sourcePort()).containsExactlyInAnyOrder(1, 3);
        assertThat(wire.b.counters().drops(DropReason.FLOW_LIMIT)).isEqualTo(3);
    }
}

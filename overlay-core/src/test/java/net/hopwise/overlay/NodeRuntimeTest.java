package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/** The runtime's settings, and nodes on loops that spin before they sleep. */
class NodeRuntimeTest {
    @Test
    void defaultsAreOneThreadNoSpinAndUdpOffload() {
        try (NodeRuntime runtime = NodeRuntime.builder().build()) {
            assertThat(runtime.threads()).isEqualTo(NodeRuntime.DEFAULT_THREADS).isEqualTo(1);
            assertThat(runtime.spinBeforeSleep()).isEqualTo(NodeRuntime.DEFAULT_SPIN_BEFORE_SLEEP).isZero();
            assertThat(runtime.udpOffload()).isEqualTo(NodeRuntime.DEFAULT_UDP_OFFLOAD).isTrue();
        }
        try (NodeRuntime runtime = NodeRuntime.create(2, TransportKind.NIO)) {
            assertThat(runtime.threads()).isEqualTo(2);
            assertThat(runtime.transport()).isEqualTo(TransportKind.NIO);
            assertThat(runtime.toString()).isEqualTo("NodeRuntime[2 thread(s), NIO]");
        }
    }

    @Test
    void badSettingsAreRefusedWithTheirValue() {
        assertThatThrownBy(() -> NodeRuntime.builder().threads(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threads").hasMessageContaining("0");
        assertThatThrownBy(() -> NodeRuntime.builder().spinBeforeSleep(Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spinBeforeSleep");
        assertThatThrownBy(() -> NodeRuntime.builder().spinBeforeSleep(Duration.ofMillis(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT0.002S");
        assertThatThrownBy(() -> NodeRuntime.builder().spinBeforeSleep(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void nodesOnSpinningLoopsOfBothTransportsExchangeMessages() {
        for (TransportKind transport : List.of(TransportKind.AUTO, TransportKind.NIO)) {
            try (NodeRuntime runtime = NodeRuntime.builder().threads(2).transport(transport)
                            .spinBeforeSleep(Duration.ofNanos(50_000)).build();
                    OverlayNode a = OverlayNode.start(NodeConfig.builder("spin-a").loopback(0).build(), runtime);
                    OverlayNode b = OverlayNode.start(NodeConfig.builder("spin-b").loopback(0).build(), runtime)) {
                assertThat(runtime.toString()).contains("spin 50 µs");
                a.addNeighbour(new NeighbourConfig("spin-b", b.localAddress()));
                b.addNeighbour(new NeighbourConfig("spin-a", a.localAddress()));
                List<String> got = new CopyOnWriteArrayList<>();
                b.openPort(7, m -> got.add(new String(m.payloadBytes())));
                OverlayPort port = a.openPort(7, m -> {});
                Eventually.await("a reaches b", () -> a.reachableNodes(RoutingMetric.LATENCY).contains("spin-b"));
                for (int i = 0; i < 10; i++) {
                    assertThat(port.send("spin-b", 7, ("m" + i).getBytes())).isEqualTo(SendResult.ACCEPTED);
                }
                Eventually.await("b receives all ten on " + transport, () -> got.size() == 10);
                assertThat(got).containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9");
            }
        }
    }
}

package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/** Two real nodes over IPv6 loopback, one on NIO and one on the platform's best transport. */
class TransportsAndMetersTest {
    @Test
    void ipv6NodesOnBothTransportsExchangeMessagesAndReportMeters() throws Exception {
        InetAddress v6 = InetAddress.getByName("::1");
        assertThat(v6).isInstanceOf(Inet6Address.class);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (OverlayNode a = OverlayNode.start(NodeConfig.builder("a").bindAddress(new InetSocketAddress(v6, 0))
                        .transport(TransportKind.NIO).meterRegistry(registry).build());
                OverlayNode b = OverlayNode.start(NodeConfig.builder("b").bindAddress(new InetSocketAddress(v6, 0))
                        .meterRegistry(registry).build())) {
            assertThat(a.transport()).isEqualTo(TransportKind.NIO);
            a.addNeighbour(new NeighbourConfig("b", b.localAddress()));
            b.addNeighbour(NeighbourConfig.parse("a@[::1]:" + a.localAddress().getPort()));
            List<String> got = new CopyOnWriteArrayList<>();
            b.openPort(7, m -> got.add(m.sourceName() + ":" + new String(m.payloadBytes())));
            OverlayPort port = a.openPort(0, m -> {});
            assertThat(port.port()).isGreaterThanOrEqualTo(49152);
            Eventually.await("a reaches b", () -> a.reachableNodes(RoutingMetric.LATENCY).contains("b"));
            assertThat(port.send("b", 7, "over v6".getBytes())).isEqualTo(SendResult.ACCEPTED);
            Eventually.await("b receives", () -> got.contains("a:over v6"));
            Eventually.await("an RTT sample", () -> registry.find("hopwise.link.rtt").tag("node", "a")
                    .tag("peer", "b").gauge().value() > 0);

            assertThat(registry.get("hopwise.node.messages").tag("node", "b").tag("direction", "delivered")
                    .functionCounter().count()).isGreaterThanOrEqualTo(1);
            assertThat(registry.get("hopwise.link.up").tag("node", "b").tag("peer", "a").gauge().value())
                    .isEqualTo(1.0);
            assertThat(registry.get("hopwise.routing.recomputations").tag("node", "a").functionCounter().count())
                    .isPositive();
            assertThat(registry.get("hopwise.node.drops").tag("node", "a").tag("reason", "bad_magic")
                    .functionCounter().count()).isZero();

            port.close();
            assertThat(port.send("b", 7, new byte[1])).isEqualTo(SendResult.CLOSED);
            assertThatThrownBy(() -> b.openPort(7, m -> {})).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("already open");
            assertThatThrownBy(() -> a.openPort(1, m -> {}).send("b", 7, new byte[70_000]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxMessageBytes");
        }
        assertThat(registry.find("hopwise.link.rtt").tag("node", "a").gauge()).isNull();
    }
}

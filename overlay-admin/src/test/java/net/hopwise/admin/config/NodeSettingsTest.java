package net.hopwise.admin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.TransportKind;
import net.hopwise.overlay.routing.RoutingMetric;
import org.junit.jupiter.api.Test;

class NodeSettingsTest {
    @Test
    void everySettingReachesTheNodeConfig() {
        HopwiseProperties.Node p = new HopwiseProperties.Node();
        p.setName("a");
        p.setBind("127.0.0.1:8100");
        p.setNeighbours(List.of("b@127.0.0.1:8101", "c@[::1]:8102"));
        p.setDefaultMetric(RoutingMetric.HOPS);
        p.setHopLimit(16);
        p.setMaxMessageBytes(1000);
        p.setReassemblyBufferBytes(100_000L);
        p.setReassemblyTimeout(Duration.ofSeconds(3));
        p.setSendQueueLimit(100);
        p.setSocketBufferBytes(1 << 20);
        p.setTransport(TransportKind.NIO);
        p.setImpairmentSeed(7L);
        p.getHello().setInterval(Duration.ofMillis(50));
        p.getHello().setDeadCount(5);
        p.getHello().setUpCount(2);
        p.getHello().setDownInterval(Duration.ofSeconds(2));
        p.getRouting().setFloodRetransmitInterval(Duration.ofMillis(200));
        p.getRouting().setRefreshInterval(Duration.ofSeconds(30));
        p.getRouting().setMinRecomputeInterval(Duration.ofMillis(5));
        p.getRouting().setExpectedLatencyDeadlineMillis(150.0);

        NodeConfig c = NodeSettings.toNodeConfig(p, null);

        assertThat(c.name()).isEqualTo("a");
        assertThat(c.bindAddress()).isEqualTo(new InetSocketAddress("127.0.0.1", 8100));
        assertThat(c.neighbours()).extracting(n -> n.name()).containsExactly("b", "c");
        assertThat(c.defaultMetric()).isEqualTo(RoutingMetric.HOPS);
        assertThat(c.hopLimit()).isEqualTo(16);
        assertThat(c.maxMessageBytes()).isEqualTo(1000);
        assertThat(c.reassemblyBufferBytes()).isEqualTo(100_000L);
        assertThat(c.reassemblyTimeout()).hasSeconds(3);
        assertThat(c.sendQueueLimit()).isEqualTo(100);
        assertThat(c.socketBufferBytes()).isEqualTo(1 << 20);
        assertThat(c.transport()).isEqualTo(TransportKind.NIO);
        assertThat(c.impairmentSeed()).isEqualTo(7L);
        assertThat(c.hello().interval()).hasMillis(50);
        assertThat(c.hello().deadCount()).isEqualTo(5);
        assertThat(c.hello().upCount()).isEqualTo(2);
        assertThat(c.hello().downInterval()).hasSeconds(2);
        assertThat(c.routing().floodRetransmitInterval()).hasMillis(200);
        assertThat(c.routing().refreshInterval()).hasSeconds(30);
        assertThat(c.routing().minRecomputeInterval()).hasMillis(5);
        assertThat(c.routing().expectedLatencyDeadlineMillis()).isEqualTo(150.0);
    }

    @Test
    void unsetSettingsKeepTheCoreDefaults() {
        HopwiseProperties.Node p = new HopwiseProperties.Node();
        p.setName("a");
        assertThat(NodeSettings.toNodeConfig(p, null).toString())
                .isEqualTo(NodeConfig.builder("a").build().toString());
        assertThat(NodeSettings.toNodeConfig(p, null).hello()).isEqualTo(NodeConfig.builder("a").build().hello());
    }

    @Test
    void everyBadValueIsNamedWithItsProperty() {
        HopwiseProperties.Node p = new HopwiseProperties.Node();
        p.setName("not a name!");
        p.setBind("somewhere");
        p.setNeighbours(List.of("b@127.0.0.1:8101", "c-without-address"));
        p.setHopLimit(0);
        p.setSocketBufferBytes(10);
        p.getHello().setDeadCount(0);
        p.getRouting().setRefreshInterval(Duration.ZERO);

        assertThatThrownBy(() -> NodeSettings.toNodeConfig(p, null))
                .isInstanceOf(InvalidSettingsException.class)
                .satisfies(e -> assertThat(((InvalidSettingsException) e).problems()).satisfiesExactlyInAnyOrder(
                        m -> assertThat(m).startsWith("hopwise.node.name: invalid node name"),
                        m -> assertThat(m).startsWith("hopwise.node.bind: 'somewhere' is not of the form"),
                        m -> assertThat(m).startsWith("hopwise.node.neighbours[1]: neighbour 'c-without-address'"),
                        m -> assertThat(m).startsWith("hopwise.node.hop-limit: hopLimit must be 1-255"),
                        m -> assertThat(m).startsWith("hopwise.node.socket-buffer-bytes: socketBufferBytes"),
                        m -> assertThat(m).startsWith("hopwise.node.hello.dead-count: deadCount must be"),
                        m -> assertThat(m).startsWith("hopwise.node.routing.refresh-interval:")));
    }

    @Test
    void valuesThatClashAreReportedTogether() {
        HopwiseProperties.Node p = new HopwiseProperties.Node();
        p.setName("a");
        p.getHello().setInterval(Duration.ofSeconds(2));
        p.getHello().setDownInterval(Duration.ofSeconds(1));
        assertThatThrownBy(() -> NodeSettings.toNodeConfig(p, null))
                .hasMessageContaining("hopwise.node.hello: downInterval PT1S must not be shorter than interval PT2S");
    }

    @Test
    void bindAcceptsHostPortV6AndBarePorts() {
        assertThat(NodeSettings.parseBind("8100")).isEqualTo(new InetSocketAddress(8100));
        assertThat(NodeSettings.parseBind("127.0.0.1:0").getPort()).isZero();
        assertThat(NodeSettings.parseBind("[::1]:8100").getAddress().getHostAddress()).isEqualTo("0:0:0:0:0:0:0:1");
        assertThatThrownBy(() -> NodeSettings.parseBind("99999")).hasMessageContaining("0-65535");
        assertThatThrownBy(() -> NodeSettings.parseBind("host:port")).hasMessageContaining("no numeric port");
        assertThatThrownBy(() -> NodeSettings.parseBind("no-such-host.invalid:8100"))
                .hasMessageContaining("cannot resolve");
    }
}

package net.hopwise.overlay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A daemon and a plain node as neighbours on loopback UDP: what the daemon logs and serves. */
class DaemonTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final DaemonLog log = (level, line) -> logged.add(level + " " + line);
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private Daemon daemon(String name, InetSocketAddress metrics, NeighbourConfig... neighbours) throws SetupException {
        Daemon d = Daemon.start(new DaemonOptions(name, new InetSocketAddress(LOOPBACK, 0), List.of(neighbours),
                metrics, Duration.ZERO, 0, false), log);
        open.add(d);
        return d;
    }

    private OverlayNode plainNode(String name, int port, NeighbourConfig... neighbours) {
        OverlayNode n = OverlayNode.start(NodeConfig.builder(name).loopback(port).neighbours(List.of(neighbours))
                .build());
        open.add(n);
        return n;
    }

    private static NeighbourConfig at(String name, int port) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", port));
    }

    private void awaitLogged(String... fragments) {
        Eventually.await("a log line with " + List.of(fragments) + " in " + logged,
                () -> logged.stream().anyMatch(l -> List.of(fragments).stream().allMatch(l::contains)));
    }

    @Test
    void linksUpAndDownAndReroutesAreLogged() throws Exception {
        OverlayNode b = plainNode("b", 0);
        OverlayNode c = plainNode("c", 0, at("b", b.localAddress().getPort()));
        Daemon a = daemon("a", null, at("b", b.localAddress().getPort()), at("c", c.localAddress().getPort()));
        int aPort = a.node().localAddress().getPort();
        b.addNeighbour(at("a", aPort));
        b.addNeighbour(at("c", c.localAddress().getPort()));
        c.addNeighbour(at("a", aPort));

        assertThat(logged.get(0)).startsWith("INFO node a (id ").contains("listening on UDP 127.0.0.1:" + aPort,
                "neighbours: b@127.0.0.1:" + b.localAddress().getPort());
        awaitLogged("INFO link b up at 127.0.0.1:" + b.localAddress().getPort());
        awaitLogged("INFO link c up at 127.0.0.1:" + c.localAddress().getPort());
        awaitLogged("INFO routes by ", "b direct (new)");
        // c may first be reached through b, before a's own link to it is up.
        awaitLogged("INFO routes by ", "c direct");

        // c's link to a goes; a reaches c through b from then on.
        c.removeNeighbour("a");
        awaitLogged("WARNING link c down");
        awaitLogged("INFO routes by ", "c via b (was direct)");
    }

    @Test
    void theMetricsEndpointServesTheNodesMetersInPrometheusTextFormat() throws Exception {
        OverlayNode b = plainNode("b", 0);
        Daemon a = daemon("a", new InetSocketAddress(LOOPBACK, 0), at("b", b.localAddress().getPort()));
        b.addNeighbour(at("a", a.node().localAddress().getPort()));
        Eventually.await("link a-b up", () -> a.node().reachableNodes(RoutingMetric.HOPS).contains("b"));

        HttpClient http = HttpClient.newHttpClient();
        URI base = URI.create("http://127.0.0.1:" + a.metricsAddress().getPort());
        HttpResponse<String> scrape = http.send(HttpRequest.newBuilder(base.resolve("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(scrape.body())
                .contains("# TYPE hopwise_node_packets_total counter")
                .containsPattern("hopwise_node_packets_total\\{direction=\"in\",node=\"a\"} [1-9]")
                .contains("hopwise_link_up{node=\"a\",peer=\"b\"} 1.0")
                .contains("hopwise_node_drops_total{node=\"a\",reason=\"impairment\"}")
                .contains("jvm_memory_used_bytes");

        HttpResponse<String> elsewhere = http.send(HttpRequest.newBuilder(base.resolve("/")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(elsewhere.statusCode()).isEqualTo(404);
    }

    @Test
    void statisticsNameEachLinkAndTheDropsByReason() throws Exception {
        OverlayNode b = plainNode("b", 0);
        Daemon a = daemon("a", null, at("b", b.localAddress().getPort()));
        b.addNeighbour(at("a", a.node().localAddress().getPort()));
        Eventually.await("link a-b up", () -> b.reachableNodes(RoutingMetric.HOPS).contains("a"));
        OverlayPort port = b.openPort(9, m -> { });
        StatisticsReport report = new StatisticsReport(a.node(), log);
        report.lines();

        // Nothing listens on a's port 9: a drops what b sends there.
        List<String> lines = new ArrayList<>();
        Eventually.await("port_closed drops in a report", () -> {
            port.send("a", 9, new byte[100]);
            lines.clear();
            lines.addAll(report.lines());
            return lines.get(0).startsWith("statistics: 1 of 1 links up, 1 nodes reachable;")
                    && lines.get(lines.size() - 1).matches("drops since the last report: .*port_closed \\d+.*");
        });
        assertThat(lines.get(0)).startsWith("statistics: 1 of 1 links up, 1 nodes reachable; packets in ");
        assertThat(lines.get(1)).startsWith("link b UP at 127.0.0.1:" + b.localAddress().getPort() + ": rtt ")
                .contains("loss in ", "reliable retransmissions ");
        assertThat(lines).hasSize(3);

        a.reportStatistics();
        awaitLogged("INFO statistics: 1 of 1 links up");
    }

    @Test
    void aNeighbourThatComesBackFromAnotherAddressIsLoggedAsMoved() throws Exception {
        OverlayNode b = plainNode("b", 0);
        int oldPort = b.localAddress().getPort();
        Daemon a = daemon("a", null, at("b", oldPort));
        int aPort = a.node().localAddress().getPort();
        b.addNeighbour(at("a", aPort));
        awaitLogged("link b up at 127.0.0.1:" + oldPort);

        b.stop();
        OverlayNode moved = plainNode("b", 0, at("a", aPort));
        int newPort = moved.localAddress().getPort();
        awaitLogged("INFO neighbour b moved from 127.0.0.1:" + oldPort + " to 127.0.0.1:" + newPort);
    }
}

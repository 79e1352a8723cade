package net.hopwise.overlay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeDaemon;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.trace.TraceModule;
import org.junit.jupiter.api.Test;

/** {@link NodeDaemon#run} as the command line sees it: exit codes and what reaches stdout and stderr. */
class NodeDaemonRunTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return NodeDaemon.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]));
    }

    /** A node the operator chose to run with unauthenticated links, for tests of the other options. */
    private int runInsecure(String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = "--insecure";
        return run(all);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private void assertOneLineRefusal(int code, String... fragments) {
        assertThat(code).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err().lines()).hasSize(1);
        assertThat(err()).startsWith("hopwise node: ").contains(fragments).doesNotContain("Exception", "\tat ");
    }

    @Test
    void aUdpPortInUseIsRefusedInOneLine() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (DatagramSocket taken = new DatagramSocket(new InetSocketAddress(loopback, 0))) {
            int port = taken.getLocalPort();
            assertOneLineRefusal(runInsecure("--name", "a", "--bind", "127.0.0.1:" + port),
                    "--bind 127.0.0.1:" + port, "UDP port " + port + " is already in use");
        }
    }

    @Test
    void aMetricsPortInUseIsRefusedInOneLine() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket taken = new ServerSocket(0, 1, loopback)) {
            int port = taken.getLocalPort();
            assertOneLineRefusal(runInsecure("--name", "a", "--bind", "127.0.0.1:0", "--metrics", "127.0.0.1:" + port),
                    "--metrics 127.0.0.1:" + port, "TCP port " + port + " is already in use");
        }
    }

    @Test
    void theMetricsEndpointIsReleasedWhenTheUdpPortIsRefused() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        int metricsPort;
        try (ServerSocket probe = new ServerSocket(0, 1, loopback)) {
            metricsPort = probe.getLocalPort();
        }
        try (DatagramSocket taken = new DatagramSocket(new InetSocketAddress(loopback, 0))) {
            assertOneLineRefusal(runInsecure("--name", "a", "--bind", "127.0.0.1:" + taken.getLocalPort(),
                    "--metrics", "127.0.0.1:" + metricsPort), "already in use");
        }
        try (ServerSocket again = new ServerSocket(metricsPort, 1, loopback)) {
            assertThat(again.getLocalPort()).isEqualTo(metricsPort);
        }
    }

    @Test
    void badArgumentsAreRefusedInOneLineWithAPointerToHelp() {
        assertOneLineRefusal(runInsecure("--name", "a", "--neighbour", "b@127.0.0.1:eighty"),
                "port 'eighty' is not a number", "--help");
    }

    @Test
    void helpPrintsTheUsageAndSucceeds() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage:", "--metrics");
        assertThat(err()).isEmpty();
    }

    /** A free UDP port on loopback, so that the neighbours can list the daemon before it starts. */
    private static int freePort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return s.getLocalPort();
        }
    }

    /** a - b - c on loopback: b answers traces, c only when {@code cTraces}. */
    private List<OverlayNode> neighbours(int aPort, boolean cTraces) {
        OverlayNode b = OverlayNode.start(NodeConfig.builder("b").loopback(0).module(new TraceModule())
                .neighbour(NeighbourConfig.parse("a@127.0.0.1:" + aPort)).build());
        NodeConfig.Builder c = NodeConfig.builder("c").loopback(0)
                .neighbour(NeighbourConfig.parse("b@127.0.0.1:" + b.localAddress().getPort()));
        OverlayNode cNode = OverlayNode.start((cTraces ? c.module(new TraceModule()) : c).build());
        b.addNeighbour(NeighbourConfig.parse("c@127.0.0.1:" + cNode.localAddress().getPort()));
        return List.of(b, cNode);
    }

    private static void stop(List<OverlayNode> nodes) {
        nodes.forEach(OverlayNode::stop);
    }

    @Test
    void aTraceWaitsForTheRoutePrintsEachHopAndSucceedsWhenTheDestinationAnswers() throws Exception {
        int aPort = freePort();
        List<OverlayNode> others = neighbours(aPort, true);
        try {
            int code = runInsecure("--name", "a", "--bind", "127.0.0.1:" + aPort, "--stats-interval", "0",
                    "--neighbour", "b@127.0.0.1:" + others.get(0).localAddress().getPort(),
                    "--trace", "c", "--metric", "hops");
            List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
            assertThat(code).as("exit code; stdout %s", lines).isZero();
            assertThat(lines).hasSize(4);
            assertThat(lines.get(0)).isEqualTo("trace from a to c under HOPS: reached in 2 hops");
            assertThat(lines.get(1)).matches("hop +node +link cost \\(hops\\) +link RTT ms +round trip ms");
            // Each hop's link costs 1 under HOPS; the probes' round trips and the links' RTTs are measured.
            assertThat(lines.get(2)).matches(" +1 +b +1 +\\d+\\.\\d\\d +\\d+\\.\\d\\d");
            assertThat(lines.get(3)).matches(" +2 +c +1 +\\d+\\.\\d\\d +\\d+\\.\\d\\d");
            assertThat(err()).isEmpty();
        } finally {
            stop(others);
        }
    }

    @Test
    void aTraceWhoseDestinationDoesNotAnswerShowsTheHopsThatDidAndFails() throws Exception {
        int aPort = freePort();
        // c runs no trace module: the probe to it goes unanswered.
        List<OverlayNode> others = neighbours(aPort, false);
        try {
            int code = runInsecure("--name", "a", "--bind", "127.0.0.1:" + aPort, "--stats-interval", "0",
                    "--neighbour", "b@127.0.0.1:" + others.get(0).localAddress().getPort(), "--trace", "c",
                    "--trace-wait", "3s");
            List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
            assertThat(code).as("exit code; stdout %s", lines).isEqualTo(1);
            assertThat(lines.get(0)).startsWith("trace from a to c under " + NodeConfig.DEFAULT_METRIC
                    + ": not reached (no answer from c)");
            assertThat(lines.get(2)).matches(" +1 +b +.*\\d+\\.\\d\\d");
            assertThat(lines.get(3)).matches(" +2 +c +.* +\\*");
        } finally {
            stop(others);
        }
    }

    @Test
    void aTraceWithoutARouteSaysSoAndFails() {
        assertThat(runInsecure("--name", "a", "--bind", "127.0.0.1:0", "--stats-interval", "0", "--trace", "nowhere",
                "--trace-wait", "0")).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8).lines().toList()).singleElement().asString()
                .startsWith("trace from a to nowhere under " + NodeConfig.DEFAULT_METRIC + ": not reached (");
    }

    @Test
    void aNodeRunsUntilItsInputEndsThenExitsCleanly() {
        assertThat(runInsecure("--name", "a", "--bind", "127.0.0.1:0", "--until-stdin-closes", "--stats-interval", "0"))
                .isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).matches("READY a \\d+\\R");
        assertThat(err()).isEmpty();
    }
}

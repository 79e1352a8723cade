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
import net.hopwise.overlay.NodeDaemon;
import org.junit.jupiter.api.Test;

/** {@link NodeDaemon#run} as the command line sees it: exit codes and what reaches stdout and stderr. */
class NodeDaemonRunTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return NodeDaemon.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]));
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
            assertOneLineRefusal(run("--name", "a", "--bind", "127.0.0.1:" + port),
                    "--bind 127.0.0.1:" + port, "UDP port " + port + " is already in use");
        }
    }

    @Test
    void aMetricsPortInUseIsRefusedInOneLine() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket taken = new ServerSocket(0, 1, loopback)) {
            int port = taken.getLocalPort();
            assertOneLineRefusal(run("--name", "a", "--bind", "127.0.0.1:0", "--metrics", "127.0.0.1:" + port),
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
            assertOneLineRefusal(run("--name", "a", "--bind", "127.0.0.1:" + taken.getLocalPort(),
                    "--metrics", "127.0.0.1:" + metricsPort), "already in use");
        }
        try (ServerSocket again = new ServerSocket(metricsPort, 1, loopback)) {
            assertThat(again.getLocalPort()).isEqualTo(metricsPort);
        }
    }

    @Test
    void badArgumentsAreRefusedInOneLineWithAPointerToHelp() {
        assertOneLineRefusal(run("--name", "a", "--neighbour", "b@127.0.0.1:eighty"),
                "port 'eighty' is not a number", "--help");
    }

    @Test
    void helpPrintsTheUsageAndSucceeds() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage:", "--metrics");
        assertThat(err()).isEmpty();
    }

    @Test
    void aNodeRunsUntilItsInputEndsThenExitsCleanly() {
        assertThat(run("--name", "a", "--bind", "127.0.0.1:0", "--until-stdin-closes", "--stats-interval", "0"))
                .isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).matches("READY a \\d+\\R");
        assertThat(err()).isEmpty();
    }
}

package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Nodes in three JVMs: this one (x), and two {@link NodeDaemon} processes (y, z) in a chain x-y-z. */
class SeparateProcessesTest {
    private final List<Process> processes = new ArrayList<>();
    @TempDir
    Path temp;

    @AfterEach
    void stopProcesses() throws Exception {
        for (Process p : processes) {
            p.getOutputStream().close();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    private static int freePort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private Process daemon(String... args) throws IOException {
        return daemon(ProcessBuilder.Redirect.INHERIT, args);
    }

    private Process daemon(ProcessBuilder.Redirect stderr, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx64m");
        // As the docs tell whoever starts a node with -cp rather than the daemon jar (whose manifest
        // says it): Netty loads its native transport, and Java 24 and later warn about it on stderr.
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(NodeDaemon.class.getName());
        command.addAll(List.of(args));
        command.add("--until-stdin-closes");
        command.add("--insecure");
        Process p = new ProcessBuilder(command).redirectError(stderr).start();
        processes.add(p);
        return p;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String awaitReady(Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("READY ")) {
                return line;
            }
        }
        throw new AssertionError("node process ended before it was ready, exit code " + exit(p));
    }

    private static String exit(Process p) {
        try {
            return p.waitFor(5, TimeUnit.SECONDS) ? String.valueOf(p.exitValue()) : "(still running)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    @Test
    void messagesCrossNodesInSeparateJvms() throws Exception {
        int x = freePort();
        int y = freePort();
        int z = freePort();
        Path yLog = Files.createTempFile(temp, "y", ".log");
        Process py = daemon(ProcessBuilder.Redirect.to(yLog.toFile()), "--name", "y", "--bind", "127.0.0.1:" + y,
                "--neighbour", "x@127.0.0.1:" + x, "--neighbour", "z@127.0.0.1:" + z);
        Process pz = daemon("--name", "z", "--bind", "127.0.0.1:" + z, "--neighbour", "y@127.0.0.1:" + y,
                "--echo-port", "7");
        assertThat(awaitReady(py)).isEqualTo("READY y " + y);
        assertThat(awaitReady(pz)).isEqualTo("READY z " + z);

        try (OverlayNode node = OverlayNode.start(NodeConfig.builder("x")
                .bindAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), x))
                .neighbour(new NeighbourConfig("y", new InetSocketAddress("127.0.0.1", y)))
                .defaultMetric(RoutingMetric.HOPS).build())) {
            List<String> echoes = new CopyOnWriteArrayList<>();
            OverlayPort port = node.openPort(5, m -> echoes.add(m.sourceName() + ":" + new String(m.payloadBytes())));
            Eventually.await("x reaches z", () -> node.reachableNodes(RoutingMetric.HOPS).contains("z"));
            assertThat(node.path("z", RoutingMetric.HOPS))
                    .containsExactly(NodeId.ofName("x"), NodeId.ofName("y"), NodeId.ofName("z"));
            Eventually.await("an echo from z through y", () -> {
                port.send("z", 7, "ping".getBytes());
                return echoes.contains("z:ping");
            });
            assertThat(pz.isAlive()).isTrue();
            assertThat(py.isAlive()).isTrue();
            // y logs its links as they come up, one timestamped line each, on stderr.
            Eventually.await("y logs both links up", () -> {
                String log = read(yLog);
                return log.contains(" INFO link x up at 127.0.0.1:" + x) && log.contains(" INFO link z up at 127.0.0.1:" + z);
            });
            assertThat(Files.readAllLines(yLog))
                    .allMatch(l -> l.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} (INFO|WARNING) .+"));
        }
    }

    @Test
    void aPortInUseEndsTheProcessWithOneLineAndExitCodeTwo() throws Exception {
        try (DatagramSocket taken = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Process p = daemon(ProcessBuilder.Redirect.PIPE, "--name", "y", "--bind", "127.0.0.1:" + port);
            String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the refused process ends").isTrue();
            assertThat(p.exitValue()).isEqualTo(2);
            assertThat(stderr).isEqualTo("hopwise node: --bind 127.0.0.1:" + port + ": UDP port " + port
                    + " is already in use (another node or program is bound to it)" + System.lineSeparator());
            assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
        }
    }
}

package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The relay's command line: checked before anything starts, and a node with its relay when it is right. */
class RelayLauncherTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return RelayLauncher.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]));
    }

    @AfterAll
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    @Test
    void badArgumentsEndWithCode2AndSayWhich() {
        assertThat(run("--sip", "127.0.0.1:5060")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--name is required");
        assertThat(run("--name", "a", "--sip", "example.org:5060")).isEqualTo(2);
        assertThat(run("--name", "a", "--route", "nonode", "--insecure")).isEqualTo(2);
        assertThat(run("--name", "a", "--media-ports", "30000", "--insecure")).isEqualTo(2);
        assertThat(run("--name", "a", "--sip", "0.0.0.0:5060", "--insecure")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("advertisedHost");
        assertThat(run("--name", "a", "--sip", "127.0.0.1:5060", "--request-rate", "-4", "--insecure")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("requests per window must not be negative, got -4");
        assertThat(run("--name", "a", "--sip", "127.0.0.1:5060", "--request-rate", "many", "--insecure")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("not a number: many");
        assertThat(run("--name", "a", "--sip", "127.0.0.1:5060", "--access-delay", "-20", "--insecure")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("accessDelay must not be negative");
        assertThat(run("--name", "a", "--sip", "127.0.0.1:5060", "--call-records", "bad\u0000name", "--insecure"))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("not a file name");
        assertThat(run("--name", "a", "--sip", "127.0.0.1:5060", "--media-deadline-packets", "101", "--insecure"))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("mediaDeadlinePackets must be 0 to 100, got 101");
        assertThat(run("--name", "a", "--sip", "127.0.0.1:5060", "--media-deadline", "0", "--insecure")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("mediaDeadline");
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("[--call-records FILE]");
    }

    @Test
    void aNodeWithoutKeysIsRefusedUnlessInsecureIsChosenAndKeysSecureItsLinks(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        assertThat(run("--name", "paris", "--bind", "127.0.0.1:0", "--sip", "127.0.0.1:0")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("links need keys", "--insecure");
        var keys = net.hopwise.overlay.security.NodeKeys.generate();
        net.hopwise.overlay.security.KeyFiles.writeNodeKeys(dir.resolve("paris.key"), keys);
        java.nio.file.Files.writeString(dir.resolve("trusted"),
                net.hopwise.overlay.security.TrustedKeys.line("paris", keys.identityPublic()) + "\n");
        err.reset();
        assertThat(run("--name", "paris", "--bind", "127.0.0.1:0", "--sip", "127.0.0.1:0", "--media-ports",
                "33100-33199", "--key", dir.resolve("paris.key").toString(), "--trusted-keys",
                dir.resolve("trusted").toString(), "--until-stdin-closes")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("READY paris ");
        assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("WARNING");
    }

    @Test
    void withoutARouteToItsNeighbourTheRelayIsNotReadyAndSaysWhy() {
        int nobody = Sipp.freeUdpPort();
        assertThat(run("--name", "paris", "--bind", "127.0.0.1:0", "--sip", "127.0.0.1:0", "--media-ports",
                "33200-33299", "--neighbour", "lyon@127.0.0.1:" + nobody, "--ready-timeout", "0",
                "--until-stdin-closes", "--insecure")).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("NOT READY paris: no route to lyon")
                .doesNotContain("READY paris ");
    }

    @Test
    void readyComesOnceTheNodeRoutesToItsNeighbour() throws Exception {
        int parisPort = Sipp.freeUdpPort();
        try (net.hopwise.overlay.OverlayNode lyon = net.hopwise.overlay.OverlayNode.start(
                net.hopwise.overlay.NodeConfig.builder("lyon").loopback(0)
                        .neighbour(net.hopwise.overlay.NeighbourConfig.parse("paris@127.0.0.1:" + parisPort)).build())) {
            java.io.PipedOutputStream stdin = new java.io.PipedOutputStream();
            java.io.PipedInputStream in = new java.io.PipedInputStream(stdin);
            java.util.concurrent.CompletableFuture<Void> atReady = new java.util.concurrent.CompletableFuture<>();
            // Completes when paris has printed its READY line.
            PrintStream watched = new PrintStream(new java.io.OutputStream() {
                @Override
                public void write(int b) {
                    out.write(b);
                    if (b == '\n' && out.toString(StandardCharsets.UTF_8).contains("READY paris ")) {
                        atReady.complete(null);
                    }
                }
            }, true, StandardCharsets.UTF_8);
            java.util.concurrent.CompletableFuture<Integer> code = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> RelayLauncher.run(new String[] {"--name", "paris", "--bind", "127.0.0.1:" + parisPort,
                        "--sip", "127.0.0.1:0", "--media-ports", "33300-33399", "--neighbour",
                        "lyon@127.0.0.1:" + lyon.localAddress().getPort(), "--ready-timeout", "30",
                        "--until-stdin-closes", "--insecure"}, watched, new PrintStream(err, true,
                            StandardCharsets.UTF_8), in));
            atReady.get(30, java.util.concurrent.TimeUnit.SECONDS);
            stdin.close();
            assertThat(code.get(30, java.util.concurrent.TimeUnit.SECONDS)).isZero();
            String printed = out.toString(StandardCharsets.UTF_8);
            assertThat(printed).contains("READY paris " + parisPort + " ").doesNotContain("NOT READY");
            assertThat(printed.indexOf("READY paris")).isLessThan(printed.indexOf("STATE "));
        }
    }

    @Test
    void aRightCommandLineStartsANodeAndItsRelayAndStopsWhenInputEnds() {
        assertThat(run("--name", "paris", "--bind", "127.0.0.1:0", "--sip", "127.0.0.1:0", "--route", "bob=lyon",
                "--media-ports", "33000-33099", "--until-stdin-closes", "--insecure")).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("WARNING links are NOT authenticated");
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("READY paris ")
                .contains("STATE RelayState[serverTransactions=0, clientTransactions=0, calls=0, mediaPortPairs=0")
                .contains("COUNTERS {requestsFromPhones=0").doesNotContain("callRecords");
    }

    /**
     * With --call-records the file is made at start-up (its directories too), so that a path that
     * cannot be written shows before the first call ends, and the records' counters join the relay's.
     */
    @Test
    void callRecordsGoToTheFileNamedOnTheCommandLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path file = dir.resolve("var/log/hopwise/calls.jsonl");
        assertThat(run("--name", "paris", "--bind", "127.0.0.1:0", "--sip", "127.0.0.1:0", "--media-ports",
                "33400-33499", "--call-records", file.toString(), "--access-delay", "20", "--until-stdin-closes",
                "--insecure")).isZero();
        assertThat(file).exists().isEmptyFile();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("callRecordsWritten=0, callRecordFailures=0}");
    }
}

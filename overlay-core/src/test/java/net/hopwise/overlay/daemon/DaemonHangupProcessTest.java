package net.hopwise.overlay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.NodeDaemon;
import net.hopwise.overlay.security.Crypto;
import net.hopwise.overlay.security.KeyFiles;
import net.hopwise.overlay.security.NodeCertificate;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.TrustedKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGHUP re-reads a running daemon's certificate: a real signal ({@code kill -HUP}) to a daemon in a
 * process of its own, since a JVM has one handler per signal and the suite's JVM is shared with other
 * tests. {@code --reload-interval 0} leaves the signal as the only way a change is read, so each line
 * awaited below is the signal's doing. The test waits for the daemon's log lines, never for time.
 */
@EnabledOnOs(OS.LINUX) // GNU env sets the daemon's SIGHUP disposition
class DaemonHangupProcessTest {
    /** Generous for a loaded 2-core machine: a line normally comes within a second of its cause. */
    private static final long LINE_WAIT_SECONDS = 30;
    private static final String END = "\u0000end of stderr";

    @TempDir
    Path dir;

    private Process daemon;
    private byte[] authority;
    private NodeKeys keys;
    private Path key;
    private Path cert;
    private long now;
    private final BlockingQueue<String> stderr = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        if (daemon != null) {
            daemon.getOutputStream().close();
            if (!daemon.waitFor(10, TimeUnit.SECONDS)) {
                daemon.destroyForcibly();
            }
        }
    }

    /** The next stderr line containing {@code text}; fails naming what was logged if none comes. */
    private String awaitLine(String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LINE_WAIT_SECONDS);
        while (true) {
            String line = stderr.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null || line.equals(END)) {
                throw new AssertionError("no line containing '" + text + "' from the daemon; it logged:\n"
                        + String.join("\n", seen) + (line == null ? "\n(still running)" : "\n(exited)"));
            }
            seen.add(line);
            if (line.contains(text)) {
                return line;
            }
        }
    }

    private void hangup() throws Exception {
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(daemon.pid())).redirectErrorStream(true).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -HUP: %s", new String(kill.getInputStream().readAllBytes())).isZero();
    }

    /** Replaces {@code file} as an operator should, by a rename, so that the daemon never reads half of it. */
    private void install(Path file, byte[] bytes) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".new");
        Files.write(next, bytes);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Node a's key and a certificate (serial 1) from a new authority, as files the daemon reads. */
    @BeforeEach
    void keyAndCertificate() throws IOException {
        authority = Crypto.newEd25519Private();
        keys = NodeKeys.generate();
        key = dir.resolve("a.key");
        KeyFiles.writeNodeKeys(key, keys);
        cert = dir.resolve("a.cert");
        now = System.currentTimeMillis() / 1000;
        Files.write(cert, NodeCertificate.sign(authority, "a", keys.identityPublic(), now - 60, now + 3600, 1).encode());
    }

    @Test
    void sighupRenewsTheCertificateAndRefusesABrokenOneWithoutEndingTheProcess() throws Exception {
        // The daemon starts with SIGHUP at its default whatever the suite inherited: under `nohup ./test`
        // it would otherwise start ignoring it, which the other test covers.
        startDaemon("--default-signal=HUP");
        // Logged before READY: the handler is in place once the daemon says it is ready.
        awaitLine("INFO security files are re-read on SIGHUP");

        install(cert, NodeCertificate.sign(authority, "a", keys.identityPublic(), now - 60, now + 7200, 2).encode());
        hangup();
        assertThat(awaitLine("certificate " + cert)).contains("INFO certificate " + cert + " renewed: serial 2,");

        install(cert, "half a certificate".getBytes(StandardCharsets.US_ASCII));
        hangup();
        assertThat(awaitLine("certificate " + cert)).contains("WARNING certificate " + cert
                + " refused, the node keeps its certificate (serial 2,", "it is not a hopwise node certificate");

        hangup();
        assertThat(awaitLine("certificate " + cert)).as("a refused file is read again on the next SIGHUP")
                .contains("WARNING certificate " + cert + " refused");
        assertThat(daemon.isAlive()).as("SIGHUP no longer ends the process").isTrue();
    }

    @Test
    void aDaemonStartedWithSighupIgnoredSaysTheSignalCannotReloadAndKeepsRunning() throws Exception {
        // As under nohup: the JVM keeps SIGHUP ignored and installs no handler, so claiming one would mislead.
        startDaemon("--ignore-signal=HUP");
        assertThat(awaitLine("SIGHUP cannot re-read the security files")).contains("WARNING",
                "SIGHUP is ignored in this process", "--reload-interval is 0",
                "changes to them apply only when the node restarts");
        hangup();
        // The kernel discards an ignored signal when it is sent, so by now it has had its effect: none.
        daemon.getOutputStream().close();
        assertThat(daemon.waitFor(LINE_WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(daemon.exitValue()).as("exit status after SIGHUP and then stdin closed (129 would be the signal's)")
                .isZero();
    }

    /**
     * Starts the daemon through {@code env} with the given signal disposition, reading the certificate
     * only on SIGHUP ({@code --reload-interval 0}), and waits for its READY line.
     */
    private void startDaemon(String signalDisposition) throws IOException {
        List<String> command = new ArrayList<>(List.of("env", signalDisposition,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                NodeDaemon.class.getName(), "--name", "a", "--bind", "127.0.0.1:0", "--stats-interval", "0",
                "--key", key.toString(), "--authority", TrustedKeys.format(Crypto.ed25519Public(authority)),
                "--certificate", cert.toString(), "--reload-interval", "0", "--until-stdin-closes"));
        daemon = new ProcessBuilder(command).start();
        drain(daemon.getErrorStream());
        String ready = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
        assertThat(ready).as("the daemon's first line on stdout; it logged:\n%s", String.join("\n", stderr))
                .startsWith("READY a ");
    }

    private void drain(InputStream in) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    stderr.add(line);
                }
            } catch (IOException e) {
                // The process ended: what it logged is in the queue.
            }
            stderr.add(END);
        }, "daemon-stderr");
        t.setDaemon(true);
        t.start();
    }
}

package net.hopwise.voip.relay;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Runs SIPp (Debian's sip-tester) as a process: skipped with a message where it is not installed. */
final class Sipp {
    private final Process process;
    private final Path log;
    private final List<String> command;

    private Sipp(List<String> command, Path dir, String name) {
        this.command = command;
        this.log = dir.resolve(name + ".log");
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** Skips the calling test unless sipp is on the PATH. */
    static String binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            Path p = Path.of(dir, "sipp");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        Assumptions.abort("sipp (Debian package sip-tester) is not installed: the tests with real SIP peers"
                + " are skipped; ./test installs it");
        return null;
    }

    static Sipp start(Path dir, String name, String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary());
        command.addAll(List.of(args));
        // -Dsipp.trace: SIPp writes each message it sent and received, and its errors, beside its log in
        // the test's directory (SippThroughTwoRelaysTest keeps that directory when a test fails): what
        // shows why a call a SIPp aborted under load went wrong.
        if (System.getProperty("sipp.trace") != null) {
            command.addAll(List.of("-trace_err", "-trace_msg", "-trace_logs"));
        }
        return new Sipp(command, dir, name);
    }

    /** Waits for SIPp to finish (its own -timeout bounds the run); returns its exit code. */
    int await() {
        return awaitFor(120);
    }

    /** As {@link #await()}, for runs longer than two minutes (load runs outside the suite). */
    int awaitFor(int seconds) {
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("sipp did not finish: " + command + "\n" + output());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new AssertionError("interrupted waiting for sipp", e);
        }
    }

    void kill() {
        process.destroyForcibly();
    }

    String output() {
        try {
            String text = Files.readString(log);
            return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /**
     * A port for SIPp's {@code -mp} on the IPv4 loopback: SIPp binds its audio socket there and its
     * video socket two above, and gives up before its first call when either is taken (one such
     * start left a run waiting for a call that never came), so they must be free now.
     */
    static int freeMediaPort() {
        return freeMediaPort(InetAddress.getLoopbackAddress());
    }

    /** As {@link #freeMediaPort()}, on the given address (SIPp's {@code -mi}). */
    static int freeMediaPort(InetAddress address) {
        return LoopbackPorts.freeBlock(address, 3);
    }

    /** A UDP port free now on loopback, for a SIP peer's {@code -p}. */
    static int freeUdpPort() {
        return LoopbackPorts.freeBlock(InetAddress.getLoopbackAddress(), 1);
    }
}

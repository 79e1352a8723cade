package net.hopwise.examples.fairness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link FairnessPeer} running as a JVM of its own inside a network namespace, seen from the
 * benchmark: one command line in, one {@code @name key=value ...} line back. Its standard error
 * goes to a log file, named in every failure.
 */
final class PeerProcess implements AutoCloseable {
    /** Small heaps and the serial collector: the peers move a few thousand messages a second. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC");

    private final String label;
    private final Process process;
    private final Writer commands;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    private final Path log;

    private PeerProcess(String label, Process process, Path log) {
        this.label = label;
        this.process = process;
        this.log = log;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("@")) {
                        replies.add(line);
                    }
                }
            } catch (IOException e) {
                // The process ended; a pending request times out and names the log.
            }
            replies.add("@exited");
        }, label + "-replies");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code FairnessPeer role args} in {@code namespace} and waits until it is ready. */
    static PeerProcess start(String namespace, String role, List<String> args, Duration readyTimeout)
            throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace, java));
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), FairnessPeer.class.getName(), role));
        command.addAll(args);
        Path log = Files.createTempFile("hopwise-fairness-" + role + "-", ".log");
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        PeerProcess peer = new PeerProcess(role + "@" + namespace, p, log);
        try {
            peer.await("ready", readyTimeout);
        } catch (RuntimeException e) {
            peer.kill();
            throw e;
        }
        return peer;
    }

    /** Sends a command and returns the fields of its answer. */
    Map<String, String> request(String command, Duration timeout) {
        try {
            commands.write(command + "\n");
            commands.flush();
        } catch (IOException e) {
            throw new IllegalStateException(label + " no longer takes commands (" + e.getMessage() + "); see " + log, e);
        }
        return await(null, timeout);
    }

    private Map<String, String> await(String expected, Duration timeout) {
        String line;
        try {
            line = replies.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + label, e);
        }
        if (line == null) {
            throw new IllegalStateException(label + " did not answer within " + timeout + "; see " + log);
        }
        Map<String, String> fields = parse(line);
        String name = fields.get("@");
        if (name.equals("exited") || name.equals("error") || (expected != null && !name.equals(expected))) {
            throw new IllegalStateException(label + " answered " + line + "; see " + log);
        }
        return fields;
    }

    /** {@code @name a=1 b=x} as {@code {@=name, a=1, b=x}}. */
    static Map<String, String> parse(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        String[] parts = line.strip().split("\\s+");
        fields.put("@", parts[0].substring(1));
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0) {
                fields.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
            }
        }
        return fields;
    }

    /** CPU time the process has used so far, in seconds: user and system (kernel), from /proc. */
    double[] cpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // utime and stime are fields 14 and 15 of proc(5), the 12th and 13th after the command name,
            // in clock ticks of 1/100 s.
            return new double[] {Long.parseLong(f[11]) / 100.0, Long.parseLong(f[12]) / 100.0};
        } catch (IOException | RuntimeException e) {
            return new double[] {Double.NaN, Double.NaN};
        }
    }

    /** Asks the peer to quit, and kills it if it does not within a few seconds. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                request("quit", Duration.ofSeconds(10));
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (RuntimeException e) {
                // Killed below.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        kill();
        try {
            if (process.exitValue() == 0) {
                Files.deleteIfExists(log);
            }
        } catch (IOException | IllegalThreadStateException e) {
            // Left for whoever wants to read it.
        }
    }

    /** Ends the process now (this process started it; it is ended by its id). */
    void kill() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    Path log() {
        return log;
    }
}

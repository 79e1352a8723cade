package net.hopwise.voip.relay;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Each ended call's record appended to a file as one line of JSON ({@link CallRecordJson}), the way
 * operators keep call detail records: one file to tail, rotate and load into whatever reads JSON
 * Lines. The relay's loop only stamps the time and queues the call; a thread of its own formats and
 * writes, so that a slow or full disk delays no packet. Each record opens the file, appends and closes
 * it again: a record is on disk once written, and a rotation that moves the file away (logrotate's
 * default) is followed by the next record without a signal. A record that cannot be written, or that
 * finds the queue full, is counted and logged, never thrown back at the relay.
 */
final class CallRecords {
    /**
     * Records waiting for the writer at most: minutes of call ends at the load tests' 20 calls a
     * second, a few megabytes at worst. Beyond, a stuck disk costs records, not the relay's memory.
     */
    static final int QUEUE = 10_000;
    private static final System.Logger LOG = System.getLogger(CallRecords.class.getName());

    private final Path file;
    private final String node;
    private final double accessDelayMs;
    private final Clock clock;
    private final ExecutorService writer;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    /** The writer thread's own: whether its last attempt failed, so that a failing disk logs once, not per call. */
    private boolean failing;
    private long refusedLogged;

    CallRecords(Path file, String node, double accessDelayMs, Clock clock, ExecutorService writer) {
        this.file = file;
        this.node = node;
        this.accessDelayMs = accessDelayMs;
        this.clock = clock;
        this.writer = writer;
        // A file that cannot be written is said at start-up, not at the first call's end.
        writer.execute(this::check);
    }

    /** Records to {@code file} from a thread of its own, named after the node. */
    static CallRecords open(Path file, String node, double accessDelayMs) {
        ThreadPoolExecutor writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE), r -> {
                    Thread t = new Thread(r, "hopwise-call-records-" + node);
                    t.setDaemon(true);
                    return t;
                });
        return new CallRecords(file, node, accessDelayMs, Clock.systemUTC(), writer);
    }

    Path file() {
        return file;
    }

    /** Queues the call's record; on the relay's loop, and never waits. */
    void add(CallStatistics call) {
        Instant at = clock.instant();
        try {
            writer.execute(() -> write(call, at));
        } catch (RejectedExecutionException e) {
            // The writer is behind (or closed): the record is lost, counted here and logged by the writer.
            refused.incrementAndGet();
            failures.incrementAndGet();
        }
    }

    /** Records written and records lost, for the relay's counters. */
    Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("callRecordsWritten", written.get());
        m.put("callRecordFailures", failures.get());
        return m;
    }

    /**
     * Writes what is queued and stops the writer; waits for it unless {@code wait} is false (on a
     * thread that must not block), at most a few seconds, after which what is left is lost and said so.
     */
    void close(boolean wait) {
        writer.shutdown();
        if (!wait) {
            return;
        }
        try {
            if (!writer.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.log(Level.WARNING, "call records of node " + node + ": the writer did not finish within 5 s;"
                        + " records still queued for " + file + " are lost");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void check() {
        try {
            append(new byte[0]);
        } catch (IOException | RuntimeException e) {
            failing = true;
            LOG.log(Level.WARNING, "call records of node " + node + " cannot be written to " + file + ": " + e);
        }
    }

    private void write(CallStatistics call, Instant at) {
        long lost = refused.get();
        if (lost != refusedLogged) {
            LOG.log(Level.WARNING, "call records of node " + node + ": " + (lost - refusedLogged) + " record(s) lost"
                    + " because writing to " + file + " fell a full queue behind");
            refusedLogged = lost;
        }
        try {
            append((CallRecordJson.line(call, node, at, accessDelayMs) + "\n").getBytes(StandardCharsets.UTF_8));
            written.incrementAndGet();
            if (failing) {
                failing = false;
                LOG.log(Level.INFO, "call records of node " + node + " are written to " + file + " again");
            }
        } catch (IOException | RuntimeException e) {
            failures.incrementAndGet();
            if (!failing) {
                failing = true;
                LOG.log(Level.WARNING, "call records of node " + node + " cannot be written to " + file + ": " + e
                        + " (records are counted as callRecordFailures until writing works again)");
            }
        }
    }

    private void append(byte[] bytes) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            Files.createDirectories(parent);
        }
        Files.write(file, bytes, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    }
}

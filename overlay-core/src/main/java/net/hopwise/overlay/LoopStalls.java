package net.hopwise.overlay;

/**
 * Notices a node's timer running late: more than a threshold (the hello interval) after it was due
 * means the node's thread was held that long (a pause of the JVM, the cores busy elsewhere, a loop it
 * shares with other nodes and sockets kept working). Its links heard nothing meanwhile, and a hold
 * past the dead interval takes them down though every peer is alive, every link at once when the
 * peers share the held thread (the admin service's demo runs five nodes on one). Counting and saying
 * so tells such a flap from the network's: every stall is counted, and those that come near the dead
 * interval (half of it) are to be logged, at most once a minute, since a shorter one cannot take a
 * link down by itself and a busy machine has many. Sans-IO: times are the caller's, so it is tested on
 * virtual time. Written on the node's loop, read from any thread.
 */
final class LoopStalls {
    private final long thresholdNanos;
    private final long logNanos;
    private final long logEveryNanos;
    private volatile long count;
    private volatile long longestNanos;
    private volatile long lastNanos;
    private boolean logged;
    private long nextLogAt;

    /**
     * @param thresholdNanos lateness up to which a timer is on time
     * @param logNanos lateness from which a stall is to be logged
     * @param logEveryNanos at most one stall in this long is to be logged (the first always is)
     */
    LoopStalls(long thresholdNanos, long logNanos, long logEveryNanos) {
        if (thresholdNanos <= 0 || logNanos < thresholdNanos || logEveryNanos < 0) {
            throw new IllegalArgumentException("threshold " + thresholdNanos + " ns, logged from " + logNanos
                    + " ns, at most every " + logEveryNanos + " ns");
        }
        this.thresholdNanos = thresholdNanos;
        this.logNanos = logNanos;
        this.logEveryNanos = logEveryNanos;
    }

    /**
     * The timer due at {@code dueNanos} runs at {@code nowNanos}; true when it was a stall to log now.
     */
    boolean onTimer(long dueNanos, long nowNanos) {
        long late = nowNanos - dueNanos;
        if (late <= thresholdNanos) {
            return false;
        }
        count++;
        lastNanos = late;
        longestNanos = Math.max(longestNanos, late);
        if (late < logNanos || (logged && nowNanos - nextLogAt < 0)) {
            return false;
        }
        logged = true;
        nextLogAt = nowNanos + logEveryNanos;
        return true;
    }

    /** Stalls noticed. */
    long count() {
        return count;
    }

    /** How late the timer ran in the last stall, in nanoseconds; 0 if none. */
    long lastNanos() {
        return lastNanos;
    }

    /** How late the timer ran in the longest stall, in nanoseconds; 0 if none. */
    long longestNanos() {
        return longestNanos;
    }
}

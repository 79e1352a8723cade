package net.hopwise.examples.bench;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The client side of a ping-pong with one message outstanding: stamps each ping, records each
 * reply's round-trip time after the warm-up, and says whether to send the next ping.
 *
 * <p>{@link #onReply} runs on one thread at a time (the client's event loop); the hand-offs to it go
 * through the transport, which orders the stamps before their replies.
 */
final class PingPong {
    /** A ping without a reply for this long means it was lost: the run is void, not slow. */
    private static final Duration STALL = Duration.ofSeconds(5);

    private final int warmup;
    private final long[] samples;
    private final CountDownLatch finished = new CountDownLatch(1);
    private int replies;
    private long sentAt;
    private volatile int progress;
    private volatile String failure;

    PingPong(int warmup, int count) {
        this.warmup = warmup;
        this.samples = new long[count];
    }

    /** Stamps the first ping; call just before sending it. */
    void start() {
        sentAt = System.nanoTime();
    }

    /**
     * Records the reply that arrived at {@code now}; when it returns true the next ping has been
     * stamped and must be sent at once.
     */
    boolean onReply(long now) {
        int index = replies++;
        if (index >= warmup) {
            samples[index - warmup] = now - sentAt;
        }
        progress = replies;
        if (replies == warmup + samples.length) {
            finished.countDown();
            return false;
        }
        sentAt = System.nanoTime();
        return true;
    }

    /** Ends the run as failed, e.g. when a send was refused. */
    void fail(String why) {
        failure = why;
        finished.countDown();
    }

    /**
     * Waits for every round trip and returns the measured ones.
     *
     * @throws IllegalStateException when a ping got no reply for {@link #STALL} or the run failed
     */
    LatencySamples await(String what) {
        int seen = -1;
        long lastProgress = System.nanoTime();
        try {
            while (!finished.await(200, TimeUnit.MILLISECONDS)) {
                int p = progress;
                if (p != seen) {
                    seen = p;
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
                    throw new IllegalStateException(what + ": no reply for " + STALL + " after " + p
                            + " round trips (a ping was lost)");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " interrupted", e);
        }
        if (failure != null) {
            throw new IllegalStateException(what + " failed: " + failure);
        }
        return new LatencySamples(samples);
    }
}

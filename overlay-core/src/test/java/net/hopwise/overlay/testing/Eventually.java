package net.hopwise.overlay.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition that real sockets and threads will make true (a route appears, a packet is
 * counted). The limit only turns a hang into a failure with a message; no test asserts how long a
 * wait took.
 */
public final class Eventually {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private Eventually() {}

    public static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting after " + LIMIT.toSeconds() + " s for: " + what);
            }
            LockSupport.parkNanos(2_000_000);
        }
    }
}

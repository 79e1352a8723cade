package net.hopwise.admin;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition that a running overlay will make true, polling gently (HTTP calls are not
 * free). The limit only turns a hang into a failure; no test asserts how long a wait took.
 */
final class Conditions {
    private static final Duration LIMIT = Duration.ofSeconds(40);
    private static final long POLL_NANOS = 100_000_000L;

    private Conditions() {}

    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting after " + LIMIT.toSeconds() + " s for: " + what);
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }
}

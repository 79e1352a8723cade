package net.hopwise.overlay.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition that real sockets and threads will make true (a route appears, a packet is
 * counted). The limit only turns a hang into a failure with a message; no test asserts how long a
 * wait took.
 */
public final class Eventually {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private Eventually() {}

    public static void await(String what, BooleanSupplier condition) {
        await(what, condition, () -> "");
    }

    /**
     * As above; on giving up, the message also says what {@code state} reads then, so that a rare
     * failure names what was still held rather than only what was awaited.
     */
    public static void await(String what, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                String now = state.get();
                throw new AssertionError("gave up waiting after " + LIMIT.toSeconds() + " s for: " + what
                        + (now.isEmpty() ? "" : "; " + now));
            }
            LockSupport.parkNanos(2_000_000);
        }
    }
}

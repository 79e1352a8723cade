package net.hopwise.overlay;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Room in a reliable session's send buffer, in packets: taken by senders on any thread and given
 * back on the event loop as the remote end acknowledges.
 *
 * <p>It has a low-water mark, as a Netty channel's writability has: once a send found the buffer
 * full, the session takes more only when half of it is free again. Without it a sender that retries
 * at once wakes for every acknowledgement and sends a few packets each time, which on a busy machine
 * costs a thread switch per few dozen messages; with it the sender sleeps until it can send half a
 * buffer in one go, and the other half keeps the path busy meanwhile.
 */
final class SendCredit {
    private final int limit;
    private final AtomicInteger outstanding = new AtomicInteger();
    /** Set when a take was refused; cleared once half the buffer is free (by a take or the loop). */
    private volatile boolean full;
    /** Set when a take was refused; cleared only by the give-back that wakes the waiters. */
    private volatile boolean wanted;

    SendCredit(int limit) {
        if (limit < 2) {
            throw new IllegalArgumentException("limit must be at least 2, got " + limit);
        }
        this.limit = limit;
    }

    /** Takes room for {@code packets}; false when the buffer is full, or was and is not yet half empty. */
    boolean tryTake(int packets) {
        while (true) {
            int now = outstanding.get();
            if (full) {
                if (now > limit / 2) {
                    return false;
                }
                full = false;
            }
            if (now + packets > limit) {
                full = true;
                wanted = true;
                // Acknowledgements may have freed half the buffer before the flags were seen: then no
                // give-back would wake anyone, so look again (give-backs read the flags after counting).
                int again = outstanding.get();
                if (again > limit / 2 || again + packets > limit) {
                    return false;
                }
                continue;
            }
            if (outstanding.compareAndSet(now, now + packets)) {
                return true;
            }
        }
    }

    /** Gives room back; true when a refused sender waits and half the buffer is free now (wake it). */
    boolean giveBack(int packets) {
        int left = outstanding.addAndGet(-packets);
        if (left <= limit / 2) {
            full = false;
            if (wanted) {
                wanted = false;
                return true;
            }
        }
        return false;
    }

    /** Whether a send now would find room. */
    boolean isWritable() {
        int now = outstanding.get();
        return now < limit && (!full || now <= limit / 2);
    }

    /** Whether a refused sender waits for half the buffer to be free. */
    boolean waiting() {
        return wanted;
    }

    int outstanding() {
        return outstanding.get();
    }
}

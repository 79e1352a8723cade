package net.hopwise.multicast;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds the best-effort sends handed from applications' threads to the node's thread and not yet
 * sent. Each is a task with a copy of its message; an application sending faster than the node can
 * send once filled the heap with them (2 GB in a fan-out benchmark). Beyond the bound a send is
 * refused as blocked, as the node's own unicast send is beyond its sendQueueLimit, and the senders that
 * were refused hear it when the queue is back to half, so they neither spin nor wait for ever.
 */
final class SendBound {
    private final int limit;
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean refused = new AtomicBoolean();

    SendBound(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the send bound must be at least 1, got " + limit);
        }
        this.limit = limit;
    }

    /** Takes a place for one send; false (and remembered) when the bound is reached. Any thread. */
    boolean take() {
        if (queued.incrementAndGet() > limit) {
            queued.decrementAndGet();
            refused.set(true);
            return false;
        }
        return true;
    }

    /** A taken place whose send never reached the node (it stopped). Any thread. */
    void giveBack() {
        queued.decrementAndGet();
    }

    /**
     * On the node's thread, as a handed-over send is sent: true when a sender was refused since the
     * last wake-up and the queue is now down to half, so that the writable listeners should run.
     */
    boolean sent() {
        int left = queued.decrementAndGet();
        return left <= limit / 2 && refused.get() && refused.compareAndSet(true, false);
    }

    boolean writable() {
        return queued.get() < limit;
    }

    int queued() {
        return queued.get();
    }
}

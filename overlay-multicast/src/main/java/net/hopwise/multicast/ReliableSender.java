package net.hopwise.multicast;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sender of one reliable stream: the one message the node holds while the window (under {@link
 * SlowMemberPolicy#SLOW_GROUP}) is full. Its API runs on any thread; {@link #held} and the stream on
 * the node's.
 */
final class ReliableSender implements GroupSender {
    private final ReliableEngine engine;
    final StreamKey key;
    final SlowMemberPolicy policy;
    private final AtomicBoolean holding = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong messages = new AtomicLong();
    private final AtomicLong blocked = new AtomicLong();
    final AtomicLong packets = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    private volatile Runnable listener;

    /** On the node's thread only: the message waiting for room in the window. */
    byte[] held;
    int heldFragments;

    ReliableSender(ReliableEngine engine, StreamKey key, SlowMemberPolicy policy) {
        this.engine = engine;
        this.key = key;
        this.policy = policy;
    }

    @Override
    public GroupId group() {
        return key.group();
    }

    @Override
    public int port() {
        return key.port();
    }

    @Override
    public SendResult send(byte[] payload) {
        if (closed.get()) {
            return SendResult.refused(SendResult.Status.STOPPED, "the sender is closed");
        }
        SendResult refused = engine.checkSize(payload, policy);
        if (refused != null) {
            return refused;
        }
        if (!holding.compareAndSet(false, true)) {
            blocked.incrementAndGet();
            return SendResult.refused(SendResult.Status.BLOCKED,
                    "the window waits for the slowest member: send again when the sender is writable");
        }
        int fragments = engine.fragmentsOf(payload.length);
        byte[] bytes = payload.clone(); // the caller may reuse its array once send returns
        try {
            engine.execute(() -> engine.offer(this, bytes, fragments));
        } catch (RejectedExecutionException e) {
            holding.set(false);
            return SendResult.refused(SendResult.Status.STOPPED, "the node is stopped");
        }
        messages.incrementAndGet();
        return SendResult.accepted(fragments);
    }

    /** On the node's thread: the held message went; returns the listener to run. */
    Runnable released() {
        held = null;
        holding.set(false);
        return listener;
    }

    @Override
    public boolean writable() {
        return !holding.get() && !closed.get();
    }

    @Override
    public void onWritable(Runnable listener) {
        this.listener = listener;
    }

    @Override
    public SenderStatistics statistics() {
        return new SenderStatistics(messages.get(), packets.get(), bytes.get(), blocked.get(), 0, 0, 0);
    }

    boolean closed() {
        return closed.get();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                engine.execute(() -> engine.remove(this));
            } catch (RejectedExecutionException e) {
                // the node stopped: its close released everything
            }
        }
    }
}

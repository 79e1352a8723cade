package net.hopwise.multicast;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sender of one reliable stream. Messages wait in a queue that the node's thread drains in
 * batches: handing each message to the node on its own (and waiting for it to go before taking the
 * next) cost a thread hand-off per message and held a stream to some ten thousand messages a second.
 * What may be queued is bounded by credit: under {@link SlowMemberPolicy#SLOW_GROUP} the window, so
 * that the packets accepted and not yet acknowledged by the slowest member never exceed it (the
 * window's promise counts what waits here); under the other policies the window's worth of packets
 * waiting to go. Its API runs on any thread; the queue's head and the stream on the node's.
 */
final class ReliableSender implements GroupSender {
    private final ReliableEngine engine;
    final StreamKey key;
    final SlowMemberPolicy policy;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong messages = new AtomicLong();
    private final AtomicLong blocked = new AtomicLong();
    final AtomicLong packets = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    /** Packets the sender may still accept (see the class comment); may fall below zero when a member's report does. */
    private final AtomicLong credit;
    /** Set by a sender that found no credit: the next credit returned wakes its listener. */
    private final AtomicBoolean waiting = new AtomicBoolean();
    /** Whether a drain task is on its way to the node's thread. */
    private final AtomicBoolean draining = new AtomicBoolean();
    private final Queue<Queued> queue = new ConcurrentLinkedQueue<>();
    private final int full;
    private volatile Runnable listener;

    /** A message accepted and not yet sent, with the packets it takes. */
    record Queued(byte[] payload, int fragments) {}

    ReliableSender(ReliableEngine engine, StreamKey key, SlowMemberPolicy policy, int windowPackets) {
        this.engine = engine;
        this.key = key;
        this.policy = policy;
        this.full = windowPackets;
        this.credit = new AtomicLong(windowPackets);
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
        int fragments = engine.fragmentsOf(payload.length);
        if (!take(fragments)) {
            blocked.incrementAndGet();
            return SendResult.refused(SendResult.Status.BLOCKED, policy == SlowMemberPolicy.SLOW_GROUP
                    ? "the window waits for the slowest member: send again when the sender is writable"
                    : "the send queue is full: send again when the sender is writable");
        }
        byte[] bytes = payload.clone(); // the caller may reuse its array once send returns
        Queued q = new Queued(bytes, fragments);
        queue.add(q);
        if (draining.compareAndSet(false, true)) {
            try {
                engine.execute(() -> engine.drain(this));
            } catch (RejectedExecutionException e) {
                queue.remove(q);
                draining.set(false);
                credit.addAndGet(fragments);
                return SendResult.refused(SendResult.Status.STOPPED, "the node is stopped");
            }
        }
        messages.incrementAndGet();
        return SendResult.accepted(fragments);
    }

    /** Takes credit for {@code n} packets; a sender refused marks itself waiting, then looks once more. */
    private boolean take(int n) {
        for (int attempt = 0; attempt < 2; attempt++) {
            long c = credit.get();
            // Outside SLOW_GROUP a message larger than the whole credit still goes, alone.
            while (c >= n || policy != SlowMemberPolicy.SLOW_GROUP && c >= full) {
                if (credit.compareAndSet(c, c - n)) {
                    return true;
                }
                c = credit.get();
            }
            // Marked before the second look, so credit returned in between is seen or wakes the listener.
            waiting.set(true);
        }
        return false;
    }

    /** On the node's thread: the drain task runs; messages queued from now on schedule another. */
    void draining() {
        draining.set(false);
    }

    /** On the node's thread: the next message to send, or null. */
    Queued peek() {
        return queue.peek();
    }

    /** On the node's thread: the head went; outside {@code SLOW_GROUP} its packets' credit comes back now. */
    void sent(Queued q) {
        queue.poll();
        packets.addAndGet(q.fragments());
        if (policy != SlowMemberPolicy.SLOW_GROUP) {
            credit.addAndGet(q.fragments());
        }
    }

    /** On the node's thread: the slowest member's acknowledgement moved by {@code delta} packets. */
    void acknowledged(long delta) {
        if (policy == SlowMemberPolicy.SLOW_GROUP && delta != 0) {
            // Capped: a sender made anew for a stream with packets still out must not count them twice.
            credit.accumulateAndGet(delta, (c, d) -> Math.min(full, c + d));
        }
    }

    /** On the node's thread, after a drain or an acknowledgement: wakes a sender that found no credit. */
    void wake() {
        Runnable l = listener;
        if (credit.get() > 0 && waiting.getAndSet(false) && l != null) {
            l.run();
        }
    }

    /** On the node's thread: forgets what waits (the sender closed). */
    void clear() {
        queue.clear();
    }

    @Override
    public boolean writable() {
        if (closed.get()) {
            return false;
        }
        if (credit.get() > 0) {
            return true;
        }
        waiting.set(true);
        return credit.get() > 0;
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

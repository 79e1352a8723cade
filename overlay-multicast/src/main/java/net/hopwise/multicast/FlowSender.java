package net.hopwise.multicast;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * A sender under Cost-Benefit flow control: the client's budget and the one message the node holds
 * for it (the thesis's daemon keeps the packet it could not afford and stops reading the client).
 * Its API runs on any thread; everything else on the node's.
 */
final class FlowSender implements GroupSender {
    private final MulticastStage stage;
    private final FlowControl flow;
    private final GroupId group;
    private final String groupName;
    private final int port;
    private final RoutingMetric metric;
    private final AtomicBoolean holding = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong messages = new AtomicLong();
    private final AtomicLong packets = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong blocked = new AtomicLong();
    private volatile Runnable listener;
    private volatile double tokens;
    private volatile long period;
    private volatile double lastCost;

    // On the node's thread only.
    ClientBudget budget;
    byte[] payload;
    int fragments;
    int nextFragment;
    long messageId;
    long holdUntilNanos;

    FlowSender(MulticastStage stage, FlowControl flow, GroupId group, String groupName, int port,
            RoutingMetric metric) {
        this.stage = stage;
        this.flow = flow;
        this.group = group;
        this.groupName = groupName;
        this.port = port;
        this.metric = metric;
    }

    @Override
    public GroupId group() {
        return group;
    }

    @Override
    public int port() {
        return port;
    }

    RoutingMetric metric() {
        return metric;
    }

    @Override
    public SendResult send(byte[] payload) {
        if (closed.get()) {
            return SendResult.refused(SendResult.Status.STOPPED, "the sender is closed");
        }
        if (flow == null) {
            return stage.send(groupName, port, metric, payload);
        }
        SendResult size = stage.checkSize(payload);
        if (size != null) {
            return size;
        }
        if (!holding.compareAndSet(false, true)) {
            blocked.incrementAndGet();
            return SendResult.refused(SendResult.Status.BLOCKED,
                    "the previous message is not bought yet: send again when the sender is writable");
        }
        byte[] bytes = payload.clone(); // the caller may reuse its array once send returns
        int count = stage.fragmentsOf(bytes.length);
        try {
            stage.context().execute(() -> flow.offer(this, bytes, count));
        } catch (RejectedExecutionException e) {
            holding.set(false);
            return SendResult.refused(SendResult.Status.STOPPED, "the node is stopped");
        }
        messages.incrementAndGet();
        stage.countSent(group);
        return SendResult.accepted(count);
    }

    @Override
    public boolean writable() {
        return flow == null ? stage.plainWritable() : !holding.get();
    }

    @Override
    public void onWritable(Runnable listener) {
        this.listener = listener;
    }

    @Override
    public SenderStatistics statistics() {
        return new SenderStatistics(messages.get(), packets.get(), bytes.get(), blocked.get(), tokens, period,
                lastCost);
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (flow == null) {
            stage.forget(this);
        } else {
            try {
                stage.context().execute(() -> flow.remove(this));
            } catch (RejectedExecutionException e) {
                // Stopped: the node dropped what it held.
            }
        }
    }

    boolean closed() {
        return closed.get();
    }

    // ---------------------------------------------------------------- on the node's thread

    boolean hasMessage() {
        return payload != null;
    }

    void take(byte[] message, int count) {
        payload = message;
        fragments = count;
        nextFragment = 0;
        holdUntilNanos = 0;
    }

    /** A packet was bought at {@code cost}: counts it, and says whether it was the message's last. */
    boolean bought(double cost, int bodyBytes) {
        packets.incrementAndGet();
        bytes.addAndGet(bodyBytes);
        lastCost = cost;
        nextFragment++;
        return nextFragment >= fragments;
    }

    /** The writable listener, if one was set. */
    Runnable listener() {
        return listener;
    }

    /** The held message has left (or was dropped): the sender takes another. */
    Runnable release() {
        payload = null;
        holding.set(false);
        return listener;
    }

    void publish() {
        tokens = budget.tokens();
        period = budget.periodNanos();
    }
}

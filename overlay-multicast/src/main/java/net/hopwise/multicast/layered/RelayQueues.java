package net.hopwise.multicast.layered;

import io.netty.buffer.ByteBuf;
import java.util.HashMap;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;

/**
 * A relay's layered data on its way to the children, under the node's {@link RelayQueueing}: at
 * once, or through one {@link FairLinkQueue} per outgoing link. Only on the node's thread.
 */
final class RelayQueues {
    private final ModuleContext context;
    private final DropCounter unsent;
    private final DropCounter queueFull;
    private final Map<NodeId, FairLinkQueue> queues = new HashMap<>();
    private RelayQueueing queueing = RelayQueueing.dropTail();

    RelayQueues(ModuleContext context, DropCounter unsent, DropCounter queueFull) {
        this.context = context;
        this.unsent = unsent;
        this.queueFull = queueFull;
    }

    /** From now on; what waited under the old discipline is dropped (counted as unsent). */
    void set(RelayQueueing q) {
        for (FairLinkQueue fq : queues.values()) {
            for (int i = fq.queued(); i > 0; i--) {
                unsent.increment();
            }
            fq.clear();
        }
        queues.clear();
        queueing = q;
    }

    RelayQueueing queueing() {
        return queueing;
    }

    /** Sends {@code body} (taken) to the neighbour {@code to} for {@code session}, now or in its turn. */
    void send(NodeId to, Object session, ByteBuf body, long nowNanos) {
        if (queueing.discipline() == RelayQueueing.Discipline.DROP_TAIL) {
            LinkView link = context.link(to);
            if (link == null) {
                body.release();
                unsent.increment();
            } else if (!context.sendImmediately(link, LayeredWire.DATA, body)) {
                unsent.increment();
            }
            return;
        }
        FairLinkQueue q = queues.computeIfAbsent(to,
                k -> new FairLinkQueue(queueing.rateBitsPerSecond(), queueing.packetsPerSession()));
        if (!q.offer(session, body)) {
            queueFull.increment();
        }
        drain(to, q, nowNanos);
    }

    private void drain(NodeId to, FairLinkQueue q, long nowNanos) {
        LinkView link = context.link(to);
        q.drain(nowNanos, b -> {
            if (link == null) {
                b.release();
                unsent.increment();
            } else if (!context.sendImmediately(link, LayeredWire.DATA, b)) {
                unsent.increment();
            }
        });
    }

    long nextDeadlineNanos() {
        long next = Long.MAX_VALUE;
        for (FairLinkQueue q : queues.values()) {
            next = Math.min(next, q.nextDeadlineNanos());
        }
        return next;
    }

    void onTimer(long nowNanos) {
        for (Map.Entry<NodeId, FairLinkQueue> e : queues.entrySet()) {
            drain(e.getKey(), e.getValue(), nowNanos);
        }
    }

    /** The queue of the link to {@code to}, or null: for tests. */
    FairLinkQueue queue(NodeId to) {
        return queues.get(to);
    }

    void close() {
        for (FairLinkQueue q : queues.values()) {
            q.clear();
        }
        queues.clear();
    }
}

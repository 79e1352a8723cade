package net.hopwise.overlay.link;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import net.hopwise.overlay.NodeId;

/**
 * Two {@link LinkMonitor}s wired back to back through a virtual channel on virtual time. Each
 * direction has its own one-way delay, uniform extra jitter, loss and duplication, drawn from one
 * seeded {@link Random}; each node has its own clock offset, so nothing relies on synchronised
 * clocks. Hellos go through {@link HelloCodec} and real buffers on the way.
 */
final class VirtualLink {
    static final long MS = 1_000_000L;
    static final long SECOND = 1_000_000_000L;

    /** One direction of the channel; fields may be changed between runs. */
    static final class Direction {
        long delayNanos;
        long jitterNanos;
        double loss;
        double duplicate;
        long nextLinkSeq;
        long sent;
        long dropped;

        Direction delay(long nanos) {
            delayNanos = nanos;
            return this;
        }

        Direction jitter(long nanos) {
            jitterNanos = nanos;
            return this;
        }

        Direction loss(double p) {
            loss = p;
            return this;
        }

        Direction duplicate(double p) {
            duplicate = p;
            return this;
        }

        Direction firstLinkSeq(long seq) {
            nextLinkSeq = seq & 0xFFFF_FFFFL;
            return this;
        }
    }

    /** One end: a monitor, its clock and everything it emitted. */
    final class Node implements LinkMonitorOutput {
        final String name;
        final NodeId id;
        final Direction out = new Direction();
        Node other;
        LinkMonitor monitor;
        long clockOffset;
        boolean online = true;
        long dataPeriodNanos;
        long nextDataAt = Long.MAX_VALUE;
        final List<Long> upsAt = new ArrayList<>();
        final List<Long> downsAt = new ArrayList<>();
        final List<Long> hellosAt = new ArrayList<>();
        long qualityChanges;
        long lastDeliveryAt = -1;
        final List<Long> receivedSeqs = new ArrayList<>();
        private long timerFiredAt = Long.MIN_VALUE;
        private int timerRepeats;

        Node(String name, long clockOffset) {
            this.name = name;
            this.id = NodeId.ofName(name);
            this.clockOffset = clockOffset;
        }

        long now() {
            return simNow + clockOffset;
        }

        /** (Re)creates the monitor at the current time: a process start or restart. */
        Node start() {
            monitor = new LinkMonitor(id, name, other.id, config, this, now());
            online = true;
            return this;
        }

        /** Sends one data packet to the peer every period from now on (0 stops). */
        Node sendData(long periodNanos) {
            dataPeriodNanos = periodNanos;
            nextDataAt = periodNanos > 0 ? simNow + periodNanos : Long.MAX_VALUE;
            return this;
        }

        long timerAt() {
            return online && monitor != null ? monitor.nextDeadlineNanos() - clockOffset : Long.MAX_VALUE;
        }

        @Override
        public void sendHello(HelloPacket hello) {
            hellosAt.add(simNow);
            ByteBuf buf = PooledByteBufAllocator.DEFAULT.buffer(HelloCodec.MAX_LENGTH);
            try {
                HelloCodec.encode(hello, buf);
                byte[] bytes = new byte[buf.readableBytes()];
                buf.readBytes(bytes);
                transmit(this, bytes);
            } finally {
                buf.release();
            }
        }

        @Override
        public void linkUp(long nowNanos) {
            upsAt.add(simNow);
        }

        @Override
        public void linkDown(long nowNanos) {
            downsAt.add(simNow);
        }

        @Override
        public void qualityChanged(long nowNanos) {
            qualityChanges++;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private record Delivery(long at, long order, Node to, long linkSeq, byte[] hello) {}

    final HelloConfig config;
    final Random random;
    final Node a;
    final Node b;
    long simNow;
    private long order;
    private final PriorityQueue<Delivery> inFlight = new PriorityQueue<>(
            (x, y) -> x.at != y.at ? Long.compare(x.at, y.at) : Long.compare(x.order, y.order));

    VirtualLink(HelloConfig config, long seed) {
        this.config = config;
        this.random = new Random(seed);
        // Far-apart clock origins on purpose: only differences on one clock may matter.
        a = new Node("alpha", 7_000_000_000_000L);
        b = new Node("bravo", -3_000_000_000_123L);
        a.other = b;
        b.other = a;
    }

    static VirtualLink withDelay(long oneWayNanos, long seed) {
        VirtualLink link = new VirtualLink(HelloConfig.defaults(), seed);
        link.a.out.delay(oneWayNanos);
        link.b.out.delay(oneWayNanos);
        return link;
    }

    VirtualLink startBoth() {
        a.start();
        b.start();
        return this;
    }

    /** Runs every event due up to and including {@code until} (virtual nanoseconds), in time order. */
    void runUntil(long until) {
        while (true) {
            Delivery next = inFlight.peek();
            long deliveryAt = next == null ? Long.MAX_VALUE : next.at;
            long at = Math.min(deliveryAt, Math.min(Math.min(a.timerAt(), b.timerAt()),
                    Math.min(a.nextDataAt, b.nextDataAt)));
            if (at > until) {
                break;
            }
            simNow = Math.max(simNow, at);
            if (deliveryAt == at) {
                deliver(inFlight.poll());
            } else if (a.timerAt() == at) {
                fireTimer(a);
            } else if (b.timerAt() == at) {
                fireTimer(b);
            } else if (a.nextDataAt == at) {
                sendData(a);
            } else {
                sendData(b);
            }
        }
        simNow = until;
    }

    void runFor(long nanos) {
        runUntil(simNow + nanos);
    }

    /** Runs until {@code node}'s status is {@code wanted} or {@code limit} passes; returns when (or -1). */
    long runUntilStatus(Node node, LinkStatus wanted, long limit) {
        long step = MS / 10;
        while (simNow < limit) {
            if (node.monitor.status() == wanted) {
                return simNow;
            }
            runUntil(Math.min(limit, simNow + step));
        }
        return node.monitor.status() == wanted ? simNow : -1;
    }

    private void fireTimer(Node n) {
        if (n.timerFiredAt == simNow) {
            if (++n.timerRepeats > 100) {
                throw new AssertionError(n + ": deadline does not advance past " + simNow);
            }
        } else {
            n.timerFiredAt = simNow;
            n.timerRepeats = 0;
        }
        n.monitor.onTimer(n.now());
    }

    private void sendData(Node n) {
        if (n.online) {
            transmit(n, null);
        }
        n.nextDataAt = n.dataPeriodNanos > 0 ? n.nextDataAt + n.dataPeriodNanos : Long.MAX_VALUE;
    }

    private void transmit(Node from, byte[] hello) {
        Direction d = from.out;
        long seq = d.nextLinkSeq;
        d.nextLinkSeq = (seq + 1) & 0xFFFF_FFFFL;
        d.sent++;
        if (random.nextDouble() < d.loss) {
            d.dropped++;
            return;
        }
        schedule(from.other, seq, hello, d);
        if (d.duplicate > 0 && random.nextDouble() < d.duplicate) {
            schedule(from.other, seq, hello, d);
        }
    }

    private void schedule(Node to, long seq, byte[] hello, Direction d) {
        long extra = d.jitterNanos > 0 ? random.nextLong(d.jitterNanos + 1) : 0;
        inFlight.add(new Delivery(simNow + d.delayNanos + extra, order++, to, seq, hello));
    }

    private void deliver(Delivery d) {
        Node to = d.to;
        if (!to.online || to.monitor == null) {
            return;
        }
        long now = to.now();
        to.lastDeliveryAt = simNow;
        to.receivedSeqs.add(d.linkSeq);
        to.monitor.onPacketReceived(d.linkSeq, now);
        if (d.hello != null) {
            ByteBuf body = Unpooled.wrappedBuffer(d.hello);
            try {
                HelloPacket hello = HelloCodec.decode(body);
                if (hello == null) {
                    throw new AssertionError("a hello we encoded did not decode");
                }
                to.monitor.onHello(hello, now);
            } finally {
                body.release();
            }
        }
    }
}

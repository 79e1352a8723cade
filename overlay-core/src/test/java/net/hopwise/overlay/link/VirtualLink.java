package net.hopwise.overlay.link;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.testing.MachineTimer;

/**
 * Two {@link LinkMonitor}s wired back to back through a virtual channel on virtual time. Each
 * direction has its own one-way delay, uniform extra jitter, loss and duplication, drawn from one
 * seeded {@link Random}; each node has its own clock offset, so nothing relies on synchronised
 * clocks. Hellos go through {@link HelloCodec} and real buffers on the way.
 *
 * <p>Runs on the simulator's engine ({@link Simulator}): its event queue and ordering, its clock read
 * from the start of the run, so that the tests' instants count from 0.
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
        /** Bumped when the data period changes, so the sends of the old period stop. */
        private long dataGeneration;
        private final MachineTimer timer;
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
            this.timer = new MachineTimer(simulator, Simulator.START_NANOS, name.hashCode(), this::timerAt,
                    now -> fireTimer(this));
        }

        long now() {
            return simNow() + clockOffset;
        }

        /** (Re)creates the monitor at the current time: a process start or restart. */
        Node start() {
            monitor = new LinkMonitor(id, name, other.id, config, this, now());
            online = true;
            wake();
            return this;
        }

        /** Sends one data packet to the peer every period from now on (0 stops). */
        Node sendData(long periodNanos) {
            dataPeriodNanos = periodNanos;
            long generation = ++dataGeneration;
            if (periodNanos > 0) {
                simulator.after(periodNanos, t -> dataDue(this, generation));
            }
            return this;
        }

        /** When the monitor is next due, on the link's clock; MAX_VALUE if never. */
        long timerAt() {
            if (!online || monitor == null || monitor.nextDeadlineNanos() == Long.MAX_VALUE) {
                return Long.MAX_VALUE;
            }
            return monitor.nextDeadlineNanos() - clockOffset;
        }

        void wake() {
            timer.wake();
        }

        @Override
        public void sendHello(HelloPacket hello) {
            hellosAt.add(simNow());
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
            upsAt.add(simNow());
        }

        @Override
        public void linkDown(long nowNanos) {
            downsAt.add(simNow());
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

    final HelloConfig config;
    final Random random;
    private final Simulator simulator = new Simulator();
    final Node a;
    final Node b;

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

    /** Virtual time since the link was made. */
    long simNow() {
        return simulator.now() - Simulator.START_NANOS;
    }

    /** Runs every event due up to and including {@code until} (virtual nanoseconds), in time order. */
    void runUntil(long until) {
        // The test may have changed a node's clock or taken it offline since the last run.
        a.wake();
        b.wake();
        simulator.runUntil(Simulator.START_NANOS + until);
    }

    void runFor(long nanos) {
        runUntil(simNow() + nanos);
    }

    /** Runs until {@code node}'s status is {@code wanted} or {@code limit} passes; returns when (or -1). */
    long runUntilStatus(Node node, LinkStatus wanted, long limit) {
        long step = MS / 10;
        while (simNow() < limit) {
            if (node.monitor.status() == wanted) {
                return simNow();
            }
            runUntil(Math.min(limit, simNow() + step));
        }
        return node.monitor.status() == wanted ? simNow() : -1;
    }

    private void fireTimer(Node n) {
        long simNow = simNow();
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

    private void dataDue(Node n, long generation) {
        if (generation != n.dataGeneration) {
            return;
        }
        if (n.online) {
            transmit(n, null);
        }
        simulator.after(n.dataPeriodNanos, t -> dataDue(n, generation));
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
        simulator.after(d.delayNanos + extra, t -> deliver(to, seq, hello));
    }

    private void deliver(Node to, long linkSeq, byte[] helloBytes) {
        if (!to.online || to.monitor == null) {
            return;
        }
        long now = to.now();
        to.lastDeliveryAt = simNow();
        to.receivedSeqs.add(linkSeq);
        to.monitor.onPacketReceived(linkSeq, now);
        if (helloBytes != null) {
            ByteBuf body = Unpooled.wrappedBuffer(helloBytes);
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
        to.wake();
    }
}

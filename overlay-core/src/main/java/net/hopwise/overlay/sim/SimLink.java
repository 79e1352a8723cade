package net.hopwise.overlay.sim;

import java.time.Duration;
import java.util.SplittableRandom;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.impair.ImpairmentModel;

/**
 * One direction of a simulated link: queue, serialisation at the bandwidth, loss on the wire
 * (the impairment package's seeded model, the same one live nodes use), then propagation.
 *
 * <p>A failed link drops what it is offered and what is queued or in flight on it; a packet whose
 * far end has crashed is dropped on arrival. Every drop and arrival goes into the trace.
 */
public final class SimLink {
    private final Simulator simulator;
    private final int index;
    private final SimNode from;
    private final SimNode to;
    private final SplittableRandom queueRandom;
    private final long wireSeed;
    private final long[] departures = new long[2];
    private LinkSpec spec;
    private PacketQueue queue;
    private ImpairmentModel wire;
    private boolean up = true;
    /** Bumped by each failure: packets in flight from an earlier epoch are lost. */
    private int epoch;
    private boolean busy;

    private long packetsSent;
    private long bytesSent;
    private long packetsArrived;
    private long queueDrops;
    private long wireLosses;
    private long failureDrops;
    private int maxQueue;

    SimLink(Simulator simulator, int index, SimNode from, SimNode to, LinkSpec spec, long seed) {
        this.simulator = simulator;
        this.index = index;
        this.from = from;
        this.to = to;
        SplittableRandom root = new SplittableRandom(seed);
        this.queueRandom = root.split();
        this.wireSeed = root.nextLong();
        apply(spec, true);
    }

    private void apply(LinkSpec next, boolean fresh) {
        boolean queueChanged = fresh || !next.queue().equals(spec.queue())
                || next.bandwidthBitsPerSecond() != spec.bandwidthBitsPerSecond();
        this.spec = next;
        ImpairmentConfig wireConfig = ImpairmentConfig.builder().loss(next.loss())
                .jitter(Duration.ofNanos(next.jitterNanos())).build();
        if (wire == null) {
            wire = new ImpairmentModel(wireConfig, wireSeed);
        } else {
            wire.setConfig(wireConfig);
        }
        if (queueChanged) {
            PacketQueue old = queue;
            queue = next.queue().create(queueRandom, next.bandwidthBitsPerSecond());
            if (old != null) {
                // Waiting packets move to the new discipline in order; any it refuses are dropped.
                for (Packet p = old.poll(simulator.now()); p != null; p = old.poll(simulator.now())) {
                    Packet dropped = queue.offer(p, simulator.now());
                    if (dropped != null) {
                        drop(dropped, TraceKind.QUEUE_DROP);
                    }
                }
            }
        }
    }

    /** The link's number, in declaration order (each direction counts). */
    public int index() {
        return index;
    }

    public String fromName() {
        return from.name();
    }

    public String toName() {
        return to.name();
    }

    public SimNode from() {
        return from;
    }

    public SimNode to() {
        return to;
    }

    public LinkSpec spec() {
        return spec;
    }

    public boolean isUp() {
        return up;
    }

    /** Offers a packet to this link at {@code nowNanos}; the link owns it from here on. */
    public void send(Packet packet, long nowNanos) {
        if (!up || !from.isAlive()) {
            drop(packet, TraceKind.FAILURE_DROP);
            return;
        }
        packetsSent++;
        bytesSent += packet.sizeBytes();
        simulator.trace().record(TraceKind.SENT, nowNanos, index, packet.sizeBytes());
        if (spec.bandwidthBitsPerSecond() == 0) {
            toWire(packet, nowNanos);
            return;
        }
        Packet dropped = queue.offer(packet, nowNanos);
        if (dropped != null) {
            drop(dropped, TraceKind.QUEUE_DROP);
        }
        maxQueue = Math.max(maxQueue, queue.size());
        if (!busy) {
            transmitNext(nowNanos);
        }
    }

    private void transmitNext(long nowNanos) {
        if (spec.bandwidthBitsPerSecond() == 0) {
            // The link became unlimited while a packet was on it: what waited leaves at once, in order.
            for (Packet p = queue.poll(nowNanos); p != null; p = queue.poll(nowNanos)) {
                toWire(p, nowNanos);
            }
            busy = false;
            queue.idle(nowNanos);
            return;
        }
        Packet next = queue.poll(nowNanos);
        if (next == null) {
            busy = false;
            queue.idle(nowNanos);
            return;
        }
        busy = true;
        long done = nowNanos + serialisationNanos(next.sizeBytes(), spec.bandwidthBitsPerSecond());
        int sentEpoch = epoch;
        simulator.schedule(done, new Transmitted(next, sentEpoch));
    }

    private void toWire(Packet packet, long nowNanos) {
        if (wire.admit(packet.sizeBytes(), nowNanos, departures) == 0) {
            drop(packet, TraceKind.WIRE_LOSS);
            return;
        }
        simulator.schedule(departures[0] + spec.delayNanos(), new Arrival(packet, epoch));
    }

    private void drop(Packet packet, TraceKind why) {
        switch (why) {
            case QUEUE_DROP -> queueDrops++;
            case WIRE_LOSS -> wireLosses++;
            default -> failureDrops++;
        }
        simulator.trace().record(why, simulator.now(), index, packet.sizeBytes());
        packet.discard();
    }

    /** Fails the link: queued and in-flight packets are lost, later ones dropped until {@link #restore}. */
    void fail() {
        if (!up) {
            return;
        }
        up = false;
        epoch++;
        for (Packet p = queue.poll(simulator.now()); p != null; p = queue.poll(simulator.now())) {
            drop(p, TraceKind.FAILURE_DROP);
        }
    }

    void restore() {
        up = true;
    }

    /** Changes delay, bandwidth, queue or loss from now on; packets already in flight keep their timing. */
    void change(LinkSpec next) {
        apply(next, false);
    }

    public long packetsSent() {
        return packetsSent;
    }

    public long bytesSent() {
        return bytesSent;
    }

    public long packetsArrived() {
        return packetsArrived;
    }

    public long queueDrops() {
        return queueDrops;
    }

    public long wireLosses() {
        return wireLosses;
    }

    public long failureDrops() {
        return failureDrops;
    }

    /** Packets waiting now (not counting the one being serialised). */
    public int queueLength() {
        return queue.size();
    }

    public int maxQueueLength() {
        return maxQueue;
    }

    @Override
    public String toString() {
        return from.name() + "->" + to.name() + " " + spec;
    }

    static long serialisationNanos(int bytes, long bitsPerSecond) {
        return (bytes * 8L * 1_000_000_000L + bitsPerSecond - 1) / bitsPerSecond;
    }

    /** A packet's last bit left the sender. */
    private final class Transmitted implements Action, PacketHolder {
        private final Packet packet;
        private final int sentEpoch;

        Transmitted(Packet packet, int sentEpoch) {
            this.packet = packet;
            this.sentEpoch = sentEpoch;
        }

        @Override
        public void run(long nowNanos) {
            if (sentEpoch != epoch) {
                drop(packet, TraceKind.FAILURE_DROP);
                if (up) {
                    transmitNext(nowNanos);
                } else {
                    busy = false;
                }
                return;
            }
            toWire(packet, nowNanos);
            transmitNext(nowNanos);
        }

        @Override
        public Packet packet() {
            return packet;
        }
    }

    /** A packet reaches the far end. */
    private final class Arrival implements Action, PacketHolder {
        private final Packet packet;
        private final int sentEpoch;

        Arrival(Packet packet, int sentEpoch) {
            this.packet = packet;
            this.sentEpoch = sentEpoch;
        }

        @Override
        public void run(long nowNanos) {
            if (sentEpoch != epoch || !to.isAlive()) {
                drop(packet, TraceKind.FAILURE_DROP);
                return;
            }
            packetsArrived++;
            simulator.trace().record(TraceKind.ARRIVED, nowNanos, index, packet.sizeBytes());
            packet.arrive(SimLink.this, nowNanos);
        }

        @Override
        public Packet packet() {
            return packet;
        }
    }
}

package net.hopwise.overlay.testing;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import net.hopwise.overlay.impair.LossModel;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.Packet;
import net.hopwise.overlay.sim.SimLink;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.wire.WireHeader;

/**
 * The links of a {@link VirtualOverlay}: each direction is a {@link SimLink} of the network (delay,
 * loss, a crashed end), and what the simulated link does not do is done here, as events on the same
 * simulator: counting datagrams by type, duplicating them, and holding some back so that later ones
 * overtake them.
 */
final class VirtualWires {
    /** IPv4 and UDP headers, which the simulated link charges on every datagram as a real one would. */
    private static final int IP_UDP_HEADER_BYTES = 28;

    /** One end of the links: where datagrams come from and land. */
    interface End {
        String name();

        int index();

        InetSocketAddress address();

        /** Takes a datagram it must not keep: the wires release it afterwards. */
        void receive(End from, ByteBuf datagram, long nowNanos);
    }

    private final SimNetwork network;
    private final Simulator simulator;
    private final SplittableRandom random;
    private final Map<InetSocketAddress, End> byAddress = new HashMap<>();
    /** Directions, by "from|to", in the order declared. */
    private final Map<String, Direction> directions = new LinkedHashMap<>();
    /** Datagrams put on each direction, by "from|to|packet type". */
    private final Map<String, Long> sentByType = new HashMap<>();
    /** What tests watch of the datagrams engines put on a direction, by "from|to". */
    private final Map<String, Consumer<ByteBuf>> watchers = new HashMap<>();
    /** Datagrams between a send and their landing, released by {@link #close} if still out. */
    private final Set<Carried> outstanding = Collections.newSetFromMap(new IdentityHashMap<>());

    VirtualWires(SimNetwork network, long seed) {
        this.network = network;
        this.simulator = network.simulator();
        // A stream of its own: the network draws its links' seeds from the same seed's main stream.
        this.random = new SplittableRandom(seed).split();
    }

    void attach(End end) {
        byAddress.put(end.address(), end);
    }

    /** Declares both directions, or replaces them (impairments and all) when they exist. */
    void link(String a, String b, long oneWayDelayNanos) {
        LinkSpec spec = LinkSpec.delay(Duration.ofNanos(oneWayDelayNanos));
        if (directions.containsKey(a + "|" + b)) {
            network.changeLink(a, b, spec);
            network.changeLink(b, a, spec);
        } else {
            network.link(a, b, spec);
        }
        directions.put(a + "|" + b, new Direction(network.direction(a, b)));
        directions.put(b + "|" + a, new Direction(network.direction(b, a)));
    }

    /** The neighbours of {@code name} by name and address, in the order the links were declared. */
    Map<String, InetSocketAddress> neighbours(String name) {
        Map<String, InetSocketAddress> out = new LinkedHashMap<>();
        for (Direction d : directions.values()) {
            if (d.wire.fromName().equals(name)) {
                out.put(d.wire.toName(), d.wire.to().address());
            }
        }
        return out;
    }

    void loss(String from, String to, double rate) {
        network.changeLink(from, to, direction(from, to).wire.spec().withLoss(new LossModel.Bernoulli(rate)));
    }

    void duplicate(String from, String to, double probability) {
        direction(from, to).duplicate = probability;
    }

    void reorder(String from, String to, double probability, long maxExtraNanos) {
        Direction d = direction(from, to);
        d.reorder = probability;
        d.reorderDelay = maxExtraNanos;
    }

    void watch(String from, String to, Consumer<ByteBuf> watcher) {
        direction(from, to);
        watchers.put(from + "|" + to, watcher);
    }

    long datagrams(String from, String to, int typeCode) {
        return sentByType.getOrDefault(from + "|" + to + "|" + typeCode, 0L);
    }

    /** Lands a datagram at {@code to} after the link's delay, past loss, duplication and reordering. */
    void inject(End from, End to, ByteBuf datagram) {
        Direction d = directions.get(from.name() + "|" + to.name());
        if (d == null) {
            datagram.release();
            throw new IllegalArgumentException("no link " + from.name() + " -> " + to.name());
        }
        int type = datagram.readableBytes() > WireHeader.OFFSET_TYPE
                ? datagram.getUnsignedByte(datagram.readerIndex() + WireHeader.OFFSET_TYPE) : -1;
        count(from.name(), to.name(), type);
        Carried c = new Carried(from, to, datagram, 0);
        simulator.after(d.wire.spec().delayNanos(), c::land);
    }

    /** What an engine transmits: counted, then lost unless {@code from} is up and linked to {@code to}. */
    void send(End from, boolean up, InetSocketAddress to, ByteBuf datagram) {
        End target = byAddress.get(to);
        int type = datagram.getUnsignedByte(datagram.readerIndex() + WireHeader.OFFSET_TYPE);
        count(from.name(), target == null ? null : target.name(), type);
        Consumer<ByteBuf> watcher = target == null ? null : watchers.get(from.name() + "|" + target.name());
        if (watcher != null) {
            watcher.accept(datagram.asReadOnly());
        }
        Direction d = target == null ? null : directions.get(from.name() + "|" + target.name());
        if (!up || d == null) {
            datagram.release();
            return;
        }
        if (d.duplicate > 0 && random.nextDouble() < d.duplicate) {
            d.wire.send(new Carried(from, target, datagram.copy(), hold(d)), simulator.now());
        }
        // A wire gives the receiver bytes of its own: the engine may send a view of a packet it
        // keeps for resending, and the receiver rewrites headers in place when it forwards.
        ByteBuf wire = datagram.copy();
        datagram.release();
        d.wire.send(new Carried(from, target, wire, hold(d)), simulator.now());
    }

    /** Releases what is still on its way; call after the network dropped what its links held. */
    void close() {
        for (Carried c : new ArrayList<>(outstanding)) {
            c.discard();
        }
    }

    private long hold(Direction d) {
        if (d.reorder > 0 && random.nextDouble() < d.reorder) {
            return 1 + random.nextLong(d.reorderDelay);
        }
        return 0;
    }

    private void count(String from, String to, int type) {
        sentByType.merge(from + "|" + to + "|" + type, 1L, Long::sum);
    }

    private Direction direction(String from, String to) {
        Direction d = directions.get(from + "|" + to);
        if (d == null) {
            throw new IllegalArgumentException("no link " + from + " -> " + to);
        }
        return d;
    }

    private static final class Direction {
        final SimLink wire;
        double duplicate;
        double reorder;
        long reorderDelay;

        Direction(SimLink wire) {
            this.wire = wire;
        }
    }

    /** A datagram on its way: the simulated link carries it; it lands after any hold that reorders it. */
    private final class Carried extends Packet {
        private final End from;
        private final End to;
        private final ByteBuf datagram;
        private final long holdNanos;

        Carried(End from, End to, ByteBuf datagram, long holdNanos) {
            super(datagram.readableBytes() + IP_UDP_HEADER_BYTES, from.index());
            this.from = from;
            this.to = to;
            this.datagram = datagram;
            this.holdNanos = holdNanos;
            outstanding.add(this);
        }

        @Override
        protected void arrive(SimLink via, long nowNanos) {
            if (holdNanos > 0) {
                simulator.after(holdNanos, this::land);
            } else {
                land(nowNanos);
            }
        }

        void land(long nowNanos) {
            outstanding.remove(this);
            try {
                to.receive(from, datagram, nowNanos);
            } finally {
                datagram.release();
            }
        }

        @Override
        protected void discard() {
            if (outstanding.remove(this)) {
                datagram.release();
            }
        }
    }
}

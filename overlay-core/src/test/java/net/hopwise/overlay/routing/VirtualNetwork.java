package net.hopwise.overlay.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.testing.MachineTimer;
import net.hopwise.overlay.wire.DropReason;

/**
 * Routers wired by links with delay, loss, duplication and reordering, on a virtual clock. Every
 * packet goes through {@link LinkStateCodec} or {@link ExtensionCodec} (and a real ByteBuf) on its
 * way, so size limits and decoding are exercised too.
 *
 * <p>Runs on the simulator's engine ({@link Simulator}): its event queue and ordering, its clock read
 * from the start of the run, so that the tests' instants count from 0.
 */
final class VirtualNetwork {
    static final long MS = 1_000_000L;
    static final long SECOND = 1_000 * MS;

    /** One packet a router handed to its output. */
    record Packet(long sentAtNanos, NodeId from, NodeId to, LinkStateUpdate update, LinkStateAck ack,
            ExtensionUpdate extensionUpdate, ExtensionAck extensionAck) {
        Packet(long sentAtNanos, NodeId from, NodeId to, LinkStateUpdate update, LinkStateAck ack) {
            this(sentAtNanos, from, to, update, ack, null, null);
        }

        boolean isExtension() {
            return extensionUpdate != null || extensionAck != null;
        }

        boolean isUpdate() {
            return update != null;
        }

        boolean carries(NodeId origin) {
            return update != null && update.advertisements().stream().anyMatch(a -> a.origin().equals(origin));
        }
    }

    /** A node: its router and what it did. */
    final class Host implements RouterOutput {
        final String name;
        final NodeId id;
        private final MachineTimer timer;
        Router router;
        int routeChanges;
        final Map<DropReason, Integer> rejected = new java.util.EnumMap<>(DropReason.class);
        /** Every record as the router's extensionChanged calls told it: kind -> origin -> bytes. */
        final Map<Integer, Map<NodeId, byte[]>> heardRecords = new TreeMap<>();
        /** extensionChanged calls that changed nothing: the same content again, or a removal of nothing. */
        int redundantExtensionEvents;

        private Host(String name) {
            this.name = name;
            this.id = NodeId.ofName(name);
            this.timer = new MachineTimer(simulator, Simulator.START_NANOS, byName.size(),
                    () -> router == null ? Long.MAX_VALUE : router.nextDeadlineNanos(), now -> {
                        countEvent();
                        router.onTimer(now);
                    });
        }

        @Override
        public void sendUpdate(NodeId neighbour, LinkStateUpdate update) {
            transmit(new Packet(now(), id, neighbour, update, null));
        }

        @Override
        public void sendAck(NodeId neighbour, LinkStateAck ack) {
            transmit(new Packet(now(), id, neighbour, null, ack));
        }

        @Override
        public void sendExtensionUpdate(NodeId neighbour, ExtensionUpdate update) {
            transmit(new Packet(now(), id, neighbour, null, null, update, null));
        }

        @Override
        public void sendExtensionAck(NodeId neighbour, ExtensionAck ack) {
            transmit(new Packet(now(), id, neighbour, null, null, null, ack));
        }

        @Override
        public void extensionChanged(NodeId origin, int kind, byte[] record) {
            Map<NodeId, byte[]> ofKind = heardRecords.computeIfAbsent(kind, k -> new TreeMap<>());
            byte[] previous = record == null ? ofKind.remove(origin) : ofKind.put(origin, record);
            if (java.util.Arrays.equals(previous, record)) {
                redundantExtensionEvents++;
            }
        }

        @Override
        public void routesChanged(long nowNanos) {
            routeChanges++;
        }

        @Override
        public void advertisementRejected(NodeId from, DropReason reason) {
            rejected.merge(reason, 1, Integer::sum);
        }
    }

    final RoutingConfig config;
    private final Random random;
    private final Map<NodeId, Host> hosts = new TreeMap<>();
    private final Map<String, Host> byName = new HashMap<>();
    /** Directed links that are up: from -> to -> cost the sender measured. */
    private final Map<NodeId, Map<NodeId, LinkCost>> links = new HashMap<>();
    private final Simulator simulator = new Simulator();
    final List<Packet> log = new ArrayList<>();
    private long inFlight;
    private long events;

    double lossRate;
    double duplicateRate;
    long delayNanos = MS;
    long jitterNanos;
    /** Packets it accepts are lost (on top of random loss). */
    Predicate<Packet> drop = p -> false;

    VirtualNetwork(RoutingConfig config, long seed) {
        this.config = config;
        this.random = new Random(seed);
    }

    long now() {
        return simulator.now() - Simulator.START_NANOS;
    }

    Host add(String name, long sequenceBase) {
        Host h = new Host(name);
        h.router = new Router(h.id, name, config, h, sequenceBase, now());
        hosts.put(h.id, h);
        byName.put(name, h);
        return h;
    }

    Host host(String name) {
        return byName.get(name);
    }

    Router router(String name) {
        return byName.get(name).router;
    }

    NodeId id(String name) {
        return byName.get(name).id;
    }

    List<Host> hosts() {
        return new ArrayList<>(hosts.values());
    }

    /** Brings the link up at both ends, each telling its router its own measured cost. */
    void connect(String a, String b, LinkCost ab, LinkCost ba) {
        linkUp(a, b, ab);
        linkUp(b, a, ba);
    }

    /** One end of a link notices it is up (hello): packets flow both ways once the link exists. */
    void linkUp(String a, String b, LinkCost cost) {
        Host ha = byName.get(a);
        Host hb = byName.get(b);
        links.computeIfAbsent(ha.id, k -> new HashMap<>()).put(hb.id, cost);
        ha.router.neighbourUp(hb.id, cost, now());
    }

    void disconnect(String a, String b) {
        Host ha = byName.get(a);
        Host hb = byName.get(b);
        links.getOrDefault(ha.id, Map.of()).remove(hb.id);
        links.getOrDefault(hb.id, Map.of()).remove(ha.id);
        ha.router.neighbourDown(hb.id, now());
        hb.router.neighbourDown(ha.id, now());
    }

    /**
     * Brings up, at {@code name} only, a link to a node that is no router of this network: a hand-driven
     * (hostile) neighbour. What {@code name} sends it is lost; it speaks through {@link #inject}.
     */
    void attachStranger(String name, NodeId stranger, LinkCost cost) {
        Host h = byName.get(name);
        links.computeIfAbsent(stranger, k -> new HashMap<>()).put(h.id, cost);
        links.computeIfAbsent(h.id, k -> new HashMap<>()).put(stranger, cost);
        h.router.neighbourUp(stranger, cost, now());
    }

    /** Takes down, at {@code name}, the link to a stranger. */
    void detachStranger(String name, NodeId stranger) {
        Host h = byName.get(name);
        links.getOrDefault(stranger, Map.of()).remove(h.id);
        links.getOrDefault(h.id, Map.of()).remove(stranger);
        h.router.neighbourDown(stranger, now());
    }

    /** Delivers an update from {@code from} to {@code name} now, through the codec like any other. */
    void inject(NodeId from, String name, LinkStateUpdate update) {
        ByteBuf buf = Unpooled.buffer();
        try {
            LinkStateCodec.encodeUpdate(update, buf);
            LinkStateUpdate decoded = LinkStateCodec.decodeUpdate(buf);
            if (decoded == null || !decoded.equals(update)) {
                throw new AssertionError("update did not survive the codec: " + update);
            }
            byName.get(name).router.onUpdate(from, decoded, now());
        } finally {
            buf.release();
        }
    }

    /** The node's process dies: its links go down at the other ends, its router is gone. */
    void crash(String name) {
        Host h = byName.get(name);
        for (NodeId other : new ArrayList<>(links.getOrDefault(h.id, Map.of()).keySet())) {
            links.get(h.id).remove(other);
            Map<NodeId, LinkCost> back = links.get(other);
            if (back != null && back.remove(h.id) != null) {
                hosts.get(other).router.neighbourDown(h.id, now());
            }
        }
        h.router = null;
    }

    /** The node starts again with an empty database. */
    void restart(String name, long sequenceBase) {
        Host h = byName.get(name);
        h.router = new Router(h.id, name, config, h, sequenceBase, now());
        h.routeChanges = 0;
        h.heardRecords.clear();
    }

    private void transmit(Packet p) {
        log.add(p);
        ByteBuf buf = Unpooled.buffer();
        byte[] body;
        try {
            if (p.isUpdate()) {
                LinkStateCodec.encodeUpdate(p.update(), buf);
            } else if (p.extensionUpdate() != null) {
                ExtensionCodec.encodeUpdate(p.extensionUpdate(), buf);
            } else if (p.extensionAck() != null) {
                ExtensionCodec.encodeAck(p.extensionAck(), buf);
            } else {
                LinkStateCodec.encodeAck(p.ack(), buf);
            }
            if (buf.readableBytes() > config.maxUpdateBodyBytes()) {
                throw new AssertionError("body of " + buf.readableBytes() + " bytes exceeds the limit: " + p);
            }
            body = new byte[buf.readableBytes()];
            buf.readBytes(body);
        } finally {
            buf.release();
        }
        if (drop.test(p) || random.nextDouble() < lossRate) {
            return;
        }
        int copies = random.nextDouble() < duplicateRate ? 2 : 1;
        for (int i = 0; i < copies; i++) {
            long jitter = jitterNanos > 0 ? (long) (random.nextDouble() * jitterNanos) : 0;
            inFlight++;
            simulator.after(delayNanos + jitter, t -> {
                inFlight--;
                countEvent();
                deliver(p, body);
            });
        }
    }

    private void countEvent() {
        if (++events > 5_000_000) {
            throw new AssertionError("the network does not settle: runaway events at " + now());
        }
    }

    private void deliver(Packet p, byte[] body) {
        Host to = hosts.get(p.to());
        if (to == null || to.router == null || !links.getOrDefault(p.from(), Map.of()).containsKey(p.to())) {
            return;
        }
        ByteBuf buf = Unpooled.wrappedBuffer(body);
        try {
            if (p.isUpdate()) {
                LinkStateUpdate u = LinkStateCodec.decodeUpdate(buf);
                if (u == null || !u.equals(p.update())) {
                    throw new AssertionError("update did not survive the codec: " + p);
                }
                to.router.onUpdate(p.from(), u, now());
            } else if (p.extensionUpdate() != null) {
                ExtensionUpdate u = ExtensionCodec.decodeUpdate(buf);
                if (u == null || !u.equals(p.extensionUpdate())) {
                    throw new AssertionError("extension update did not survive the codec: " + p);
                }
                to.router.onExtensionUpdate(p.from(), u, now());
            } else if (p.extensionAck() != null) {
                ExtensionAck a = ExtensionCodec.decodeAck(buf);
                if (a == null || !a.equals(p.extensionAck())) {
                    throw new AssertionError("extension ack did not survive the codec: " + p);
                }
                to.router.onExtensionAck(p.from(), a, now());
            } else {
                LinkStateAck a = LinkStateCodec.decodeAck(buf);
                if (a == null || !a.equals(p.ack())) {
                    throw new AssertionError("ack did not survive the codec: " + p);
                }
                to.router.onAck(p.from(), a, now());
            }
        } finally {
            buf.release();
        }
        to.timer.wake();
    }

    /** Runs deliveries and timers in time order until {@code untilNanos}; the clock then reads it. */
    void runUntil(long untilNanos) {
        // Tests drive routers directly between runs, which moves their deadlines.
        for (Host h : hosts.values()) {
            h.timer.wake();
        }
        simulator.runUntil(Simulator.START_NANOS + untilNanos);
    }

    void runFor(long nanos) {
        runUntil(now() + nanos);
    }

    boolean quiet() {
        return inFlight == 0;
    }

    /** What every origin currently advertises: each live router's own advertisement. */
    List<LinkStateAdvertisement> ownAdvertisements() {
        List<LinkStateAdvertisement> own = new ArrayList<>();
        for (Host h : hosts.values()) {
            if (h.router != null) {
                own.add(h.router.database().get(h.id).orElseThrow());
            }
        }
        return own;
    }
}

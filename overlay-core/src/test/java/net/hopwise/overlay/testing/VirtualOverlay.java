package net.hopwise.overlay.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.impair.LossModel;
import net.hopwise.overlay.node.NodeOutput;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.sim.AgentTimer;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.Packet;
import net.hopwise.overlay.sim.SimLink;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.SimNode;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * Many {@link NodeStack}s joined by virtual links on a virtual clock: the production node machine
 * with no sockets, threads or sleeping. Links have a one-way delay and optional seeded loss,
 * duplication and reordering (a packet held back by an extra random delay); a node can be crashed
 * (its packets vanish) and revived (a fresh engine, as after a restart).
 *
 * <p>A member can also be external: no engine, its datagrams made by the test ({@link #inject}) and
 * those sent to it handed to the test, as a neighbour running other code (or none) would be.
 *
 * <p>A test-side face of the simulator rather than a simulator of its own: time, ordering, links
 * (delay, loss, failure of a crashed end) and the trace are {@link SimNetwork}'s, whose clock and
 * event queue run everything here. The engines are hosted here and not in {@code SimNode} because
 * the tests need to see every datagram an engine sends (its type, to count it; duplication and
 * reordering; external members), and a simulated node keeps its engine's output to itself.
 */
public final class VirtualOverlay implements AutoCloseable {
    /** IPv4 and UDP headers, which the simulated link charges on every datagram as a real one would. */
    private static final int IP_UDP_HEADER_BYTES = 28;

    private final SimNetwork network;
    private final Simulator simulator;
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final Map<InetSocketAddress, Member> byAddress = new HashMap<>();
    /** Directions of links, by "from|to", in the order declared. */
    private final Map<String, Direction> links = new LinkedHashMap<>();
    /** Datagrams between a send and their arrival, released by {@link #close} if still out. */
    private final Set<Carried> outstanding = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<NodeEvent> events = new ArrayList<>();
    /** Datagrams put on each directed link, by "from|to|packet type". */
    private final Map<String, Long> sentByType = new HashMap<>();
    private final SplittableRandom random;
    private final Consumer<NodeConfig.Builder> customise;
    private DatagramFailure datagramFailures;
    private boolean writable = true;

    public VirtualOverlay(long seed, Consumer<NodeConfig.Builder> customise) {
        this.network = new SimNetwork(seed);
        this.simulator = network.simulator();
        this.random = new SplittableRandom(seed);
        this.customise = customise;
    }

    public VirtualOverlay(long seed) {
        this(seed, b -> {});
    }

    /** Makes every node's socket report itself full (or not), as a saturated kernel buffer would. */
    public void writable(boolean writable) {
        this.writable = writable;
    }

    public long now() {
        return simulator.now();
    }

    /** The simulation underneath, for what this face does not show (its trace, its links). */
    public SimNetwork network() {
        return network;
    }

    public List<NodeEvent> events() {
        return events;
    }

    /** Datagrams of {@code type} that {@code from} has put on its link to {@code to} (lost ones too). */
    public long datagrams(String from, String to, PacketType type) {
        return sentByType.getOrDefault(from + "|" + to + "|" + type.code(), 0L);
    }

    /** What an external member gets: a datagram it must not keep (the overlay releases it afterwards). */
    @FunctionalInterface
    public interface ExternalReceiver {
        void onDatagram(String from, ByteBuf datagram, long nowNanos);
    }

    /**
     * Declares a member without an engine: its links are configured on its neighbours like any
     * other, what they send it goes to {@code receiver}, and what it sends the test puts in with
     * {@link #inject}.
     */
    public void external(String name, ExternalReceiver receiver) {
        node(name);
        Member m = members.get(name);
        m.external = receiver;
        m.alive = true;
    }

    /**
     * Puts a datagram on the link from {@code from} to {@code to} as if {@code from} had sent it: it
     * arrives after the link's delay (loss, duplication and reordering are not applied). Takes
     * ownership of {@code datagram}.
     */
    public void inject(String from, String to, ByteBuf datagram) {
        Direction link = links.get(from + "|" + to);
        if (link == null) {
            datagram.release();
            throw new IllegalArgumentException("no link " + from + " -> " + to);
        }
        int type = datagram.readableBytes() > WireHeader.OFFSET_TYPE
                ? datagram.getUnsignedByte(datagram.readerIndex() + WireHeader.OFFSET_TYPE) : -1;
        sentByType.merge(from + "|" + to + "|" + type, 1L, Long::sum);
        Carried c = new Carried(members.get(from), members.get(to), datagram, 0);
        simulator.after(link.wire.spec().delayNanos(), c::land);
    }

    /**
     * Catches what an engine throws while it takes a datagram and hands it here instead of out of
     * {@link #runUntil}, so a run can count and report faults and carry on. Unset, they propagate.
     */
    public void onDatagramFailure(DatagramFailure handler) {
        this.datagramFailures = handler;
    }

    /** What an engine threw while it took a datagram (whose bytes it may have rewritten in part). */
    @FunctionalInterface
    public interface DatagramFailure {
        void failed(String node, String from, ByteBuf datagram, RuntimeException e);
    }

    /** The address a member's datagrams come from. */
    public InetSocketAddress address(String name) {
        return members.get(name).address;
    }

    /** Declares a node; call {@link #link} for its links, then {@link #startAll}. */
    public void node(String name) {
        Member m = new Member(name, network.plainNode(name));
        members.put(name, m);
        byAddress.put(m.address, m);
    }

    /** A bidirectional link with the given one-way delay; declaring it again replaces it, impairments and all. */
    public void link(String a, String b, long oneWayDelayNanos) {
        LinkSpec spec = LinkSpec.delay(Duration.ofNanos(oneWayDelayNanos));
        if (links.containsKey(a + "|" + b)) {
            network.changeLink(a, b, spec);
            network.changeLink(b, a, spec);
        } else {
            network.link(a, b, spec);
        }
        links.put(a + "|" + b, new Direction(network.direction(a, b)));
        links.put(b + "|" + a, new Direction(network.direction(b, a)));
    }

    /** Sets the loss rate of the direction a to b. */
    public void loss(String a, String b, double rate) {
        SimLink wire = links.get(a + "|" + b).wire;
        network.changeLink(a, b, wire.spec().withLoss(new LossModel.Bernoulli(rate)));
    }

    /** Sets the probability that a packet from a to b arrives twice. */
    public void duplicate(String a, String b, double probability) {
        links.get(a + "|" + b).duplicate = probability;
    }

    /**
     * Sets the probability that a packet from a to b is held back by an extra delay drawn uniformly
     * from (0, maxExtraNanos], so that later packets overtake it.
     */
    public void reorder(String a, String b, double probability, long maxExtraNanos) {
        Direction link = links.get(a + "|" + b);
        link.reorder = probability;
        link.reorderDelay = maxExtraNanos;
    }

    /** Whether a node is running (not crashed). */
    public boolean alive(String name) {
        return members.get(name).alive;
    }

    public void startAll() {
        for (Member m : members.values()) {
            if (m.external == null) {
                start(m.name);
            }
        }
    }

    /** (Re)starts a node with a fresh engine, as a process restart would. */
    public void start(String name) {
        Member m = members.get(name);
        NodeConfig.Builder b = NodeConfig.builder(name).bindAddress(m.address);
        for (Direction d : links.values()) {
            if (d.wire.fromName().equals(name)) {
                b.neighbour(new NeighbourConfig(d.wire.toName(), d.wire.to().address()));
            }
        }
        customise.accept(b);
        if (m.engine != null) {
            m.engine.close();
        }
        if (!m.simNode().isAlive()) {
            network.restart(name);
        }
        long now = simulator.now();
        m.engine = new NodeStack(b.build(), PooledByteBufAllocator.DEFAULT, new Output(m),
                SimNetwork.VIRTUAL_EPOCH_MILLIS + now / 1_000_000, now);
        m.alive = true;
        m.timer.cancel();
        m.wake();
    }

    /** Crashes a node: it stops sending and everything sent to it is lost. */
    public void crash(String name) {
        Member m = members.get(name);
        m.alive = false;
        m.timer.cancel();
        m.engine.close();
        network.crash(name);
    }

    public NodeStack engine(String name) {
        return members.get(name).engine;
    }

    /** Runs the overlay until virtual time reaches {@code deadline}. */
    public void runUntil(long deadline) {
        // The test may have called an engine directly since the last run, moving its deadline.
        for (Member m : members.values()) {
            m.wake();
        }
        simulator.runUntil(deadline);
    }

    /** Runs for {@code nanos} of virtual time. */
    public void runFor(long nanos) {
        runUntil(simulator.now() + nanos);
    }

    /**
     * Timer calls in a row that leave an engine due again at the same instant before it counts as
     * stuck: a live node would spin its event loop there, and a virtual run would never return.
     */
    private static final int MAX_TIMER_SPINS = 100_000;

    /** An engine asked for its timer again at once, over and over, without time passing. */
    public static final class TimerLivelock extends IllegalStateException {
        private final String node;

        TimerLivelock(String node, long nowNanos) {
            super("the timer of " + node + " is due again at once, " + MAX_TIMER_SPINS + " times at " + nowNanos
                    + " ns of virtual time");
            this.node = node;
        }

        public String node() {
            return node;
        }
    }

    @Override
    public void close() {
        network.close();
        for (Carried c : new ArrayList<>(outstanding)) {
            c.discard();
        }
        for (Member m : members.values()) {
            if (m.engine != null) {
                m.engine.close();
            }
        }
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

    /** A node of the overlay: an engine on a plain simulated node, or the test speaking for it. */
    private final class Member {
        final String name;
        final int index;
        final InetSocketAddress address;
        final AgentTimer timer;
        NodeStack engine;
        ExternalReceiver external;
        boolean alive;
        /** The instant of the read batch whose end is scheduled; MIN_VALUE when none is. */
        long batchEndAt = Long.MIN_VALUE;
        int spinsAtNow;

        Member(String name, SimNode node) {
            this.name = name;
            this.index = node.index();
            this.address = node.address();
            this.timer = new AgentTimer(simulator, index, this::onTimer);
        }

        SimNode simNode() {
            return network.nodeNamed(name);
        }

        boolean running() {
            return alive && engine != null;
        }

        void wake() {
            if (running()) {
                timer.update(engine.nextDeadlineNanos());
            }
        }

        private void onTimer(long nowNanos) {
            if (!running()) {
                return;
            }
            if (engine.nextDeadlineNanos() <= nowNanos) {
                engine.onTimer(nowNanos);
                // Whatever is still due now runs again after everything else due now.
                spinsAtNow = engine.nextDeadlineNanos() <= nowNanos ? spinsAtNow + 1 : 0;
                if (spinsAtNow > MAX_TIMER_SPINS) {
                    throw new TimerLivelock(name, nowNanos);
                }
            }
            wake();
        }

        void receive(Member from, ByteBuf datagram, long nowNanos) {
            if (external != null) {
                external.onDatagram(from.name, datagram, nowNanos);
                return;
            }
            if (!running()) {
                return;
            }
            try {
                engine.onDatagram(from.address, datagram, nowNanos);
            } catch (RuntimeException e) {
                if (datagramFailures == null) {
                    throw e;
                }
                datagramFailures.failed(name, from.name, datagram, e);
            }
            if (batchEndAt != nowNanos) {
                // Scheduled at this very instant, so it runs after every arrival already due now.
                batchEndAt = nowNanos;
                NodeStack batchOf = engine;
                simulator.schedule(nowNanos, now -> endBatch(batchOf, now));
            }
            wake();
        }

        private void endBatch(NodeStack batchOf, long nowNanos) {
            batchEndAt = Long.MIN_VALUE;
            if (engine == batchOf && running()) {
                engine.onReadBatchEnd(nowNanos);
                wake();
            }
        }
    }

    /**
     * A datagram on its way: the simulated link carries it, and it lands at its member after any
     * extra hold that reorders it.
     */
    private final class Carried extends Packet {
        private final Member from;
        private final Member to;
        private final ByteBuf datagram;
        private final long holdNanos;

        Carried(Member from, Member to, ByteBuf datagram, long holdNanos) {
            super(datagram.readableBytes() + IP_UDP_HEADER_BYTES, from.index);
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

    private final class Output implements NodeOutput {
        private final Member member;

        Output(Member member) {
            this.member = member;
        }

        @Override
        public void transmit(InetSocketAddress to, ByteBuf datagram) {
            Member target = byAddress.get(to);
            int type = datagram.getUnsignedByte(datagram.readerIndex() + WireHeader.OFFSET_TYPE);
            sentByType.merge(member.name + "|" + (target == null ? null : target.name) + "|" + type, 1L, Long::sum);
            Direction link = target == null ? null : links.get(member.name + "|" + target.name);
            if (!member.alive || link == null) {
                datagram.release();
                return;
            }
            if (link.duplicate > 0 && random.nextDouble() < link.duplicate) {
                link.wire.send(new Carried(member, target, datagram.copy(), hold(link)), simulator.now());
            }
            // A wire gives the receiver bytes of its own: the engine may send a view of a packet it
            // keeps for resending, and the receiver rewrites headers in place when it forwards.
            ByteBuf wire = datagram.copy();
            datagram.release();
            link.wire.send(new Carried(member, target, wire, hold(link)), simulator.now());
        }

        private long hold(Direction link) {
            if (link.reorder > 0 && random.nextDouble() < link.reorder) {
                return 1 + random.nextLong(link.reorderDelay);
            }
            return 0;
        }

        @Override
        public boolean writable() {
            return writable;
        }

        @Override
        public void execute(Runnable task) {
            // One thread: a module's API call runs now, and may move the engine's deadline earlier.
            if (member.running()) {
                member.engine.advance(simulator.now());
                task.run();
                member.wake();
            }
        }

        @Override
        public void event(NodeEvent event) {
            events.add(event);
        }
    }
}

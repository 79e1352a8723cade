package net.hopwise.overlay.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeOutput;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.SimNode;
import net.hopwise.overlay.sim.Simulator;
import net.hopwise.overlay.wire.PacketType;

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
 * (delay, loss, a crashed end) and the trace are {@link SimNetwork}'s, whose event queue runs
 * everything here. The engines are hosted here and not in {@link SimNode} because the tests must see
 * every datagram an engine sends (to count it by type, duplicate or hold it, or hand it to an
 * external member), and a simulated node keeps its engine's output to itself.
 *
 * <p>The engines' timers are simulator events, re-armed after every input the face delivers; an
 * engine the test calls directly between runs is re-armed when the next run starts.
 */
public final class VirtualOverlay implements AutoCloseable {
    /**
     * Timer calls in a row that leave an engine due again at the same instant before it counts as
     * stuck: a live node would spin its event loop there, and a virtual run would never return.
     */
    private static final int MAX_TIMER_SPINS = 100_000;

    private final SimNetwork network;
    private final Simulator simulator;
    private final VirtualWires wires;
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final List<NodeEvent> events = new ArrayList<>();
    private final Consumer<NodeConfig.Builder> customise;
    private DatagramFailure datagramFailures;
    private boolean writable = true;

    public VirtualOverlay(long seed, Consumer<NodeConfig.Builder> customise) {
        this.network = new SimNetwork(seed);
        this.simulator = network.simulator();
        this.wires = new VirtualWires(network, seed);
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
        return wires.datagrams(from, to, type.code());
    }

    /**
     * Shows {@code watcher} every datagram an engine puts on the link from {@code from} to {@code to}
     * (lost ones too), as it leaves: a read-only view valid only during the call.
     */
    public void watch(String from, String to, Consumer<ByteBuf> watcher) {
        wires.watch(from, to, watcher);
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
        wires.inject(members.get(from), members.get(to), datagram);
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
        Member m = new Member(network.plainNode(name));
        members.put(name, m);
        wires.attach(m);
    }

    /** A bidirectional link with the given one-way delay; declaring it again replaces it, impairments and all. */
    public void link(String a, String b, long oneWayDelayNanos) {
        wires.link(a, b, oneWayDelayNanos);
    }

    /** Sets the loss rate of the direction a to b. */
    public void loss(String a, String b, double rate) {
        wires.loss(a, b, rate);
    }

    /** Sets the probability that a packet from a to b arrives twice. */
    public void duplicate(String a, String b, double probability) {
        wires.duplicate(a, b, probability);
    }

    /**
     * Sets the probability that a packet from a to b is held back by an extra delay drawn uniformly
     * from (0, maxExtraNanos], so that later packets overtake it.
     */
    public void reorder(String a, String b, double probability, long maxExtraNanos) {
        wires.reorder(a, b, probability, maxExtraNanos);
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
        wires.neighbours(name).forEach((n, address) -> b.neighbour(new NeighbourConfig(n, address)));
        customise.accept(b);
        if (m.engine != null) {
            m.engine.close();
        }
        if (!m.simNode.isAlive()) {
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
     * Runs in steps of 10 ms until {@code from} has a hop-count route to {@code to}, for at most
     * {@code withinNanos} of virtual time; whether it has one.
     */
    public boolean runUntilRoute(String from, String to, long withinNanos) {
        long end = simulator.now() + withinNanos;
        while (!engine(from).hasRoute(NodeId.ofName(to), RoutingMetric.HOPS) && simulator.now() < end) {
            runFor(10_000_000L);
        }
        return engine(from).hasRoute(NodeId.ofName(to), RoutingMetric.HOPS);
    }

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
        wires.close();
        for (Member m : members.values()) {
            if (m.engine != null) {
                m.engine.close();
            }
        }
    }

    /**
     * A node of the overlay on a plain simulated node: an engine driven as {@link SimNode} drives
     * one (one pending wake-up, a read batch per instant), or the test speaking for it.
     */
    private final class Member implements VirtualWires.End {
        final String name;
        final InetSocketAddress address;
        final SimNode simNode;
        final MachineTimer timer;
        NodeStack engine;
        ExternalReceiver external;
        boolean alive;
        /** The instant of the read batch whose end is scheduled; MIN_VALUE when none is. */
        long batchEndAt = Long.MIN_VALUE;
        int spinsAtNow;

        Member(SimNode simNode) {
            this.simNode = simNode;
            this.name = simNode.name();
            this.address = simNode.address();
            this.timer = new MachineTimer(simulator, 0, simNode.index(),
                    () -> running() ? engine.nextDeadlineNanos() : Long.MAX_VALUE, this::onTimer);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int index() {
            return simNode.index();
        }

        @Override
        public InetSocketAddress address() {
            return address;
        }

        boolean running() {
            return alive && engine != null;
        }

        void wake() {
            timer.wake();
        }

        private void onTimer(long nowNanos) {
            engine.onTimer(nowNanos);
            // Whatever is still due now runs again after everything else due now.
            spinsAtNow = engine.nextDeadlineNanos() <= nowNanos ? spinsAtNow + 1 : 0;
            if (spinsAtNow > MAX_TIMER_SPINS) {
                throw new TimerLivelock(name, nowNanos);
            }
        }

        @Override
        public void receive(VirtualWires.End from, ByteBuf datagram, long nowNanos) {
            if (external != null) {
                external.onDatagram(from.name(), datagram, nowNanos);
                return;
            }
            if (!running()) {
                return;
            }
            try {
                engine.onDatagram(from.address(), datagram, nowNanos);
            } catch (RuntimeException e) {
                if (datagramFailures == null) {
                    throw e;
                }
                datagramFailures.failed(name, from.name(), datagram, e);
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

    private final class Output implements NodeOutput {
        private final Member member;

        Output(Member member) {
            this.member = member;
        }

        @Override
        public void transmit(InetSocketAddress to, ByteBuf datagram) {
            wires.send(member, member.alive, to, datagram);
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

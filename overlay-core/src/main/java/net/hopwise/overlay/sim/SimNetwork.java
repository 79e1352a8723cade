package net.hopwise.overlay.sim;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.node.NodeStack;

/**
 * A simulated network: nodes running the production {@link NodeStack} on virtual time, joined by
 * {@link SimLink}s, with failures and changes scheduled in time. The entry point of the simulator.
 *
 * <p>Build it (nodes, links), {@link #start()} it, schedule changes with {@link #at}, and run it
 * with {@link #runUntil}. The same seed and the same calls give a bit-identical {@link Trace}: every
 * random draw comes from a stream split from the seed in the order links are declared, and the
 * engines see only virtual time (their wall-clock base is {@link #VIRTUAL_EPOCH_MILLIS} plus
 * virtual time).
 *
 * <p>Memory stays bounded however long a run lasts: nothing is logged per event; packets are
 * released when dropped or delivered, and {@link #close()} releases those still in flight.
 */
public final class SimNetwork implements AutoCloseable {
    /** The wall-clock instant virtual time 0 stands for, fixed so that runs reproduce: 2023-11-14. */
    public static final long VIRTUAL_EPOCH_MILLIS = 1_700_000_000_000L;
    /** Spines' daemon port, on every simulated node's own address. */
    private static final int NODE_PORT = NodeConfig.DEFAULT_PORT;

    private final Simulator simulator = new Simulator();
    private final SplittableRandom seeds;
    private final long seed;
    private final Consumer<NodeConfig.Builder> nodeDefaults;
    private final Map<String, Consumer<NodeConfig.Builder>> nodeCustomisations = new HashMap<>();
    private final List<SimNode> nodes = new ArrayList<>();
    private final Map<String, SimNode> byName = new HashMap<>();
    private final List<SimLink> links = new ArrayList<>();
    private final Map<String, SimLink> linkByEnds = new HashMap<>();
    private final List<BiConsumer<SimNode, NodeEvent>> eventListeners = new ArrayList<>();
    private final ByteBufAllocator allocator;
    private boolean writable = true;
    private boolean started;

    private boolean profiling;
    private long profileRecomputations;
    private long profileStartNanos;
    private final RouteComputationProfile profile = new RouteComputationProfile();

    /**
     * @param seed the seed of every random draw of the run
     * @param nodeDefaults applied to every overlay node's configuration (for example hello timing)
     * @param allocator where engines allocate datagrams
     */
    public SimNetwork(long seed, Consumer<NodeConfig.Builder> nodeDefaults, ByteBufAllocator allocator) {
        this.seed = seed;
        this.seeds = new SplittableRandom(seed);
        this.nodeDefaults = Objects.requireNonNull(nodeDefaults, "nodeDefaults");
        this.allocator = Objects.requireNonNull(allocator, "allocator");
    }

    public SimNetwork(long seed, Consumer<NodeConfig.Builder> nodeDefaults) {
        this(seed, nodeDefaults, PooledByteBufAllocator.DEFAULT);
    }

    public SimNetwork(long seed) {
        this(seed, b -> {});
    }

    public long seed() {
        return seed;
    }

    public Simulator simulator() {
        return simulator;
    }

    public Trace trace() {
        return simulator.trace();
    }

    public long now() {
        return simulator.now();
    }

    // ---------------------------------------------------------------- building

    /** Declares an overlay node, which runs a {@link NodeStack} once started. */
    public SimNode node(String name) {
        return addNode(name, true);
    }

    /** Declares a plain node: no engine, it only passes on packets that route themselves. */
    public SimNode plainNode(String name) {
        return addNode(name, false);
    }

    private SimNode addNode(String name, boolean overlay) {
        Objects.requireNonNull(name, "name");
        if (byName.containsKey(name)) {
            throw new IllegalArgumentException("node " + name + " is already declared");
        }
        int index = nodes.size();
        InetSocketAddress address;
        try {
            // 10.0.0.0/8 gives room for 16 million nodes, each on its own address.
            address = new InetSocketAddress(InetAddress.getByAddress(new byte[] {
                10, (byte) ((index + 1) >>> 16), (byte) ((index + 1) >>> 8), (byte) (index + 1)}), NODE_PORT);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("a four-byte address is always valid", e);
        }
        SimNode node = new SimNode(this, index, name, address, overlay);
        nodes.add(node);
        byName.put(name, node);
        return node;
    }

    /** Adjusts one overlay node's configuration, after the defaults; call before {@link #start()}. */
    public void configure(String node, Consumer<NodeConfig.Builder> customisation) {
        requireNode(node);
        nodeCustomisations.merge(node, customisation, Consumer::andThen);
    }

    /** A link in both directions with the same specification. */
    public void link(String a, String b, LinkSpec spec) {
        link(a, b, spec, spec);
    }

    /** A link with one specification per direction. */
    public void link(String a, String b, LinkSpec aToB, LinkSpec bToA) {
        if (started) {
            throw new IllegalStateException("links are declared before start(); fail or change them afterwards");
        }
        addDirection(requireNode(a), requireNode(b), aToB);
        addDirection(requireNode(b), requireNode(a), bToA);
    }

    private void addDirection(SimNode from, SimNode to, LinkSpec spec) {
        String key = from.name() + ">" + to.name();
        if (linkByEnds.containsKey(key)) {
            throw new IllegalArgumentException("link " + key + " is already declared");
        }
        SimLink link = new SimLink(simulator, links.size(), from, to, spec, seeds.nextLong());
        links.add(link);
        linkByEnds.put(key, link);
        from.addOutgoing(link);
    }

    /** Starts every overlay node's engine, with its links as neighbours. */
    public void start() {
        if (started) {
            throw new IllegalStateException("already started");
        }
        started = true;
        for (SimNode n : nodes) {
            n.start(configFor(n), allocator);
        }
    }

    private NodeConfig configFor(SimNode n) {
        NodeConfig.Builder b = NodeConfig.builder(n.name()).bindAddress(n.address());
        for (SimLink link : links) {
            if (link.from() == n && link.to().isOverlay()) {
                b.neighbour(new NeighbourConfig(link.to().name(), link.to().address()));
            }
        }
        nodeDefaults.accept(b);
        Consumer<NodeConfig.Builder> own = nodeCustomisations.get(n.name());
        if (own != null) {
            own.accept(b);
        }
        return b.build();
    }

    // ---------------------------------------------------------------- running

    /** Runs every action due up to {@code deadlineNanos} of virtual time. */
    public void runUntil(long deadlineNanos) {
        requireStarted();
        simulator.runUntil(deadlineNanos);
    }

    public void runFor(Duration duration) {
        runUntil(now() + duration.toNanos());
    }

    /** Schedules {@code action} at virtual time {@code atNanos}. */
    public void at(long atNanos, Action action) {
        simulator.schedule(atNanos, action);
    }

    // ---------------------------------------------------------------- changes

    /** Fails both directions of the link a-b now. */
    public void failLink(String a, String b) {
        direction(a, b).fail();
        direction(b, a).fail();
        simulator.trace().record(TraceKind.TOPOLOGY, now(), direction(a, b).index(), 1);
    }

    /** Restores both directions of the link a-b now. */
    public void restoreLink(String a, String b) {
        direction(a, b).restore();
        direction(b, a).restore();
        simulator.trace().record(TraceKind.TOPOLOGY, now(), direction(a, b).index(), 2);
    }

    /** Changes one direction of a link now (delay, bandwidth, queue, loss). */
    public void changeLink(String from, String to, LinkSpec spec) {
        direction(from, to).change(spec);
        simulator.trace().record(TraceKind.TOPOLOGY, now(), direction(from, to).index(), 3);
    }

    /** Crashes a node now: its engine stops and everything reaching it is lost. */
    public void crash(String name) {
        requireNode(name).crash();
    }

    /** Restarts a crashed node now, with a fresh engine as a restarted process would have. */
    public void restart(String name) {
        SimNode n = requireNode(name);
        n.start(configFor(n), allocator);
        simulator.trace().record(TraceKind.TOPOLOGY, now(), n.index(), 4);
    }

    /** Makes every node's socket report itself full (or not), back-pressuring sends. */
    public void writable(boolean writable) {
        this.writable = writable;
    }

    boolean writable() {
        return writable;
    }

    // ---------------------------------------------------------------- looking

    public SimNode nodeNamed(String name) {
        return requireNode(name);
    }

    public NodeStack engine(String name) {
        return requireNode(name).engine();
    }

    public List<SimNode> nodes() {
        return Collections.unmodifiableList(nodes);
    }

    public List<SimLink> links() {
        return Collections.unmodifiableList(links);
    }

    /** The direction from-to of a declared link. */
    public SimLink direction(String from, String to) {
        SimLink link = linkByEnds.get(from + ">" + to);
        if (link == null) {
            throw new IllegalArgumentException("no link " + from + "->" + to);
        }
        return link;
    }

    /** The links along a path of node names, for packets that route themselves. */
    public SimLink[] path(String... names) {
        if (names.length < 2) {
            throw new IllegalArgumentException("a path has at least two nodes");
        }
        SimLink[] path = new SimLink[names.length - 1];
        for (int i = 0; i < path.length; i++) {
            path[i] = direction(names[i], names[i + 1]);
        }
        return path;
    }

    /** Called with every event an engine reports, on the simulation thread. */
    public void onNodeEvent(BiConsumer<SimNode, NodeEvent> listener) {
        eventListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void nodeEvent(SimNode node, NodeEvent event) {
        for (BiConsumer<SimNode, NodeEvent> l : eventListeners) {
            l.accept(node, event);
        }
    }

    // ---------------------------------------------------------------- profiling

    /**
     * Measures, in wall-clock time, the engine calls in which a route recomputation happened. The
     * measurement never feeds back into the run, so the trace is the same with it on or off.
     */
    public void profileRouteComputation(boolean on) {
        this.profiling = on;
    }

    public RouteComputationProfile routeComputationProfile() {
        return profile;
    }

    void profileStart(NodeStack engine) {
        if (profiling) {
            profileRecomputations = engine.router().recomputations();
            profileStartNanos = System.nanoTime();
        }
    }

    void profileEnd(NodeStack engine) {
        if (profiling && engine.router().recomputations() != profileRecomputations) {
            profile.add(System.nanoTime() - profileStartNanos);
        }
    }

    // ---------------------------------------------------------------- closing

    /** Releases packets still in flight or queued and every engine's buffers. */
    @Override
    public void close() {
        simulator.clear(action -> {
            if (action instanceof PacketHolder h) {
                h.packet().discard();
            }
        });
        for (SimLink link : links) {
            link.fail();
        }
        for (SimNode n : nodes) {
            if (n.engine() != null && n.isAlive()) {
                n.engine().close();
            }
        }
    }

    private SimNode requireNode(String name) {
        SimNode n = byName.get(name);
        if (n == null) {
            throw new IllegalArgumentException("no node named " + name);
        }
        return n;
    }

    private void requireStarted() {
        if (!started) {
            throw new IllegalStateException("call start() first");
        }
    }
}

package net.hopwise.overlay;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollDatagramChannelConfig;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.impair.ImpairmentHandler;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.node.NodeCounters;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.node.NodeMeters;
import net.hopwise.overlay.node.NodeOutput;
import net.hopwise.overlay.node.RealTimeMeters;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionEndpoint;
import net.hopwise.overlay.wire.DropReason;

/**
 * A running overlay node: one UDP socket on Netty, the {@link NodeStack} protocol machine on one
 * event loop, and the embedding API.
 *
 * <pre>{@code
 * OverlayNode node = OverlayNode.start(NodeConfig.builder("a").loopback(8100)
 *         .neighbour(NeighbourConfig.parse("b@127.0.0.1:8101")).build());
 * OverlayPort port = node.openPort(7, msg -> System.out.println(new String(msg.payloadBytes())));
 * port.send("b", 7, "hello".getBytes());
 * }</pre>
 *
 * <p>Every public method may be called from any thread: work is handed to the node's event loop.
 * Sends never block; queries wait for the loop unless called on it.
 *
 * <p>About 1130 lines, far over the house's 400: it is the one public face of a node (ports, sessions,
 * real-time flows, neighbours, impairment, views, modules, the pipeline) and the hand-over of each of
 * those calls to the event loop, with the Netty plumbing they share (the batched writes, the timer,
 * the reads). The protocol itself is in the stages of {@link net.hopwise.overlay.node}; what could
 * leave next is the hand-over of sends from other threads, into a class of its own.
 */
public final class OverlayNode implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(OverlayNode.class.getName());
    /** Room for one datagram: ours are at most 1200 bytes, larger ones arrive cut and are dropped. */
    private static final int DATAGRAM_SLOT = 2048;
    /**
     * Datagrams read per system call on epoll (recvmmsg). Each delivered datagram is a slice of one
     * shared buffer, so anything kept beyond the read copies or is bounded elsewhere.
     */
    private static final int DATAGRAMS_PER_READ = 8;
    /**
     * Reads of the node's socket per wake-up of its loop, until the socket is empty. The socket carries
     * every neighbour's traffic, while the sockets an application registers on the same loop (a
     * relay's phone sockets, one per call) carry a packet per 20 ms each: read once per wake-up like
     * them, the node's socket fell behind as soon as a loop turn served hundreds of those, and its
     * backlog aged past real-time deadlines. With GRO a read holds up to 64 datagrams, but only
     * datagrams a neighbour sent in one GSO write; one sent alone is one read. Sixteen reads (Netty's
     * own default for datagram sockets) were still too few at 1000 relayed calls: the phone sockets
     * of a turn give up to four datagrams each, and the node's socket, carrying as many packets as
     * all of them together, held the egress relay's packets for a median 60 ms. Sixty-four reads
     * cost nothing when the socket empties first, as it does whenever the loop keeps up.
     */
    static final int READS_PER_WAKEUP = 64;
    /**
     * Messages handed over from other threads that one loop turn sends at most: about 1 MB of full
     * datagrams, the write buffer's high-water mark, so a turn ends about when the socket would push
     * back anyway; then the loop reads and runs its timers before the next batch.
     */
    private static final int DRAIN_BATCH = 1024;
    /** One read with UDP GRO: the largest UDP datagram, which is what a coalesced run can reach. */
    private static final int GRO_READ_BYTES = 65536;
    /**
     * A datagram that was alone in a read buffer at least this many datagram slots large is copied
     * into a buffer of its own before the engine sees it, so that whatever the engine keeps (a
     * real-time history, a reliable link's queue) does not pin a whole read buffer (16 KiB, or 64 KiB
     * with GRO, and with it the allocator's chunk) per datagram. Datagrams that share a read share
     * its buffer, which they then fill.
     */
    private static final int COMPACT_RATIO = 4;

    /** The pipeline handler that impairs datagrams both ways, next to the socket. */
    public static final String IMPAIRMENT_HANDLER = "impairment";
    /** The pipeline handler of the frame stage, where datagrams become the node's frames. */
    public static final String FRAME_HANDLER = "frame";

    private final NodeConfig config;
    private final NodeRuntime runtime;
    private final boolean ownsRuntime;
    private final MeterRegistry registry;
    private final List<NodeListener> listeners = new CopyOnWriteArrayList<>();
    private final Queue<PendingSend> pending = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pendingCount = new AtomicInteger();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = this::drain;
    private final AtomicBoolean running = new AtomicBoolean();
    private final ImpairmentHandler impairment;
    private final StageHandler.Contexts stageContexts = new StageHandler.Contexts();

    private volatile Channel channel;
    private volatile EventLoop loop;
    private volatile NodeStack engine;
    private volatile InetSocketAddress localAddress;
    private volatile Map<RoutingMetric, Set<NodeId>> reachable = Map.of();
    private NodeMeters meters;
    private RealTimeMeters realTimeMeters;
    private final AtomicInteger realTimePending = new AtomicInteger();
    /** Sessions whose messages not yet handed to the engine are released when the node stops. */
    private final Set<ReliableSession> openSessions = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private ScheduledFuture<?> timer;
    private long timerDeadline = Long.MAX_VALUE;
    /** When the armed timer should run: its deadline, or the moment it was armed if that had passed. */
    private long timerDue;
    private boolean flushNeeded;
    private boolean endOfTurnFlushQueued;
    private final Runnable endOfTurnFlush = this::endOfTurnFlush;
    private DatagramRuns runs;
    private volatile boolean groReads;
    private List<Meter> offloadMeters = List.of();
    private final LoopStalls stalls;

    private OverlayNode(NodeConfig config, NodeRuntime runtime, boolean ownsRuntime) {
        this.config = config;
        this.stalls = new LoopStalls(config.hello().interval().toNanos(),
                Math.max(config.hello().interval().toNanos(), config.hello().deadInterval().toNanos() / 2),
                TimeUnit.MINUTES.toNanos(1));
        this.runtime = runtime;
        this.ownsRuntime = ownsRuntime;
        this.registry = config.meterRegistry() != null ? config.meterRegistry() : new SimpleMeterRegistry();
        this.impairment = new ImpairmentHandler(config.impairmentSeed());
    }

    /** Starts a node on event loops of its own; returns once its socket is bound. */
    public static OverlayNode start(NodeConfig config) {
        NodeRuntime runtime = NodeRuntime.create(1, config.transport());
        try {
            return start(config, runtime, true);
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
    }

    /** Starts a node on a shared runtime; returns once its socket is bound. */
    public static OverlayNode start(NodeConfig config, NodeRuntime runtime) {
        return start(config, runtime, false);
    }

    private static OverlayNode start(NodeConfig config, NodeRuntime runtime, boolean owns) {
        OverlayNode node = new OverlayNode(config, runtime, owns);
        node.bind();
        return node;
    }

    private void bind() {
        Bootstrap bootstrap = new Bootstrap()
                .group(runtime.group())
                .channel(runtime.channelType())
                .option(ChannelOption.SO_RCVBUF, config.socketBufferBytes())
                .option(ChannelOption.SO_SNDBUF, config.socketBufferBytes())
                .option(ChannelOption.RECVBUF_ALLOCATOR,
                        new FixedRecvByteBufAllocator(DATAGRAM_SLOT).maxMessagesPerRead(READS_PER_WAKEUP))
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .handler(new ChannelInitializer<DatagramChannel>() {
                    @Override
                    protected void initChannel(DatagramChannel ch) {
                        if (ch instanceof EpollDatagramChannel epoll) {
                            configureReads(epoll.config(), runtime.udpOffload());
                        }
                        ch.pipeline().addLast(IMPAIRMENT_HANDLER, impairment);
                        ch.pipeline().addLast(FRAME_HANDLER, new FrameHandler());
                    }
                });
        Channel ch;
        try {
            ch = bootstrap.bind(config.bindAddress()).sync().channel();
        } catch (Exception e) {
            throw new IllegalStateException("node " + config.name() + " cannot bind UDP " + config.bindAddress()
                    + ": " + e.getMessage(), e);
        }
        channel = ch;
        runs = new DatagramRuns(ch, runtime.udpOffload() && DatagramRuns.supported(ch),
                to -> !impairment.get(to, Direction.OUTBOUND).isNone());
        loop = ch.eventLoop();
        localAddress = (InetSocketAddress) ch.localAddress();
        running.set(true);
        onLoop(() -> {
            long now = System.nanoTime();
            engine = new NodeStack(config, ch.alloc(), new Output(), System.currentTimeMillis(), now);
            // Added on the loop, so no datagram is read while the chain is half built; until now the
            // frame handler dropped what arrived, as a node not yet started would.
            for (int i = 1; i < engine.stageCount(); i++) {
                ch.pipeline().addLast(engine.stageNames().get(i), new StageHandler(engine, i, stageContexts));
            }
            stageContexts.fill(ch.pipeline(), engine.stageNames(), FRAME_HANDLER);
            for (int i = 0; i < engine.datagramStageCount(); i++) {
                ch.pipeline().addBefore(FRAME_HANDLER, engine.datagramStageNames().get(i),
                        new DatagramStageHandler(engine, i));
            }
            engine.counters().countDropsElsewhere(DropReason.IMPAIRMENT, impairment::dropped);
            engine.counters().countDropsElsewhere(DropReason.SOCKET_BUFFER, new KernelSocketDrops(localAddress));
            meters = new NodeMeters(engine, registry);
            offloadMeters = List.of(
                    FunctionCounter.builder("hopwise.node.udp.segmented.sends", runs, DatagramRuns::segmentedSends)
                            .description("Sends that carried several datagrams at once (UDP GSO)")
                            .tag("node", config.name()).register(registry),
                    FunctionCounter.builder("hopwise.node.udp.segmented.datagrams", runs,
                                    DatagramRuns::segmentedDatagrams)
                            .description("Datagrams sent in sends that carried several (UDP GSO)")
                            .tag("node", config.name()).register(registry),
                    FunctionCounter.builder("hopwise.node.loop.stalls", this, OverlayNode::loopStalls)
                            .description("Times the node's timer ran more than a hello interval late: its thread"
                                    + " was held, and peers it could not hear meanwhile may have been declared dead")
                            .tag("node", config.name()).register(registry));
            realTimeMeters = new RealTimeMeters(engine, registry);
            for (Neighbour n : engine.neighbours()) {
                meters.addLink(n);
                realTimeMeters.addLink(n);
            }
            afterWork();
            return null;
        });
    }

    /**
     * Chooses how an epoll socket reads: with UDP GRO where the kernel has it (a run of datagrams a
     * neighbour sent with GSO arrives in one read of up to 64 KiB, which Netty splits into the
     * datagrams), else up to {@link #DATAGRAMS_PER_READ} datagrams per recvmmsg. The socket is not
     * registered yet, so no datagram is read with settings half changed.
     */
    private void configureReads(EpollDatagramChannelConfig c, boolean offload) {
        boolean gro = false;
        if (offload) {
            try {
                gro = c.setOption(EpollChannelOption.UDP_GRO, true) && c.isUdpGro();
            } catch (RuntimeException e) {
                gro = false; // a kernel before 5.0: no UDP_GRO
            }
        }
        if (gro) {
            // recvmsg into one buffer that holds a whole run; recvmmsg's fixed slots would cut it.
            c.setMaxDatagramPayloadSize(0);
            c.setRecvByteBufAllocator(new FixedRecvByteBufAllocator(GRO_READ_BYTES).maxMessagesPerRead(READS_PER_WAKEUP));
        } else {
            c.setMaxDatagramPayloadSize(DATAGRAM_SLOT);
            c.setRecvByteBufAllocator(new FixedRecvByteBufAllocator(DATAGRAM_SLOT * DATAGRAMS_PER_READ)
                    .maxMessagesPerRead(READS_PER_WAKEUP));
        }
        groReads = gro;
    }

    public NodeConfig config() {
        return config;
    }

    public String name() {
        return config.name();
    }

    public NodeId id() {
        return config.id();
    }

    /** The bound UDP address (with the real port when port 0 was configured). */
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    public MeterRegistry meterRegistry() {
        return registry;
    }

    public boolean isRunning() {
        return running.get();
    }

    /** Whether the socket reads with UDP GRO (runs of datagrams sent with GSO arrive in one read). */
    boolean readsWithGro() {
        return groReads;
    }

    /** The transport carrying the socket: EPOLL or NIO. */
    public TransportKind transport() {
        return runtime.transport();
    }

    /**
     * The event loop the node runs on. Its handlers, timers and port callbacks run there; code of
     * yours that runs there too (sockets registered on this loop, tasks executed on it) calls the
     * node without a hand-over between threads, and its sends in one loop turn leave in one flush.
     */
    public io.netty.channel.EventLoop eventLoop() {
        requireRunning();
        return loop;
    }

    // ---------------------------------------------------------------- ports and sending

    /**
     * Opens a port for receiving; {@code handler} runs on the node's event loop and must not block.
     *
     * @param port 1-65535, or 0 for any free port
     * @throws IllegalArgumentException when the port is out of range or already open
     */
    public OverlayPort openPort(int port, MessageHandler handler) {
        Objects.requireNonNull(handler, "handler");
        requireRunning();
        int opened = onLoop(() -> engine.openPort(port, handler));
        return new OverlayPort(this, opened);
    }

    void closePort(int port) {
        if (running.get()) {
            loop.execute(() -> {
                if (engine != null) {
                    engine.closePort(port);
                }
            });
        }
    }

    SendResult send(int sourcePort, NodeId destination, int destinationPort, ByteBuf payload, RoutingMetric metric) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(metric, "metric");
        int length = payload.readableBytes();
        if (length > config.maxMessageBytes()) {
            throw new IllegalArgumentException("message of " + length + " bytes exceeds maxMessageBytes "
                    + config.maxMessageBytes());
        }
        if (destinationPort < 1 || destinationPort > 65535) {
            throw new IllegalArgumentException("destination port must be 1-65535, got " + destinationPort);
        }
        if (!running.get()) {
            return SendResult.CLOSED;
        }
        if (loop.inEventLoop()) {
            SendResult result = engine.send(sourcePort, destination, destinationPort, payload, metric,
                    System.nanoTime());
            flushAtEndOfTurn();
            return result;
        }
        SendResult refused = admitOffLoop(destination, metric, pendingCount);
        if (refused != null) {
            return refused;
        }
        ByteBuf message;
        boolean prepared = length <= engine.maxFragmentPayload();
        if (prepared) {
            // The one copy of the payload, made here on the caller's thread, straight into the
            // datagram the loop will send: the loop only writes the headers in front of it. Room for
            // what the datagram stages add (link security's header and tag) lets a stage rewrite the
            // datagram in this buffer instead of a new one.
            message = channel.alloc().ioBuffer(NodeStack.PREPARED_HEADROOM + length + engine.datagramOverhead());
            message.writerIndex(NodeStack.PREPARED_HEADROOM);
        } else {
            message = Unpooled.buffer(length);
        }
        message.writeBytes(payload, payload.readerIndex(), length);
        pending.add(new PendingSend(sourcePort, destination, destinationPort, message, prepared, metric));
        if (drainScheduled.compareAndSet(false, true)) {
            loop.execute(drainTask);
        }
        return SendResult.ACCEPTED;
    }

    /**
     * Answers a send from outside the loop from the routes the loop last published and the number of
     * sends already handed over: null when the send is admitted (and counted in {@code pending}).
     */
    private SendResult admitOffLoop(NodeId destination, RoutingMetric metric, AtomicInteger pending) {
        if (!destination.equals(config.id()) && !reachable.getOrDefault(metric, Set.of()).contains(destination)) {
            return SendResult.NO_ROUTE;
        }
        if (pending.get() >= config.sendQueueLimit()) {
            return SendResult.BACK_PRESSURED;
        }
        pending.incrementAndGet();
        return null;
    }

    // ---------------------------------------------------------------- real-time

    /** Sends one real-time packet; the flow API ({@link RealTimeFlow}) is the way in. */
    SendResult sendRealTime(int sourcePort, NodeId destination, int destinationPort, long flowSequence,
            ByteBuf payload, RoutingMetric metric) {
        if (!running.get()) {
            return SendResult.CLOSED;
        }
        if (loop.inEventLoop()) {
            SendResult result = engine.sendRealTime(sourcePort, destination, destinationPort, flowSequence,
                    payload, metric, System.nanoTime());
            flushAtEndOfTurn();
            return result;
        }
        SendResult refused = admitOffLoop(destination, metric, realTimePending);
        if (refused != null) {
            return refused;
        }
        byte[] copy = io.netty.buffer.ByteBufUtil.getBytes(payload);
        // One task per packet: real-time packets are few (tens per second per flow) and must not wait
        // behind a batch.
        loop.execute(() -> {
            realTimePending.decrementAndGet();
            if (engine == null || !running.get()) {
                return;
            }
            SendResult r = engine.sendRealTime(sourcePort, destination, destinationPort, flowSequence,
                    Unpooled.wrappedBuffer(copy), metric, System.nanoTime());
            if (r == SendResult.NO_ROUTE) {
                engine.recordDrop(DropReason.NO_ROUTE);
            }
            flushNeeded = true;
            afterWork();
        });
        return SendResult.ACCEPTED;
    }

    List<RealTimeFlowStatistics> realTimeFlows(int port) {
        return inspect(e -> e.realTimeFlows(port));
    }

    /** False while sends would be back-pressured. */
    public boolean isWritable() {
        Channel ch = channel;
        return running.get() && ch != null && ch.isWritable() && pendingCount.get() < config.sendQueueLimit();
    }

    /**
     * Sends what other threads handed over, at most {@link #DRAIN_BATCH} messages and as long as the
     * socket takes them, then flushes once (so the transport writes the batch with as few system
     * calls as it can). What is left waits for the next loop turn (or for the socket to drain), so
     * that the loop reads its socket and runs its timers between batches however fast the
     * application sends: a node that only sends must still hear its neighbours' hellos.
     */
    private void drain() {
        drainScheduled.set(false);
        if (engine == null) {
            return;
        }
        if (!running.get()) {
            // Stopped: a send that raced with stop() may have queued after it emptied the queue.
            for (PendingSend p; (p = pending.poll()) != null; ) {
                pendingCount.decrementAndGet();
                p.message.release();
            }
            return;
        }
        long now = System.nanoTime();
        PendingSend p;
        int sent = 0;
        while (sent < DRAIN_BATCH && channel.isWritable() && (p = pending.poll()) != null) {
            pendingCount.decrementAndGet();
            sent++;
            SendResult r;
            if (p.prepared) {
                r = engine.sendPrepared(p.sourcePort, p.destination, p.destinationPort, p.message, p.metric, now);
            } else {
                try {
                    r = engine.send(p.sourcePort, p.destination, p.destinationPort, p.message, p.metric, now);
                } finally {
                    p.message.release();
                }
            }
            if (r == SendResult.NO_ROUTE) {
                engine.recordDrop(DropReason.NO_ROUTE);
            }
            flushNeeded = true;
        }
        afterWork();
        if (channel.isWritable()) {
            drainNextTurn();
        }
    }

    /**
     * Drains again after the loop's next look at its sockets when messages are waiting: a task
     * scheduled with no delay runs in the next turn, whereas one executed now would run before any
     * I/O (Netty runs tasks for up to a second before it reads again).
     */
    private void drainNextTurn() {
        if (!pending.isEmpty() && running.get() && drainScheduled.compareAndSet(false, true)) {
            loop.schedule(drainTask, 0, TimeUnit.NANOSECONDS);
        }
    }

    // ---------------------------------------------------------------- reliable sessions

    /**
     * Opens one end of a reliable session from a local port to a port of another node, routed by the
     * node's default metric. The other end opens its session too, or accepts it
     * ({@link #acceptSessions}).
     *
     * @param handler receives the remote end's messages on the event loop, exactly once and in
     *     order; null to read them with {@link ReliableSession#inputStream()} instead
     * @throws IllegalArgumentException when a port is out of range or the session is already open
     */
    public ReliableSession openSession(int localPort, String destination, int destinationPort, MessageHandler handler) {
        return openSession(localPort, destination, destinationPort, config.defaultMetric(), handler);
    }

    /** As {@link #openSession(int, String, int, MessageHandler)}, routed by {@code metric}. */
    public ReliableSession openSession(int localPort, String destination, int destinationPort, RoutingMetric metric,
            MessageHandler handler) {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(metric, "metric");
        requireRunning();
        return onLoop(() -> {
            SessionEndpoint endpoint = engine.openSession(localPort, NodeId.ofName(destination), destinationPort,
                    metric, handler, null, System.nanoTime());
            if (handler == null) {
                engine.suspendDelivery(endpoint, true, System.nanoTime());
            }
            return wrapSession(endpoint, destination);
        });
    }

    /**
     * Takes the sessions other nodes open towards {@code port}: {@code acceptor} runs on the event
     * loop for each new one and returns its message handler, or null to refuse it; null stops
     * accepting.
     */
    public void acceptSessions(int port, java.util.function.Function<ReliableSession, MessageHandler> acceptor) {
        requireRunning();
        onLoop(() -> {
            engine.acceptSessions(port, acceptor == null ? null : endpoint -> {
                String name = engine.router().database().nameOf(endpoint.remote()).orElse(endpoint.remote().toString());
                ReliableSession session = wrapSession(endpoint, name);
                MessageHandler h = acceptor.apply(session);
                if (h == null) {
                    meters.removeSession(endpoint);
                    return false;
                }
                endpoint.handler(h);
                return true;
            });
            return null;
        });
    }

    private ReliableSession wrapSession(SessionEndpoint endpoint, String remoteName) {
        ReliableSession session = new ReliableSession(this, endpoint, remoteName, config.session().sendBuffer(),
                engine.sessionPayloadBytes(), engine.sessionHeadroom(), channel.alloc());
        openSessions.add(session);
        meters.addSession(endpoint, remoteName);
        return session;
    }

    void closeSession(ReliableSession session) {
        openSessions.remove(session);
        executeOnLoop(() -> {
            if (engine != null) {
                meters.removeSession(session.endpoint());
                engine.closeSession(session.endpoint());
            }
        });
    }

    /** Runs engine work on the loop (now when already there), then flushes and re-arms the timer. */
    void executeOnLoop(Runnable task) {
        if (!running.get()) {
            return;
        }
        if (loop.inEventLoop()) {
            task.run();
            flushNeeded = true;
            afterWork();
            return;
        }
        loop.execute(() -> {
            if (running.get() && engine != null) {
                task.run();
                flushNeeded = true;
                afterWork();
            }
        });
    }

    /** The engine, for code already running on the loop. */
    NodeStack engineOnLoop() {
        return loop.inEventLoop() ? engine : null;
    }

    void requireOffLoop(String what) {
        if (loop.inEventLoop()) {
            throw new IllegalStateException(what + " blocks; use it from a thread of your own, never on the node's"
                    + " event loop");
        }
    }

    // ---------------------------------------------------------------- neighbours, impairment, views

    /** Adds an overlay link at runtime; false when that neighbour is already configured. */
    public boolean addNeighbour(NeighbourConfig neighbour) {
        Objects.requireNonNull(neighbour, "neighbour");
        requireRunning();
        return onLoop(() -> {
            boolean added = engine.addNeighbour(neighbour, System.nanoTime());
            if (added) {
                meters.addLink(engine.neighbour(neighbour.id()));
                realTimeMeters.addLink(engine.neighbour(neighbour.id()));
            }
            afterWork();
            return added;
        });
    }

    /** Removes an overlay link at runtime; false when no neighbour has that name. */
    public boolean removeNeighbour(String name) {
        requireRunning();
        return onLoop(() -> {
            Neighbour n = engine.neighbour(NodeId.ofName(name));
            boolean removed = engine.removeNeighbour(name, System.nanoTime());
            if (removed) {
                meters.removeLink(n);
                realTimeMeters.removeLink(n);
                impairment.clear(n.address());
            }
            afterWork();
            return removed;
        });
    }

    /** The configured links with their latest measurements. */
    public List<Neighbour> neighbours() {
        NodeStack e = engine;
        return e == null ? List.of() : e.neighbours();
    }

    /**
     * Impairs the link to a neighbour in one direction (loss, delay, jitter, rate, reordering,
     * duplication), for tests, experiments and demos; {@link ImpairmentConfig#none()} clears it.
     *
     * @throws IllegalArgumentException when no neighbour has that name
     */
    public void impair(String neighbour, Direction direction, ImpairmentConfig impairmentConfig) {
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(impairmentConfig, "impairment");
        Neighbour n = neighbourNamed(neighbour);
        impairment.set(n.address(), direction, impairmentConfig);
    }

    /** The impairment applied to a neighbour's link in one direction. */
    public ImpairmentConfig impairment(String neighbour, Direction direction) {
        return impairment.get(neighbourNamed(neighbour).address(), direction);
    }

    private Neighbour neighbourNamed(String name) {
        NodeId id = NodeId.ofName(name);
        for (Neighbour n : neighbours()) {
            if (n.id().equals(id)) {
                return n;
            }
        }
        throw new IllegalArgumentException("node " + config.name() + " has no neighbour named " + name);
    }

    /** The node's counters (packets, bytes, drops by reason, forwarding, delivery). */
    public NodeCounters counters() {
        return requireEngine().counters();
    }

    /** Next hop towards a node under a metric, or null when unreachable. */
    public NodeId nextHop(String destination, RoutingMetric metric) {
        return inspect(e -> e.router().nextHop(NodeId.ofName(destination), metric));
    }

    /** The whole path, this node first, to a node under a metric; empty when unreachable. */
    public List<NodeId> path(String destination, RoutingMetric metric) {
        return inspect(e -> List.copyOf(e.router().path(NodeId.ofName(destination), metric)));
    }

    /** Names of the nodes this node can reach under a metric, itself included. */
    public Set<String> reachableNodes(RoutingMetric metric) {
        return inspect(e -> {
            Set<String> names = new java.util.TreeSet<>();
            names.add(config.name());
            for (NodeId id : reachable.getOrDefault(metric, Set.of())) {
                names.add(e.router().database().nameOf(id).orElse(id.toString()));
            }
            return names;
        });
    }

    /**
     * Runs a read-only query against the engine on its event loop and returns the result: the way to
     * look at routing and link state from another thread. Do not keep references to mutable state.
     */
    public <T> T inspect(Function<NodeStack, T> query) {
        requireRunning();
        return onLoop(() -> query.apply(engine));
    }

    /**
     * The API a module installed on this node offers for {@code type} (for example {@code
     * node.module(TraceService.class)}), callable from any thread.
     *
     * @throws IllegalArgumentException when no installed module offers it
     */
    public <T> T module(Class<T> type) {
        return findModule(type).orElseThrow(() -> new IllegalArgumentException("no module installed on node "
                + config.name() + " offers " + type.getName() + "; install it with NodeConfig.Builder.module(...)"));
    }

    /**
     * The API a module installed on this node offers for {@code type}, or empty when none does: for a
     * caller that works with or without the module (a view that shows link security where it is on).
     */
    public <T> java.util.Optional<T> findModule(Class<T> type) {
        Objects.requireNonNull(type, "type");
        return java.util.Optional.ofNullable(requireEngine().module(type));
    }

    /**
     * The names of the node's channel pipeline, in order: the socket's end first ({@value
     * #IMPAIRMENT_HANDLER}), then the frame stage ({@value #FRAME_HANDLER}) and the node's other stages
     * in traffic order, modules' included.
     */
    public List<String> pipelineNames() {
        requireRunning();
        return onLoop(() -> List.copyOf(channel.pipeline().names()));
    }

    /**
     * Adds a handler of your own to the node's channel pipeline, between the impairment handler and
     * the node's datagram stages (or its frame stage when no module added any): it sees every datagram the socket delivers ({@code DatagramPacket}, after
     * impairment) and every datagram the node writes ({@code DatagramPacket}, or runs of them as
     * {@code SegmentedDatagramPacket} where UDP GSO is on): the place for a packet capture or a metrics
     * tap. It runs on the node's event loop and must pass on what it gets (fireChannelRead, write).
     *
     * @throws IllegalArgumentException when the name is taken
     */
    public void addChannelHandler(String name, io.netty.channel.ChannelHandler handler) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(handler, "handler");
        requireRunning();
        onLoop(() -> {
            List<String> datagramStages = engine.datagramStageNames();
            return channel.pipeline().addBefore(datagramStages.isEmpty() ? FRAME_HANDLER : datagramStages.get(0), name,
                    handler);
        });
    }

    public void addListener(NodeListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public void removeListener(NodeListener listener) {
        listeners.remove(listener);
    }

    // ---------------------------------------------------------------- lifecycle

    /** Stops the node: closes its socket, releases what it holds and, if it owns them, its threads. */
    public void stop() {
        if (!running.compareAndSet(true, false)) {
            return;
        }
        try {
            onLoop(() -> {
                if (timer != null) {
                    timer.cancel(false);
                }
                if (meters != null) {
                    meters.close();
                }
                if (realTimeMeters != null) {
                    realTimeMeters.close();
                }
                offloadMeters.forEach(registry::remove);
                engine.close();
                runs.discard();
                for (PendingSend p; (p = pending.poll()) != null; ) {
                    p.message.release();
                }
                for (ReliableSession s : openSessions) {
                    s.discardQueued();
                }
                return null;
            });
            channel.close().syncUninterruptibly();
        } finally {
            if (ownsRuntime) {
                runtime.close();
            }
        }
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "OverlayNode[" + config.name() + " " + localAddress + "]";
    }

    // ---------------------------------------------------------------- event-loop plumbing

    private NodeStack requireEngine() {
        requireRunning();
        NodeStack e = engine;
        if (e == null) {
            throw new IllegalStateException("node " + config.name() + " is still starting");
        }
        return e;
    }

    private void requireRunning() {
        if (!running.get()) {
            throw new IllegalStateException("node " + config.name() + " is not running");
        }
    }

    private <T> T onLoop(java.util.concurrent.Callable<T> task) {
        if (loop.inEventLoop()) {
            try {
                return task.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                result.complete(task.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            return result.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for node " + config.name(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("node " + config.name() + " did not answer within 30 s", e);
        }
    }

    /**
     * After a send made on the loop: the flush waits for the end of the loop's turn instead of
     * following each send. Code on the loop (a relay reading its phones' sockets, an application
     * answering in a callback) often sends many packets to one neighbour in one turn; flushed one by
     * one they cost a system call each, flushed together they leave as one GSO write. The task runs
     * in the same turn, after the task or the reads in progress, so a lone send waits for nothing
     * but them.
     */
    private void flushAtEndOfTurn() {
        flushNeeded = true;
        if (endOfTurnFlushQueued) {
            return;
        }
        endOfTurnFlushQueued = true;
        try {
            loop.execute(endOfTurnFlush);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // The runtime is shutting down under a node not yet stopped: flush now, as nothing else will.
            endOfTurnFlushQueued = false;
            afterWork();
        }
    }

    private void endOfTurnFlush() {
        endOfTurnFlushQueued = false;
        afterWork();
    }

    /** After any engine work on the loop: flush what was written and re-arm the timer. */
    private void afterWork() {
        if (flushNeeded) {
            flushNeeded = false;
            runs.writeOut();
            channel.flush();
        }
        NodeStack e = engine;
        if (e == null || !running.get()) {
            return;
        }
        long deadline = e.nextDeadlineNanos();
        if (deadline < timerDeadline) {
            if (timer != null) {
                timer.cancel(false);
            }
            timerDeadline = deadline;
            long now = System.nanoTime();
            long delay = Math.max(0, deadline - now);
            timerDue = now + delay;
            timer = loop.schedule(this::onTimer, delay, TimeUnit.NANOSECONDS);
        }
    }

    private void onTimer() {
        long due = timerDue;
        timerDeadline = Long.MAX_VALUE;
        timer = null;
        if (!running.get() || engine == null) {
            return;
        }
        long now = System.nanoTime();
        if (stalls.onTimer(due, now)) {
            LOG.log(System.Logger.Level.WARNING, "node " + config.name() + ": its timer ran "
                    + stalls.lastNanos() / 1_000_000 + " ms late, so its thread was held that long (a pause of the"
                    + " JVM, or its loop busy elsewhere); a link silent past the dead interval ("
                    + config.hello().deadInterval().toMillis() + " ms) meanwhile goes down though its peer is alive;"
                    + " holds of more than a hello interval so far: " + stalls.count() + "; said at most once a minute");
        }
        engine.onTimer(now);
        afterWork();
    }

    /**
     * Times the node's timer ran more than a hello interval late: its thread was held (a pause of the
     * JVM, the cores busy elsewhere, a shared loop kept working). A hold longer than the dead interval
     * takes down links whose peers were silent meanwhile, every link when the peers share the held
     * thread; this count tells such a flap from the network's. Also the meter
     * {@code hopwise.node.loop.stalls}.
     */
    public long loopStalls() {
        return stalls.count();
    }

    /** The longest of {@link #loopStalls()}, in nanoseconds late; 0 if none. */
    public long longestLoopStallNanos() {
        return stalls.longestNanos();
    }

    private void refreshReachable() {
        Map<RoutingMetric, Set<NodeId>> next = new java.util.EnumMap<>(RoutingMetric.class);
        List<NodeId> known = new ArrayList<>();
        engine.router().database().advertisements().forEach(a -> known.add(a.origin()));
        for (RoutingMetric m : RoutingMetric.values()) {
            Set<NodeId> set = new HashSet<>();
            for (NodeId id : known) {
                if (engine.router().nextHop(id, m) != null) {
                    set.add(id);
                }
            }
            next.put(m, Set.copyOf(set));
        }
        reachable = next;
    }

    /** A message handed over from another thread; {@code prepared} ones already sit in their datagram. */
    private record PendingSend(int sourcePort, NodeId destination, int destinationPort, ByteBuf message,
            boolean prepared, RoutingMetric metric) {}

    private final class Output implements NodeOutput {
        @Override
        public void transmit(InetSocketAddress to, ByteBuf datagram) {
            runs.write(to, datagram);
            flushNeeded = true;
        }

        @Override
        public void transmitNow(InetSocketAddress to, ByteBuf datagram) {
            runs.writeOut();
            channel.writeAndFlush(new DatagramPacket(datagram, to), channel.voidPromise());
        }

        @Override
        public boolean writable() {
            return channel.isWritable();
        }

        @Override
        public void execute(Runnable task) {
            if (!running.get()) {
                throw new java.util.concurrent.RejectedExecutionException("node " + config.name() + " is stopped");
            }
            executeOnLoop(() -> {
                engine.advance(System.nanoTime());
                task.run();
            });
        }

        @Override
        public void event(NodeEvent event) {
            if (event.kind() == NodeEvent.Kind.ROUTES_CHANGED && engine != null) {
                refreshReachable();
            }
            for (NodeListener l : listeners) {
                try {
                    l.onEvent(event);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "node listener failed on " + event, e);
                }
            }
        }
    }

    /**
     * The frame stage as the pipeline's entry: turns each datagram into the node's frame and passes it
     * up the stage handlers; the end of a read batch flushes every stage.
     */
    private final class FrameHandler extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            if (engine == null) {
                return;
            }
            ByteBuf content = packet.content();
            if (!mayBeKept(content)) {
                passUp(ctx, packet.sender(), content);
                return;
            }
            // The epoll transport hands out slices of the buffer it read into, whose writer index ends
            // where the read did (leak-detection wrappers may sit in between).
            ByteBuf read = content.unwrap();
            while (read != null && read.capacity() < COMPACT_RATIO * DATAGRAM_SLOT) {
                read = read.unwrap();
            }
            if (read != null && read.writerIndex() <= DATAGRAM_SLOT) {
                // The only datagram of its read.
                ByteBuf own = ctx.alloc().ioBuffer(content.readableBytes());
                try {
                    own.writeBytes(content, content.readerIndex(), content.readableBytes());
                    passUp(ctx, packet.sender(), own);
                } finally {
                    own.release();
                }
                return;
            }
            passUp(ctx, packet.sender(), content);
        }

        /**
         * Whether the node may keep a view of this datagram after the batch: reliable data (a link's
         * queue, a session's reordering), real-time data (a link's history) and modules' packets, whose
         * handling is not known here. Best-effort data and control packets are forwarded, copied
         * (reassembly) or decoded at once, so their views never outlive the read buffer's batch and they
         * need no copy of their own.
         */
        private boolean mayBeKept(ByteBuf datagram) {
            if (datagram.readableBytes() <= net.hopwise.overlay.wire.WireHeader.OFFSET_TYPE) {
                return false;
            }
            int type = datagram.getUnsignedByte(datagram.readerIndex() + net.hopwise.overlay.wire.WireHeader.OFFSET_TYPE);
            return type == net.hopwise.overlay.wire.PacketType.RELIABLE_DATA.code()
                    || type == net.hopwise.overlay.wire.PacketType.REALTIME_DATA.code()
                    || net.hopwise.overlay.wire.WireHeader.isModuleType(type);
        }

        private void passUp(ChannelHandlerContext ctx, InetSocketAddress sender, ByteBuf datagram) {
            net.hopwise.overlay.spi.Frame frame = engine.acceptDatagram(sender, datagram, System.nanoTime());
            if (frame != null) {
                try {
                    stageContexts.passTo(engine.nextStage(1, frame.type()), frame);
                } finally {
                    frame.clear();
                }
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (engine != null) {
                // One acknowledgement for the whole batch, now rather than from a timer.
                engine.onReadBatchEnd(System.nanoTime());
            }
            afterWork();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                // Not drained here: this may run inside a flush, and draining from it would keep the
                // loop writing without ever reading.
                drainNextTurn();
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A UDP socket reports ICMP port-unreachable and the like as exceptions: a neighbour being
            // down is normal, and the hello protocol notices it; never let it escape the pipeline.
            if (cause instanceof java.io.IOException) {
                LOG.log(System.Logger.Level.DEBUG, "socket error on node " + config.name(), cause);
                return;
            }
            // Anything else is a fault in the node's own code that the engine did not contain: as
            // visible as the ones it does contain.
            NodeStack e = engine;
            if (e != null) {
                e.recordDrop(DropReason.HANDLER_ERROR);
            }
            LOG.log(System.Logger.Level.WARNING, "node " + config.name() + " dropped a datagram: its handling failed", cause);
        }
    }
}

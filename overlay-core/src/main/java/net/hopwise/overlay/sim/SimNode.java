package net.hopwise.overlay.sim;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.node.NodeOutput;
import net.hopwise.overlay.wire.DataHeader;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * A simulated machine: the meeting point of links and, for an overlay node, the unchanged
 * {@link NodeStack} on virtual time. A plain node (no engine) only passes on packets that route
 * themselves, as the routers under an end-to-end TCP baseline do.
 *
 * <p>The node runs the same chain of stages as a live node, batch ends included: the datagrams that
 * reach it at one instant are one read batch, and once they are all in, the stages flush what they
 * held for the batch (the acknowledgements it calls for), as a live node does when its socket has no
 * more to read.
 *
 * <p>Each node reads its own monotonic clock: virtual time plus the node's {@link #clockOffsetNanos
 * clock offset} (0 unless set), as machines' clocks count from their own boots.
 *
 * <p>The engine's timer is kept as one pending action: after every input the node asks the engine
 * for its next deadline and schedules a wake-up only when that is earlier than the one pending;
 * a wake-up that is no longer the latest does nothing.
 */
public final class SimNode {
    private final SimNetwork network;
    private final Simulator simulator;
    private final int index;
    private final String name;
    private final InetSocketAddress address;
    private final boolean overlay;
    private final Map<InetSocketAddress, SimLink> outgoing = new HashMap<>();
    private final Output output = new Output();
    private NodeStack engine;
    private boolean alive = true;
    private long timerAt = Long.MAX_VALUE;
    private long timerToken;
    private long restarts;
    /** The instant of the read batch whose end is scheduled; MIN_VALUE when none is. */
    private long batchEndAt = Long.MIN_VALUE;
    private long clockOffset;

    SimNode(SimNetwork network, int index, String name, InetSocketAddress address, boolean overlay) {
        this.network = network;
        this.simulator = network.simulator();
        this.index = index;
        this.name = name;
        this.address = address;
        this.overlay = overlay;
    }

    public String name() {
        return name;
    }

    public int index() {
        return index;
    }

    public InetSocketAddress address() {
        return address;
    }

    /** How far this node's clock is ahead of virtual time, nanoseconds. */
    public long clockOffsetNanos() {
        return clockOffset;
    }

    /**
     * Sets how far this node's clock is ahead of virtual time (negative: behind), as another machine's
     * monotonic clock would be; only before the network starts, since a monotonic clock never jumps.
     */
    public void clockOffsetNanos(long offsetNanos) {
        if (engine != null) {
            throw new IllegalStateException("node " + name + " already started: its clock cannot jump");
        }
        clockOffset = offsetNanos;
    }

    /** This node's clock now: what its engine is given as the time. */
    public long clock() {
        return simulator.now() + clockOffset;
    }

    /** Whether this node runs a node engine. */
    public boolean isOverlay() {
        return overlay;
    }

    public boolean isAlive() {
        return alive;
    }

    /** The engine, or null for a plain node or one not started. */
    public NodeStack engine() {
        return engine;
    }

    /** How many times the node was restarted after a crash. */
    public long restarts() {
        return restarts;
    }

    void addOutgoing(SimLink link) {
        outgoing.put(link.to().address(), link);
    }

    /** Starts (or restarts) the engine, with a fresh state as a restarted process would have. */
    void start(NodeConfig config, ByteBufAllocator allocator) {
        if (!overlay) {
            alive = true;
            return;
        }
        if (engine != null) {
            engine.close();
            restarts++;
        }
        alive = true;
        long now = simulator.now();
        engine = new NodeStack(config, allocator, output, SimNetwork.VIRTUAL_EPOCH_MILLIS + now / 1_000_000,
                now + clockOffset);
        timerAt = Long.MAX_VALUE;
        timerToken++;
        wake(now);
    }

    /** Crashes the node: it stops, and whatever reaches it is lost. */
    void crash() {
        alive = false;
        timerToken++;
        timerAt = Long.MAX_VALUE;
        if (engine != null) {
            engine.close();
        }
        simulator.trace().record(TraceKind.TOPOLOGY, simulator.now(), index, 0);
    }

    void receiveDatagram(InetSocketAddress source, ByteBuf datagram, long nowNanos) {
        try {
            if (engine == null || !alive) {
                return;
            }
            network.profileStart(engine);
            engine.onDatagram(source, datagram, nowNanos + clockOffset);
            network.profileEnd(engine);
            if (batchEndAt != nowNanos) {
                // Scheduled at this very instant, so it runs after every arrival already queued for it.
                batchEndAt = nowNanos;
                NodeStack batchOf = engine;
                simulator.schedule(nowNanos, now -> endBatch(batchOf, now));
            }
            // No wake-up here: the batch's end, due at this instant, re-arms the timer once it flushed.
        } finally {
            datagram.release();
        }
    }

    private void endBatch(NodeStack batchOf, long nowNanos) {
        batchEndAt = Long.MIN_VALUE;
        if (engine != batchOf || !alive) {
            return; // crashed or restarted meanwhile: the batch went with the old process
        }
        network.profileStart(engine);
        engine.onReadBatchEnd(nowNanos + clockOffset);
        network.profileEnd(engine);
        wake(nowNanos);
    }

    /**
     * Runs {@code call} against the engine at the current virtual time (for example an application
     * sending; times it passes the engine are on this node's {@link #clock()}), then reschedules the engine's timer, which the call may have moved earlier.
     */
    public void interact(Consumer<NodeStack> call) {
        if (engine == null || !alive) {
            throw new IllegalStateException("node " + name + " is not running");
        }
        call.accept(engine);
        wake(simulator.now());
    }

    private void wake(long nowNanos) {
        long clockDeadline = engine.nextDeadlineNanos();
        if (clockDeadline == Long.MAX_VALUE) {
            return;
        }
        long deadline = clockDeadline - clockOffset;
        if (deadline >= timerAt) {
            return;
        }
        timerAt = Math.max(deadline, nowNanos);
        long token = ++timerToken;
        simulator.schedule(timerAt, now -> onTimer(token, now));
    }

    private void onTimer(long token, long nowNanos) {
        if (token != timerToken || !alive) {
            return;
        }
        timerAt = Long.MAX_VALUE;
        simulator.trace().record(TraceKind.TIMER, nowNanos, index, 0);
        network.profileStart(engine);
        engine.onTimer(nowNanos + clockOffset);
        network.profileEnd(engine);
        long deadline = engine.nextDeadlineNanos();
        if (deadline <= nowNanos + clockOffset) {
            // Whatever is still due now waits for the next instant rather than spinning here.
            timerAt = nowNanos + 1;
            long next = ++timerToken;
            simulator.schedule(timerAt, now -> onTimer(next, now));
            return;
        }
        wake(nowNanos);
    }

    @Override
    public String toString() {
        return name;
    }

    /** The engine's window on the simulated world. */
    private final class Output implements NodeOutput {
        @Override
        public void transmit(InetSocketAddress to, ByteBuf datagram) {
            SimLink link = outgoing.get(to);
            if (link == null || !alive) {
                datagram.release();
                return;
            }
            // A wire gives the receiver bytes of its own: the engine may send a view of a packet it
            // keeps for resending, and the receiver rewrites headers in place when it forwards.
            ByteBuf wire = datagram.copy();
            datagram.release();
            link.send(new OverlayDatagram(address, wire, flowOf(wire)), simulator.now());
        }

        /** Fair queuing schedules data by its origin node, and control by the node sending it. */
        private long flowOf(ByteBuf datagram) {
            if (datagram.readableBytes() >= WireHeader.LENGTH + DataHeader.LENGTH
                    && WireHeader.check(datagram) == null && WireHeader.type(datagram) == PacketType.DATA) {
                return DataHeader.origin(WireHeader.body(datagram));
            }
            return engine.id().value();
        }

        @Override
        public boolean writable() {
            return network.writable();
        }

        @Override
        public void execute(Runnable task) {
            // The simulation is one thread: a module's API call runs now, at the current virtual time.
            if (engine != null && alive) {
                engine.advance(clock());
                task.run();
                wake(simulator.now());
            }
        }

        @Override
        public void event(NodeEvent event) {
            network.nodeEvent(SimNode.this, event);
        }
    }
}

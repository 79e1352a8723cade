package net.hopwise.overlay.impair;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Applies {@link ImpairmentModel}s to the datagrams of one {@code DatagramChannel}: inbound
 * {@link DatagramPacket}s by sender, outbound ones by recipient, each (address, direction) with its
 * own model. Put it next to the socket, before any decoder.
 *
 * <p>Datagrams of addresses without impairment, and messages that are not {@link DatagramPacket}s,
 * pass straight through: one map lookup, no scheduling, no allocation. Delayed datagrams are held in
 * one queue ordered by departure and released by a single timer on the channel's executor, so
 * packets leave exactly in the order the models chose even when several share an instant. Time is
 * the executor's {@link io.netty.util.concurrent.EventExecutor#ticker() ticker}, which is the system
 * clock on a real event loop and the virtual clock of an {@code EmbeddedChannel}.
 *
 * <p>The models see a datagram's payload size: rate limits apply to what the node sends, not to IP
 * and UDP headers. Dropped datagrams are released at once; a dropped write's promise succeeds, as a
 * send into a lossy network does. A delayed write's promise completes when the datagram is finally
 * written. When the channel goes inactive or the handler is removed, held datagrams are released and
 * held writes fail with {@link ClosedChannelException}, as Netty fails writes still queued at close;
 * those are not counted as impairment drops.
 *
 * <p>{@link #set}, {@link #clear}, {@link #get} and {@link #snapshot} may be called from any thread;
 * the models are only touched on the channel's executor. One instance serves one channel.
 */
public final class ImpairmentHandler extends ChannelDuplexHandler {
    private final long seed;
    private final ImpairmentListener listener;
    private final Map<InetSocketAddress, ImpairedPath> inbound = new ConcurrentHashMap<>();
    private final Map<InetSocketAddress, ImpairedPath> outbound = new ConcurrentHashMap<>();
    private final AtomicLong dropped = new AtomicLong();

    // Everything below is touched only on the channel's executor.
    private final long[] departures = new long[2];
    private final PriorityQueue<HeldPacket> held = new PriorityQueue<>();
    private final Runnable releaseDue = this::releaseDue;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> timer;
    private long timerDeparture;
    private long nextSequence;
    private boolean releasing;
    private volatile int heldCount;

    /** Drops are only counted, see {@link #dropped()}. */
    public ImpairmentHandler(long seed) {
        this(seed, ImpairmentListener.NONE);
    }

    /**
     * @param seed every (address, direction) model is seeded from this and the address, so a run
     *     with the same seed and traffic makes the same decisions
     * @param listener told of each drop, on the event loop
     */
    public ImpairmentHandler(long seed, ImpairmentListener listener) {
        this.seed = seed;
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * Impairs datagrams to or from {@code remote} in {@code direction} from the next one on;
     * {@link ImpairmentConfig#none()} (or any config that {@link ImpairmentConfig#isNone() is none})
     * removes the impairment. Datagrams already held keep their departure times; after a removal,
     * new datagrams pass at once and may overtake them, as they would on a path that just healed.
     *
     * @param remote a resolved address, as datagrams carry
     */
    public void set(InetSocketAddress remote, Direction direction, ImpairmentConfig config) {
        Objects.requireNonNull(remote, "remote");
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(config, "config");
        if (remote.isUnresolved()) {
            throw new IllegalArgumentException("remote " + remote
                    + " is unresolved; datagrams carry resolved addresses, so it would never match");
        }
        Map<InetSocketAddress, ImpairedPath> paths = paths(direction);
        if (config.isNone()) {
            paths.remove(remote);
            return;
        }
        paths.compute(remote, (address, path) -> {
            if (path == null) {
                return new ImpairedPath(address, direction, config);
            }
            path.config = config;
            return path;
        });
    }

    /** Removes the impairment of {@code remote} in both directions. */
    public void clear(InetSocketAddress remote) {
        Objects.requireNonNull(remote, "remote");
        inbound.remove(remote);
        outbound.remove(remote);
    }

    /** The impairment in force; {@link ImpairmentConfig#none()} when there is none. */
    public ImpairmentConfig get(InetSocketAddress remote, Direction direction) {
        ImpairedPath path = paths(direction).get(Objects.requireNonNull(remote, "remote"));
        return path == null ? ImpairmentConfig.none() : path.config;
    }

    /** Every impaired address with the configuration of each impaired direction, as of now. */
    public Map<InetSocketAddress, Map<Direction, ImpairmentConfig>> snapshot() {
        Map<InetSocketAddress, Map<Direction, ImpairmentConfig>> result = new HashMap<>();
        for (Direction direction : Direction.values()) {
            for (ImpairedPath path : paths(direction).values()) {
                result.computeIfAbsent(path.remote, a -> new EnumMap<>(Direction.class))
                        .put(direction, path.config);
            }
        }
        result.replaceAll((address, configs) -> Collections.unmodifiableMap(configs));
        return Collections.unmodifiableMap(result);
    }

    /** Datagrams dropped by impairment (loss or queue overflow) since this handler was made. */
    public long dropped() {
        return dropped.get();
    }

    /** Datagrams held for a later departure right now. */
    public int heldPackets() {
        return heldCount;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        discardHeld();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        discardHeld();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof DatagramPacket packet && !inbound.isEmpty()) {
            InetSocketAddress sender = packet.sender();
            ImpairedPath path = sender == null ? null : inbound.get(sender);
            if (path != null) {
                impair(ctx, path, packet, null);
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof DatagramPacket packet && !outbound.isEmpty()) {
            InetSocketAddress recipient = packet.recipient();
            ImpairedPath path = recipient == null ? null : outbound.get(recipient);
            if (path != null) {
                impair(ctx, path, packet, promise);
                return;
            }
        }
        ctx.write(msg, promise);
    }

    private void impair(ChannelHandlerContext ctx, ImpairedPath path, DatagramPacket packet, ChannelPromise promise) {
        int bytes = packet.content().readableBytes();
        long now = ctx.executor().ticker().nanoTime();
        int count = path.model(seed).admit(bytes, now, departures);
        if (count == 0) {
            packet.release();
            if (promise != null) {
                promise.trySuccess();
            }
            dropped.incrementAndGet();
            listener.dropped(path.remote, path.direction, bytes);
            return;
        }
        // Made before the original moves on: once passed down the pipeline it is no longer ours.
        DatagramPacket twin = count == 2 ? twinOf(packet, path.direction) : null;
        emitOrHold(ctx, path, packet, promise, departures[0], now);
        if (twin != null) {
            emitOrHold(ctx, path, twin, null, departures[1], now);
        }
    }

    private static DatagramPacket twinOf(DatagramPacket packet, Direction direction) {
        // A received duplicate is a datagram of its own, with its own buffer, so a handler that
        // decodes in place cannot corrupt the other copy; a sent one is only read by the transport,
        // so sharing the bytes is safe.
        return direction == Direction.INBOUND
                ? packet.replace(packet.content().copy())
                : packet.retainedDuplicate();
    }

    private void emitOrHold(
            ChannelHandlerContext ctx, ImpairedPath path, DatagramPacket packet, ChannelPromise promise,
            long departure, long now) {
        // Passing at once is only safe when nothing of this path is still held, or it would overtake.
        if (departure <= now && path.held == 0) {
            if (path.direction == Direction.INBOUND) {
                ctx.fireChannelRead(packet);
            } else if (promise != null) {
                ctx.write(packet, promise);
            } else {
                ctx.write(packet);
            }
            return;
        }
        path.held++;
        held.add(new HeldPacket(path, packet, promise, departure, nextSequence++));
        heldCount = held.size();
        if (!releasing) {
            arm(now);
        }
    }

    private void arm(long now) {
        HeldPacket first = held.peek();
        if (first == null) {
            cancelTimer();
            return;
        }
        if (timer != null && timerDeparture <= first.departure) {
            return;
        }
        cancelTimer();
        timerDeparture = first.departure;
        timer = ctx.executor().schedule(releaseDue, Math.max(0, first.departure - now), TimeUnit.NANOSECONDS);
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void releaseDue() {
        timer = null;
        long now = ctx.executor().ticker().nanoTime();
        boolean read = false;
        boolean wrote = false;
        releasing = true;
        try {
            // Emitting may make later handlers send or receive more, which may be held here too and
            // already due: polling until none is due picks those up in order.
            HeldPacket next;
            while ((next = held.peek()) != null && next.departure <= now) {
                held.poll();
                heldCount = held.size();
                next.path.held--;
                if (next.path.direction == Direction.INBOUND) {
                    ctx.fireChannelRead(next.packet);
                    read = true;
                } else {
                    if (next.promise != null) {
                        ctx.write(next.packet, next.promise);
                    } else {
                        ctx.write(next.packet);
                    }
                    wrote = true;
                }
            }
        } finally {
            releasing = false;
        }
        if (read) {
            ctx.fireChannelReadComplete();
        }
        if (wrote) {
            ctx.flush();
        }
        arm(ctx.executor().ticker().nanoTime());
    }

    private void discardHeld() {
        cancelTimer();
        HeldPacket next;
        while ((next = held.poll()) != null) {
            next.path.held--;
            next.packet.release();
            if (next.promise != null) {
                next.promise.tryFailure(new ClosedChannelException());
            }
        }
        heldCount = 0;
    }

    private Map<InetSocketAddress, ImpairedPath> paths(Direction direction) {
        return direction == Direction.INBOUND ? inbound : outbound;
    }

    /** A model seed unique to (handler seed, address, direction), stable across runs and JVMs. */
    static long seedFor(long seed, InetSocketAddress remote, Direction direction) {
        long h = mix(seed);
        for (byte b : remote.getAddress().getAddress()) {
            h = mix(h ^ (b & 0xFF));
        }
        h = mix(h ^ remote.getPort());
        return mix(h ^ direction.ordinal());
    }

    private static long mix(long z) {
        // SplitMix64's finaliser: every input bit reaches every output bit.
        z += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** One impaired (address, direction): the config any thread may set, the model only the loop uses. */
    private static final class ImpairedPath {
        final InetSocketAddress remote;
        final Direction direction;
        volatile ImpairmentConfig config;
        ImpairmentModel model;
        int held;

        ImpairedPath(InetSocketAddress remote, Direction direction, ImpairmentConfig config) {
            this.remote = remote;
            this.direction = direction;
            this.config = config;
        }

        ImpairmentModel model(long handlerSeed) {
            ImpairmentConfig current = config;
            if (model == null) {
                model = new ImpairmentModel(current, seedFor(handlerSeed, remote, direction));
            } else if (model.config() != current) {
                model.setConfig(current);
            }
            return model;
        }
    }

    private static final class HeldPacket implements Comparable<HeldPacket> {
        final ImpairedPath path;
        final DatagramPacket packet;
        final ChannelPromise promise;
        final long departure;
        final long sequence;

        HeldPacket(ImpairedPath path, DatagramPacket packet, ChannelPromise promise, long departure, long sequence) {
            this.path = path;
            this.packet = packet;
            this.promise = promise;
            this.departure = departure;
            this.sequence = sequence;
        }

        @Override
        public int compareTo(HeldPacket other) {
            // Ties leave in arrival order: the models already put equal departures in FIFO order.
            int byDeparture = Long.compare(departure, other.departure);
            return byDeparture != 0 ? byDeparture : Long.compare(sequence, other.sequence);
        }
    }
}

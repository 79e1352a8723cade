package net.hopwise.overlay;

import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import java.nio.channels.spi.SelectorProvider;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Event-loop threads that nodes run on. Many nodes may share one runtime (a demo overlay, tests, a
 * simulator-sized deployment in one JVM); a node started without one creates and owns its own.
 *
 * <p>Each node is pinned to one event loop of the runtime, which owns all of its protocol state, so
 * protocol code needs no locks.
 *
 * <pre>{@code
 * NodeRuntime runtime = NodeRuntime.builder().threads(2).spinBeforeSleep(Duration.ofNanos(50_000)).build();
 * }</pre>
 */
public final class NodeRuntime implements AutoCloseable {
    /** One thread: a node's state lives on one loop anyway; share a runtime with more for many nodes. */
    public static final int DEFAULT_THREADS = 1;
    /**
     * No spinning: a loop sleeps in the kernel as soon as it has nothing to do, so an idle or lightly
     * loaded node costs no CPU. Spinning shortens round trips where thread wake-ups are expensive (see
     * {@link Builder#spinBeforeSleep}) at the price of CPU after every burst of activity.
     */
    public static final Duration DEFAULT_SPIN_BEFORE_SLEEP = Duration.ZERO;
    /**
     * Use UDP segmentation and receive offload where the kernel has them (Linux 5.0+, epoll): a run of
     * equal-size datagrams to one neighbour leaves in one send and arrives in one read. Measured on
     * loopback: several times the best-effort message rate at less CPU per message, and the datagrams
     * on the wire are unchanged. Off only to compare, or where a kernel or device misbehaves with it.
     */
    public static final boolean DEFAULT_UDP_OFFLOAD = true;
    /** Longest spin accepted: beyond a millisecond an overlay node is a busy-polling appliance. */
    public static final Duration MAX_SPIN_BEFORE_SLEEP = Duration.ofMillis(1);

    private final EventLoopGroup group;
    private final Class<? extends DatagramChannel> channelType;
    private final TransportKind kind;
    private final int threads;
    private final Duration spinBeforeSleep;
    private final boolean udpOffload;

    private NodeRuntime(EventLoopGroup group, Class<? extends DatagramChannel> channelType, TransportKind kind,
            Builder settings) {
        this.group = group;
        this.channelType = channelType;
        this.kind = kind;
        this.threads = settings.threads;
        this.spinBeforeSleep = settings.spinBeforeSleep;
        this.udpOffload = settings.udpOffload;
    }

    /** A runtime with {@code threads} event loops on the best transport the platform has. */
    public static NodeRuntime create(int threads) {
        return builder().threads(threads).build();
    }

    public static NodeRuntime create(int threads, TransportKind transport) {
        return builder().threads(threads).transport(transport).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public EventLoopGroup group() {
        return group;
    }

    Class<? extends DatagramChannel> channelType() {
        return channelType;
    }

    /** The transport actually in use: EPOLL or NIO. */
    public TransportKind transport() {
        return kind;
    }

    /** Number of event-loop threads. */
    public int threads() {
        return threads;
    }

    /** How long a loop keeps polling after activity before it sleeps; zero when it never spins. */
    public Duration spinBeforeSleep() {
        return spinBeforeSleep;
    }

    /**
     * Whether nodes on this runtime send runs of datagrams with UDP GSO and read with UDP GRO where
     * the transport and kernel allow (only the epoll transport does).
     */
    public boolean udpOffload() {
        return udpOffload;
    }

    /** Stops the event loops; nodes still running on them stop with them. */
    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Override
    public String toString() {
        return "NodeRuntime[" + threads + " thread(s), " + kind
                + (spinBeforeSleep.isZero() ? "" : ", spin " + spinBeforeSleep.toNanos() / 1000 + " µs")
                + (udpOffload ? "" : ", no UDP offload") + "]";
    }

    /** Settings of a runtime; every one has a default. */
    public static final class Builder {
        private int threads = DEFAULT_THREADS;
        private TransportKind transport = TransportKind.AUTO;
        private Duration spinBeforeSleep = DEFAULT_SPIN_BEFORE_SLEEP;
        private boolean udpOffload = DEFAULT_UDP_OFFLOAD;

        private Builder() {}

        /** Event-loop threads, at least 1. */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1, got " + threads);
            }
            this.threads = threads;
            return this;
        }

        public Builder transport(TransportKind transport) {
            this.transport = Objects.requireNonNull(transport, "transport");
            return this;
        }

        /**
         * After handling anything, a loop polls its sockets without blocking for up to this long
         * before it sleeps in the kernel; zero (the default) sleeps at once. Worth it where waking a
         * sleeping thread is slow (virtual machines whose idle CPUs halt) and latency matters more
         * than CPU: each burst of activity then costs up to this much extra CPU time per loop. At most
         * {@link #MAX_SPIN_BEFORE_SLEEP}.
         */
        public Builder spinBeforeSleep(Duration spin) {
            Objects.requireNonNull(spin, "spinBeforeSleep");
            if (spin.isNegative() || spin.compareTo(MAX_SPIN_BEFORE_SLEEP) > 0) {
                throw new IllegalArgumentException("spinBeforeSleep must be between 0 and " + MAX_SPIN_BEFORE_SLEEP
                        + ", got " + spin);
            }
            this.spinBeforeSleep = spin;
            return this;
        }

        /**
         * Whether to use UDP GSO for runs of equal-size datagrams to one neighbour and UDP GRO on
         * reads, where the epoll transport and the kernel have them; see {@link #DEFAULT_UDP_OFFLOAD}.
         */
        public Builder udpOffload(boolean on) {
            this.udpOffload = on;
            return this;
        }

        /**
         * Starts the threads.
         *
         * @throws IllegalStateException when {@link TransportKind#EPOLL} is asked for where it is not available
         */
        public NodeRuntime build() {
            boolean epoll = switch (transport) {
                case AUTO -> Epoll.isAvailable();
                case NIO -> false;
                case EPOLL -> {
                    if (!Epoll.isAvailable()) {
                        throw new IllegalStateException("native epoll transport is not available here: "
                                + Epoll.unavailabilityCause());
                    }
                    yield true;
                }
            };
            long spinNanos = spinBeforeSleep.toNanos();
            SelectStrategyFactory strategy = spinNanos == 0
                    ? DefaultSelectStrategyFactory.INSTANCE
                    : () -> new SpinBeforeSleep(spinNanos);
            IoHandlerFactory factory = epoll
                    ? EpollIoHandler.newFactory(0, strategy)
                    : NioIoHandler.newFactory(SelectorProvider.provider(), strategy);
            EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, new HopwiseThreadFactory(), factory);
            return new NodeRuntime(group, epoll ? EpollDatagramChannel.class : NioDatagramChannel.class,
                    epoll ? TransportKind.EPOLL : TransportKind.NIO, this);
        }
    }

    private static final class HopwiseThreadFactory implements java.util.concurrent.ThreadFactory {
        private final java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new io.netty.util.concurrent.FastThreadLocalThread(r, "hopwise-loop-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    }
}

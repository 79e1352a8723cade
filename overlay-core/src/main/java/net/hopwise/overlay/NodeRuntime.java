package net.hopwise.overlay;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import java.util.concurrent.TimeUnit;

/**
 * Event-loop threads that nodes run on. Many nodes may share one runtime (a demo overlay, tests, a
 * simulator-sized deployment in one JVM); a node started without one creates and owns its own.
 *
 * <p>Each node is pinned to one event loop of the runtime, which owns all of its protocol state, so
 * protocol code needs no locks.
 */
public final class NodeRuntime implements AutoCloseable {
    private final EventLoopGroup group;
    private final Class<? extends DatagramChannel> channelType;
    private final TransportKind kind;

    private NodeRuntime(EventLoopGroup group, Class<? extends DatagramChannel> channelType, TransportKind kind) {
        this.group = group;
        this.channelType = channelType;
        this.kind = kind;
    }

    /** A runtime with {@code threads} event loops on the best transport the platform has. */
    public static NodeRuntime create(int threads) {
        return create(threads, TransportKind.AUTO);
    }

    public static NodeRuntime create(int threads, TransportKind transport) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
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
        IoHandlerFactory factory = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, new HopwiseThreadFactory(), factory);
        return new NodeRuntime(group, epoll ? EpollDatagramChannel.class : NioDatagramChannel.class,
                epoll ? TransportKind.EPOLL : TransportKind.NIO);
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

    /** Stops the event loops; nodes still running on them stop with them. */
    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
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

package net.hopwise.voip.relay;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.TransportKind;

/**
 * The node's own event loop, on which the relay runs its sockets and all of its state. A packet then
 * goes from a phone's socket into the node's real-time send, and from the node's receive to the
 * phone's socket, on one thread: no hand-over between threads, each of which cost a wake-up (tens to
 * hundreds of microseconds on a virtual machine) and a copy. The relay's sockets use the node's
 * transport (epoll or NIO), since a loop serves only channels of its own kind.
 */
final class NodeLoop {
    private final EventLoop loop;
    private final boolean epoll;

    private NodeLoop(EventLoop loop, boolean epoll) {
        this.loop = loop;
        this.epoll = epoll;
    }

    /**
     * Finds the loop of a running node. The node's public API does not name its loop, but a handler
     * added to its pipeline is added on it and learns it from its context; the handler takes itself
     * out again at once, as Netty's ChannelInitializer does.
     */
    static NodeLoop of(OverlayNode node) {
        CompletableFuture<EventLoop> found = new CompletableFuture<>();
        node.addChannelHandler("voip-relay-loop@" + Integer.toHexString(System.identityHashCode(found)),
                new ChannelHandlerAdapter() {
                    @Override
                    public void handlerAdded(ChannelHandlerContext ctx) {
                        found.complete(ctx.channel().eventLoop());
                        ctx.pipeline().remove(this);
                    }
                });
        try {
            // addChannelHandler returns once the handler is in place, so the loop is known by now.
            EventLoop loop = found.get(10, TimeUnit.SECONDS);
            return new NodeLoop(loop, node.transport() == TransportKind.EPOLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted finding the node's event loop", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the node's event loop did not answer", e);
        }
    }

    EventLoop loop() {
        return loop;
    }

    Class<? extends ServerChannel> serverType() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** A datagram socket for addresses of {@code address}'s family, not yet registered nor bound. */
    DatagramChannel newDatagram(InetAddress address) {
        SocketProtocolFamily family = address instanceof Inet6Address ? SocketProtocolFamily.INET6
                : SocketProtocolFamily.INET;
        return epoll ? new EpollDatagramChannel(family) : new NioDatagramChannel(family);
    }

    /**
     * Registers and binds {@code ch} now; false (and the channel closed) when the address is taken.
     * On the loop both steps complete before they return, which is what lets a port pool try the
     * next port at once.
     */
    boolean registerAndBind(Channel ch, java.net.SocketAddress address) {
        if (!loop.inEventLoop()) {
            throw new IllegalStateException("relay sockets are bound on the node's loop");
        }
        io.netty.channel.ChannelFuture registered = loop.register(ch);
        if (!registered.isDone() || !registered.isSuccess()) {
            ch.close();
            return false;
        }
        io.netty.channel.ChannelFuture bound = ch.bind(address);
        if (!bound.isDone() || !bound.isSuccess()) {
            ch.close();
            return false;
        }
        return true;
    }
}

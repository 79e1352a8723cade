package net.hopwise.voip.relay;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
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
    /** Room for one media datagram: Netty's default for datagram sockets, above any RTP packet a phone sends. */
    static final int MEDIA_READ_BYTES = 2048;
    /**
     * Datagrams one wake-up takes from a phone's socket on epoll, in one recvmmsg. A socket holds one
     * packet per 20 ms and is read once per turn of the loop; when the machine is short of cores a turn
     * outlasts 20 ms, packets then arrive faster than one read per turn takes them, and the backlog
     * (up to 37 packets at 1000 calls) ages in the socket, unseen by the egress deadline but not by the
     * phone's jitter buffer. Four per read drain a socket for turns up to 80 ms, in the same single
     * system call when only one packet waits; the buffer, four slots of {@link #MEDIA_READ_BYTES}, is
     * released as each packet is handled (the node's send copies).
     */
    static final int MEDIA_DATAGRAMS_PER_READ = 4;

    private final EventLoop loop;
    private final boolean epoll;

    private NodeLoop(EventLoop loop, boolean epoll) {
        this.loop = loop;
        this.epoll = epoll;
    }

    static NodeLoop of(OverlayNode node) {
        return new NodeLoop(node.eventLoop(), node.transport() == TransportKind.EPOLL);
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
     * A phone's media socket: as {@link #newDatagram}, read once per wake-up of the loop. A phone's
     * socket holds one packet per 20 ms; reading until the socket is empty would cost a second
     * {@code recvmsg} that finds nothing, half of the relay's reads at load. Netty 4.2 polls every
     * socket level-triggered (on epoll too: its {@code EpollMode} setting is a no-op now), so a packet
     * still waiting after the one read is reported again at the next poll, and nothing is left behind.
     * On epoll the one read is a recvmmsg of up to {@link #MEDIA_DATAGRAMS_PER_READ} datagrams, so that
     * a backlog drains in one wake-up.
     */
    DatagramChannel newMediaDatagram(InetAddress address) {
        DatagramChannel ch = newDatagram(address);
        if (ch instanceof EpollDatagramChannel e) {
            e.config().setMaxDatagramPayloadSize(MEDIA_READ_BYTES);
            e.config().setRecvByteBufAllocator(
                    new FixedRecvByteBufAllocator(MEDIA_READ_BYTES * MEDIA_DATAGRAMS_PER_READ).maxMessagesPerRead(1));
        } else {
            ch.config().setRecvByteBufAllocator(new FixedRecvByteBufAllocator(MEDIA_READ_BYTES).maxMessagesPerRead(1));
        }
        return ch;
    }

    /**
     * A loop of its own for the phones' media sockets, of the node's transport: one thread, which
     * reads and writes the phones' packets while the node's loop runs the relay and the overlay, so
     * that a burst of packets is worked on two cores instead of one (rtpengine spreads its sockets over
     * threads for the same reason).
     */
    EventLoopGroup newPhoneLoopGroup() {
        return new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("hopwise-relay-media", true),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    /**
     * A phone's media socket (as {@link #newMediaDatagram}) bound now, on the calling thread, and
     * registered with {@code on}, which may be another loop: the bind is what can fail (a port taken),
     * and a port pool must know at once to try the next port, while registering with another loop
     * completes later on that loop. Null when the address is taken.
     */
    DatagramChannel openMediaDatagram(InetSocketAddress address, EventLoop on) {
        DatagramChannel ch;
        if (epoll) {
            ch = newMediaDatagram(address.getAddress());
            try {
                ((io.netty.channel.unix.Socket) ((EpollDatagramChannel) ch).fd()).bind(address);
            } catch (IOException e) {
                ch.unsafe().closeForcibly();
                return null;
            }
            // Bound outside Netty, so Netty does not know the socket is ready: active (read and
            // written) from registration on. Deprecated in Netty 4.2 without a replacement that keeps
            // the socket of one family (a channel made from a bound descriptor is active, but Netty
            // 4.2 opens a bare datagram descriptor only dual-stack).
            activeOnRegistration(ch);
        } else {
            java.nio.channels.DatagramChannel socket = null;
            try {
                socket = java.nio.channels.DatagramChannel.open(address.getAddress() instanceof Inet6Address
                        ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
                socket.bind(address);
            } catch (IOException e) {
                if (socket != null) {
                    try {
                        socket.close();
                    } catch (IOException ignored) {
                        // Closing a socket that never bound: nothing to release but the descriptor.
                    }
                }
                return null;
            }
            ch = new NioDatagramChannel(socket);
            ch.config().setRecvByteBufAllocator(new FixedRecvByteBufAllocator(MEDIA_READ_BYTES).maxMessagesPerRead(1));
        }
        on.register(ch);
        return ch;
    }

    @SuppressWarnings("deprecation")
    private static void activeOnRegistration(DatagramChannel ch) {
        ch.config().setOption(ChannelOption.DATAGRAM_CHANNEL_ACTIVE_ON_REGISTRATION, true);
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

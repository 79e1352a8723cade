package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import io.netty.util.collection.IntObjectHashMap;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.RealTimeFlow;
import net.hopwise.overlay.SendResult;

/**
 * The media side of a running relay: RTP/RTCP sockets facing the phones, and overlay ports with their
 * real-time flows facing the other relays. The relay's state and the overlay live on the node's event
 * loop (see {@link NodeLoop}); every method here runs on it. The phones' sockets live on a loop of
 * their own when the configuration says so ({@link RelayConfig#mediaThread}): that loop reads the
 * phones' packets and hands each turn's to the node's loop in one task, and the node's loop hands each
 * turn's packets for the phones back to it in one task ({@link TurnBatch}), so that the system calls
 * on a thousand phone sockets (a read and a write per packet, most of a loaded relay's time) run beside
 * the relay's own work instead of before and after it. Otherwise the phones' sockets share the node's
 * loop and a packet crosses the relay on the thread that read it, with no hand-over at all.
 */
final class RelayMedia implements MediaIo {
    private final OverlayNode node;
    private final NodeLoop nodeLoop;
    private final InetAddress bindAddress;
    /** The loop of the phones' sockets: the node's own, or the relay's media loop. */
    private final EventLoop phoneLoop;
    private final boolean handOver;
    /** Read on the phones' loop, handled on the node's; null when there is no hand-over. */
    private final TurnBatch<FromPhone> fromPhones;
    /** Sent on the node's loop, written on the phones'; null when there is no hand-over. */
    private final TurnBatch<ToPhone> toPhones;
    // Keyed by port without boxing: every packet looks up its socket or flow here.
    private final IntObjectHashMap<Channel[]> phoneSockets = new IntObjectHashMap<>();
    private final IntObjectHashMap<OverlayPort> overlayPorts = new IntObjectHashMap<>();
    private final IntObjectHashMap<Flow> flows = new IntObjectHashMap<>();
    private MediaSink proxy;
    private volatile boolean open = true;
    /** The next call's pair, opened beforehand ({@link #preparePhonePorts}); null when none. */
    private Channel[] spare;
    private int spareRtpPort;
    /** Long after the INVITE that took a pair has left (tens of microseconds), long before the next call. */
    static final long PREPARE_DELAY_MICROS = 500;

    /** Phone sockets on the node's loop. */
    RelayMedia(OverlayNode node, NodeLoop nodeLoop, InetAddress bindAddress) {
        this(node, nodeLoop, bindAddress, nodeLoop.loop());
    }

    /** Phone sockets on {@code phoneLoop}: the node's loop, or another that the caller shuts down after {@link #close}. */
    RelayMedia(OverlayNode node, NodeLoop nodeLoop, InetAddress bindAddress, EventLoop phoneLoop) {
        this.node = node;
        this.nodeLoop = nodeLoop;
        this.bindAddress = bindAddress;
        this.phoneLoop = phoneLoop;
        this.handOver = phoneLoop != nodeLoop.loop();
        if (handOver) {
            fromPhones = new TurnBatch<>(phoneLoop, nodeLoop.loop(), this::handle, p -> p.packet.release());
            toPhones = new TurnBatch<>(nodeLoop.loop(), phoneLoop, RelayMedia::write, p -> p.packet.release());
        } else {
            fromPhones = null;
            toPhones = null;
        }
    }

    void proxy(MediaSink proxy) {
        this.proxy = proxy;
    }

    /** A phone's packet on its way from the phones' loop to the node's, with the time it was read. */
    private record FromPhone(int rtpPort, boolean rtcpSocket, ByteBuf packet, InetSocketAddress source, long at) { }

    /** A packet on its way from the node's loop to a phone's socket. */
    private record ToPhone(Channel socket, DatagramPacket packet) { }

    /** On the phones' loop: hands the packet on, or handles it here when that is the node's loop. */
    private void read(int rtpPort, boolean rtcpSocket, DatagramPacket datagram) {
        long now = System.nanoTime();
        if (!handOver) {
            proxy.onPhoneMedia(rtpPort, rtcpSocket, datagram.content(), datagram.sender(), now);
            return;
        }
        if (open) {
            fromPhones.add(new FromPhone(rtpPort, rtcpSocket, datagram.content().retain(), datagram.sender(), now));
        }
    }

    /** On the node's loop: one turn's packets from the phones. */
    private void handle(List<FromPhone> batch) {
        for (FromPhone p : batch) {
            try {
                if (open) {
                    proxy.onPhoneMedia(p.rtpPort, p.rtcpSocket, p.packet, p.source, p.at);
                }
            } finally {
                p.packet.release();
            }
        }
    }

    /** On the phones' loop: one turn's packets for the phones (a socket closed meanwhile releases its own). */
    private static void write(List<ToPhone> batch) {
        for (ToPhone p : batch) {
            p.socket.writeAndFlush(p.packet);
        }
    }

    /** Batches of phones' packets handed to the node's loop so far (0 without a media loop). */
    long handOversFromPhones() {
        return handOver ? fromPhones.handOvers() : 0;
    }

    @Override
    public boolean bindPhonePorts(int rtpPort) {
        if (spare != null && spareRtpPort == rtpPort) {
            phoneSockets.put(rtpPort, spare);
            spare = null;
            return true;
        }
        Channel[] pair = openPair(rtpPort);
        if (pair == null) {
            return false;
        }
        phoneSockets.put(rtpPort, pair);
        return true;
    }

    /**
     * Opens the next call's pair a little after the call that took the last one: the two sockets
     * (creation, registration with the loop, bind: several system calls each) were most of the time a
     * relay took to forward an INVITE, twice per call, once at each relay. Scheduled, not run at the
     * end of this turn, so that the INVITE being handled leaves first.
     */
    @Override
    public void preparePhonePorts(int rtpPort) {
        if (spare != null && spareRtpPort == rtpPort) {
            return;
        }
        nodeLoop.loop().schedule(() -> {
            if (!open || phoneSockets.containsKey(rtpPort) || (spare != null && spareRtpPort == rtpPort)) {
                return;
            }
            closeSpare();
            Channel[] pair = openPair(rtpPort);
            if (pair != null) {
                spare = pair;
                spareRtpPort = rtpPort;
            }
        }, PREPARE_DELAY_MICROS, java.util.concurrent.TimeUnit.MICROSECONDS);
    }

    private void closeSpare() {
        if (spare != null) {
            spare[0].close();
            spare[1].close();
            spare = null;
        }
    }

    /** Both sockets of a pair, bound now; null (neither left open) when either port is taken. */
    private Channel[] openPair(int rtpPort) {
        Channel rtp = bind(rtpPort, false);
        if (rtp == null) {
            return null;
        }
        Channel rtcp = bind(rtpPort + 1, true);
        if (rtcp == null) {
            rtp.close();
            return null;
        }
        return new Channel[] {rtp, rtcp};
    }

    /**
     * Binds a socket at once (a port taken is known before this returns) and registers it on the
     * phones' loop; null when the port is taken.
     */
    private Channel bind(int port, boolean rtcpSocket) {
        io.netty.channel.socket.DatagramChannel ch =
                nodeLoop.openMediaDatagram(new InetSocketAddress(bindAddress, port), phoneLoop);
        if (ch == null) {
            return null;
        }
        int rtpPort = rtcpSocket ? port - 1 : port;
        ch.pipeline().addLast(new SimpleChannelInboundHandler<DatagramPacket>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                read(rtpPort, rtcpSocket, packet);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                // An ICMP unreachable from a phone that went away surfaces here; the media timeout handles it.
            }
        });
        return ch;
    }

    @Override
    public void unbindPhonePorts(int rtpPort) {
        Channel[] pair = phoneSockets.remove(rtpPort);
        if (pair != null) {
            pair[0].close();
            pair[1].close();
        }
    }

    @Override
    public int openOverlayPort() {
        try {
            // The handler runs on the node's loop, which is the relay's: straight on, no hand-over.
            OverlayPort port = node.openPort(0, msg -> {
                if (open) {
                    proxy.onNodeMedia(msg.destinationPort(), msg.payload(), msg.flowSequence(), msg.sendTimeNanos(),
                            System.nanoTime());
                }
            });
            overlayPorts.put(port.port(), port);
            return port.port();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void closeOverlayPort(int overlayPort) {
        OverlayPort port = overlayPorts.remove(overlayPort);
        flows.remove(overlayPort);
        if (port != null) {
            port.close();
        }
    }

    @Override
    public void sendToPhone(int rtpPort, boolean rtcp, InetSocketAddress to, ByteBuf packet) {
        Channel[] pair = phoneSockets.get(rtpPort);
        if (pair == null) {
            return;
        }
        Channel socket = pair[rtcp ? 1 : 0];
        DatagramPacket datagram = new DatagramPacket(packet.retainedDuplicate(), to);
        if (handOver) {
            toPhones.add(new ToPhone(socket, datagram));
        } else {
            socket.writeAndFlush(datagram);
        }
    }

    @Override
    public boolean sendToNode(int overlayPort, String remoteNode, int remotePort, ByteBuf packet) {
        OverlayPort port = overlayPorts.get(overlayPort);
        if (port == null || packet.readableBytes() > RealTimeFlow.MAX_PAYLOAD) {
            return false;
        }
        Flow flow = flows.get(overlayPort);
        // The node's name is compared as given: turning it into a node id hashes it, once per flow.
        if (flow == null || flow.port != remotePort || !flow.node.equals(remoteNode)) {
            flow = new Flow(remoteNode, remotePort, port.openRealTime(remoteNode, remotePort));
            flows.put(overlayPort, flow);
        }
        return flow.flow.send(packet) == SendResult.ACCEPTED;
    }

    /** The flow a stream sends on, with the target it was opened for. */
    private record Flow(String node, int port, RealTimeFlow flow) { }

    int socketCount() {
        return phoneSockets.size() * 2;
    }

    /** The pair opened ahead of the next call, or -1. */
    int spareRtpPort() {
        return spare == null ? -1 : spareRtpPort;
    }

    int overlayPortCount() {
        return overlayPorts.size();
    }

    void close() {
        open = false;
        closeSpare();
        for (Integer p : new java.util.ArrayList<>(phoneSockets.keySet())) {
            unbindPhonePorts(p);
        }
        for (Integer p : new java.util.ArrayList<>(overlayPorts.keySet())) {
            closeOverlayPort(p);
        }
    }
}

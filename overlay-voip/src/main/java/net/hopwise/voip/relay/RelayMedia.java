package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import io.netty.util.collection.IntObjectHashMap;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.RealTimeFlow;
import net.hopwise.overlay.SendResult;

/**
 * The media side of a running relay: RTP/RTCP sockets facing the phones, and overlay ports with their
 * real-time flows facing the other relays, all on the node's event loop (see {@link NodeLoop}), so
 * that a packet crosses the relay on the thread that read it. Every method runs on that loop.
 */
final class RelayMedia implements MediaIo {
    private final OverlayNode node;
    private final NodeLoop nodeLoop;
    private final InetAddress bindAddress;
    // Keyed by port without boxing: every packet looks up its socket or flow here.
    private final IntObjectHashMap<Channel[]> phoneSockets = new IntObjectHashMap<>();
    private final IntObjectHashMap<OverlayPort> overlayPorts = new IntObjectHashMap<>();
    private final IntObjectHashMap<Flow> flows = new IntObjectHashMap<>();
    private SipProxy proxy;
    private volatile boolean open = true;
    /** The next call's pair, opened beforehand ({@link #preparePhonePorts}); null when none. */
    private Channel[] spare;
    private int spareRtpPort;
    /** Long after the INVITE that took a pair has left (tens of microseconds), long before the next call. */
    static final long PREPARE_DELAY_MICROS = 500;

    RelayMedia(OverlayNode node, NodeLoop nodeLoop, InetAddress bindAddress) {
        this.node = node;
        this.nodeLoop = nodeLoop;
        this.bindAddress = bindAddress;
    }

    void proxy(SipProxy proxy) {
        this.proxy = proxy;
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
     * Binds a socket at once (on the loop, where binding completes before it returns) and registers
     * it on the node's loop; null when the port is taken.
     */
    private Channel bind(int port, boolean rtcpSocket) {
        io.netty.channel.socket.DatagramChannel ch = nodeLoop.newMediaDatagram(bindAddress);
        int rtpPort = rtcpSocket ? port - 1 : port;
        ch.pipeline().addLast(new SimpleChannelInboundHandler<DatagramPacket>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                proxy.onPhoneMedia(rtpPort, rtcpSocket, packet.content(), packet.sender(), System.nanoTime());
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                // An ICMP unreachable from a phone that went away surfaces here; the media timeout handles it.
            }
        });
        return nodeLoop.registerAndBind(ch, new InetSocketAddress(bindAddress, port)) ? ch : null;
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
        if (pair != null) {
            pair[rtcp ? 1 : 0].writeAndFlush(new DatagramPacket(packet.retainedDuplicate(), to));
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

package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.RealTimeFlow;
import net.hopwise.overlay.SendResult;

/**
 * The media side of a running relay: RTP/RTCP sockets facing the phones, registered on the relay's
 * loop, and overlay ports with their real-time flows facing the other relays. Packets from the
 * overlay arrive on the node's loop and are handed to the relay's loop (retained for the hop).
 * Every method but the port handlers runs on the relay's loop.
 */
final class RelayMedia implements MediaIo {
    private final OverlayNode node;
    private final EventLoop loop;
    private final InetAddress bindAddress;
    private final Map<Integer, Channel[]> phoneSockets = new HashMap<>();
    private final Map<Integer, OverlayPort> overlayPorts = new HashMap<>();
    private final Map<Integer, RealTimeFlow> flows = new HashMap<>();
    private SipProxy proxy;
    private volatile boolean open = true;

    RelayMedia(OverlayNode node, EventLoop loop, InetAddress bindAddress) {
        this.node = node;
        this.loop = loop;
        this.bindAddress = bindAddress;
    }

    void proxy(SipProxy proxy) {
        this.proxy = proxy;
    }

    @Override
    public boolean bindPhonePorts(int rtpPort) {
        Channel rtp = bind(rtpPort, false);
        if (rtp == null) {
            return false;
        }
        Channel rtcp = bind(rtpPort + 1, true);
        if (rtcp == null) {
            rtp.close();
            return false;
        }
        phoneSockets.put(rtpPort, new Channel[] {rtp, rtcp});
        return true;
    }

    /**
     * Binds a socket at once (a plain bind, never a wait on the loop we run on) and registers it on
     * the relay's loop; null when the port is taken.
     */
    private Channel bind(int port, boolean rtcpSocket) {
        java.nio.channels.DatagramChannel jdk = null;
        try {
            jdk = java.nio.channels.DatagramChannel.open(bindAddress instanceof java.net.Inet6Address
                    ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
            jdk.bind(new InetSocketAddress(bindAddress, port));
        } catch (IOException e) {
            if (jdk != null) {
                try {
                    jdk.close();
                } catch (IOException ignored) {
                    // Closing a socket that failed to bind: nothing else to release.
                }
            }
            return null;
        }
        NioDatagramChannel ch = new NioDatagramChannel(jdk);
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
        loop.register(ch);
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
            OverlayPort port = node.openPort(0, msg -> {
                ByteBuf payload = msg.payload().retain();
                int local = msg.destinationPort();
                long seq = msg.flowSequence();
                long sent = msg.sendTimeNanos();
                try {
                    loop.execute(() -> {
                        try {
                            if (open) {
                                proxy.onNodeMedia(local, payload, seq, sent, System.nanoTime());
                            }
                        } finally {
                            payload.release();
                        }
                    });
                } catch (RejectedExecutionException e) {
                    payload.release();
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
        RealTimeFlow flow = flows.get(overlayPort);
        if (flow == null || flow.destinationPort() != remotePort
                || !flow.destination().equals(net.hopwise.overlay.NodeId.ofName(remoteNode))) {
            flow = port.openRealTime(remoteNode, remotePort);
            flows.put(overlayPort, flow);
        }
        return flow.send(packet) == SendResult.ACCEPTED;
    }

    int socketCount() {
        return phoneSockets.size() * 2;
    }

    int overlayPortCount() {
        return overlayPorts.size();
    }

    void close() {
        open = false;
        for (Integer p : new java.util.ArrayList<>(phoneSockets.keySet())) {
            unbindPhonePorts(p);
        }
        for (Integer p : new java.util.ArrayList<>(overlayPorts.keySet())) {
            closeOverlayPort(p);
        }
    }
}

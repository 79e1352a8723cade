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
 * loop (see {@link NodeLoop}); every method here runs on it. A call's phone sockets live on the node's
 * loop, where a packet crosses the relay on the thread that read it with no hand-over at all, or, when
 * the relay has a media loop ({@link RelayConfig#mediaThread}), on that loop once the relay holds
 * {@code nodeLoopCalls} calls' sockets: the media loop reads those phones' packets and hands each
 * turn's to the node's loop in one task, and the node's loop hands each turn's packets for them back
 * in one task ({@link TurnBatch}), so that the system calls on a thousand phone sockets (a read and a
 * write per packet, most of a loaded relay's time) run beside the relay's own work instead of before
 * and after it. Each call's loop is chosen when its pair is opened and kept for the call.
 */
final class RelayMedia implements MediaIo {
    private final OverlayNode node;
    private final NodeLoop nodeLoop;
    private final InetAddress bindAddress;
    /** The relay's media loop; null when every call's sockets are on the node's loop. */
    private final EventLoop mediaLoop;
    /** Calls whose sockets are opened on the node's loop before the media loop takes the next. */
    private final int nodeLoopCalls;
    /** Read on the media loop, handled on the node's; null without a media loop. */
    private final TurnBatch<FromPhone> fromPhones;
    /** Sent on the node's loop, written on the media loop; null without a media loop. */
    private final TurnBatch<ToPhone> toPhones;
    // Keyed by port without boxing: every packet looks up its socket or flow here.
    private final IntObjectHashMap<PhonePair> phoneSockets = new IntObjectHashMap<>();
    private final IntObjectHashMap<OverlayPort> overlayPorts = new IntObjectHashMap<>();
    private final IntObjectHashMap<Flow> flows = new IntObjectHashMap<>();
    private MediaSink proxy;
    private volatile boolean open = true;
    /** The next call's pair, opened beforehand ({@link #preparePhonePorts}); null when none. */
    private PhonePair spare;
    private int spareRtpPort;
    /** Long after the INVITE that took a pair has left (tens of microseconds), long before the next call. */
    static final long PREPARE_DELAY_MICROS = 500;

    /** Every call's phone sockets on the node's loop. */
    RelayMedia(OverlayNode node, NodeLoop nodeLoop, InetAddress bindAddress) {
        this(node, nodeLoop, bindAddress, null, 0);
    }

    /** Every call's phone sockets on {@code mediaLoop}, which the caller shuts down after {@link #close}. */
    RelayMedia(OverlayNode node, NodeLoop nodeLoop, InetAddress bindAddress, EventLoop mediaLoop) {
        this(node, nodeLoop, bindAddress, mediaLoop, 0);
    }

    /**
     * The sockets of the first {@code nodeLoopCalls} calls held at once on the node's loop, of the
     * calls beyond on {@code mediaLoop} (null: all on the node's loop), which the caller shuts down
     * after {@link #close}.
     */
    RelayMedia(OverlayNode node, NodeLoop nodeLoop, InetAddress bindAddress, EventLoop mediaLoop, int nodeLoopCalls) {
        this.node = node;
        this.nodeLoop = nodeLoop;
        this.bindAddress = bindAddress;
        this.mediaLoop = mediaLoop == nodeLoop.loop() ? null : mediaLoop;
        this.nodeLoopCalls = nodeLoopCalls;
        if (this.mediaLoop != null) {
            fromPhones = new TurnBatch<>(mediaLoop, nodeLoop.loop(), this::handle, p -> p.packet.release());
            toPhones = new TurnBatch<>(nodeLoop.loop(), mediaLoop, RelayMedia::write, p -> p.packet.release());
        } else {
            fromPhones = null;
            toPhones = null;
        }
    }

    /** A call's two phone sockets, and whether they are on the media loop (each packet handed over). */
    private record PhonePair(Channel rtp, Channel rtcp, boolean handOver) {
        void close() {
            rtp.close();
            rtcp.close();
        }
    }

    void proxy(MediaSink proxy) {
        this.proxy = proxy;
    }

    /** A phone's packet on its way from the phones' loop to the node's, with the time it was read. */
    private record FromPhone(int rtpPort, boolean rtcpSocket, ByteBuf packet, InetSocketAddress source, long at) { }

    /** A packet on its way from the node's loop to a phone's socket. */
    private record ToPhone(Channel socket, DatagramPacket packet) { }

    /** On the socket's loop: handles the packet there when it is the node's, else hands it on. */
    private void read(int rtpPort, boolean rtcpSocket, boolean handOver, DatagramPacket datagram) {
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

    /** On the media loop: one turn's packets for its phones (a socket closed meanwhile releases its own). */
    private static void write(List<ToPhone> batch) {
        for (ToPhone p : batch) {
            p.socket.writeAndFlush(p.packet);
        }
    }

    /** Batches of phones' packets handed to the node's loop so far (0 without a media loop). */
    long handOversFromPhones() {
        return fromPhones == null ? 0 : fromPhones.handOvers();
    }

    /**
     * Whether the next call's pair goes on the media loop: the relay already holds {@code
     * nodeLoopCalls} calls' sockets. Counted at the moment the pair is opened, so a relay whose load
     * falls puts its next calls back on the node's loop while the calls already up stay where they are.
     */
    private boolean nextOnMediaLoop() {
        return mediaLoop != null && phoneSockets.size() >= nodeLoopCalls;
    }

    @Override
    public boolean bindPhonePorts(int rtpPort) {
        if (spare != null && spareRtpPort == rtpPort) {
            // Taken on the loop chosen when it was opened, even if the calls held crossed the threshold
            // since: closed and opened again on the other, its ports would still be held on NIO until
            // the old loop's next select, and the call would lose the time the spare was there to save.
            phoneSockets.put(rtpPort, spare);
            spare = null;
            return true;
        }
        PhonePair pair = openPair(rtpPort, nextOnMediaLoop());
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
     * end of this turn, so that the INVITE being handled leaves first. The pair goes on the loop the
     * next call would take when it is opened: the per-call choice is made then, so a call arriving
     * meanwhile can put one call more (or fewer) on the node's loop than the threshold says.
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
            PhonePair pair = openPair(rtpPort, nextOnMediaLoop());
            if (pair != null) {
                spare = pair;
                spareRtpPort = rtpPort;
            }
        }, PREPARE_DELAY_MICROS, java.util.concurrent.TimeUnit.MICROSECONDS);
    }

    private void closeSpare() {
        if (spare != null) {
            spare.close();
            spare = null;
        }
    }

    /** Both sockets of a pair, bound now; null (neither left open) when either port is taken. */
    private PhonePair openPair(int rtpPort, boolean onMediaLoop) {
        Channel rtp = bind(rtpPort, false, onMediaLoop);
        if (rtp == null) {
            return null;
        }
        Channel rtcp = bind(rtpPort + 1, true, onMediaLoop);
        if (rtcp == null) {
            rtp.close();
            return null;
        }
        return new PhonePair(rtp, rtcp, onMediaLoop);
    }

    /**
     * Binds a socket at once (a port taken is known before this returns) and registers it on the
     * media loop or the node's; null when the port is taken.
     */
    private Channel bind(int port, boolean rtcpSocket, boolean onMediaLoop) {
        io.netty.channel.socket.DatagramChannel ch = nodeLoop.openMediaDatagram(new InetSocketAddress(bindAddress, port),
                onMediaLoop ? mediaLoop : nodeLoop.loop());
        if (ch == null) {
            return null;
        }
        int rtpPort = rtcpSocket ? port - 1 : port;
        ch.pipeline().addLast(new SimpleChannelInboundHandler<DatagramPacket>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                read(rtpPort, rtcpSocket, onMediaLoop, packet);
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
        PhonePair pair = phoneSockets.remove(rtpPort);
        if (pair != null) {
            pair.close();
        }
    }

    @Override
    public int openOverlayPort() {
        try {
            // The handler runs on the node's loop, which is the relay's: straight on, no hand-over.
            OverlayPort port = node.openPort(0, msg -> {
                if (open) {
                    proxy.onNodeMedia(msg.destinationPort(), msg.payload(), msg.flowSequence(), msg.sendTimeNanos(),
                            msg.recovered(), System.nanoTime());
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
        PhonePair pair = phoneSockets.get(rtpPort);
        if (pair == null) {
            return;
        }
        Channel socket = rtcp ? pair.rtcp : pair.rtp;
        DatagramPacket datagram = new DatagramPacket(packet.retainedDuplicate(), to);
        if (pair.handOver) {
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

    /** Calls whose phone sockets are on the media loop. */
    int mediaLoopCalls() {
        int n = 0;
        for (PhonePair pair : phoneSockets.values()) {
            n += pair.handOver ? 1 : 0;
        }
        return n;
    }

    /**
     * The loop the pair of {@code rtpPort} (a call's, or the spare) is registered with, when both its
     * sockets are on one and its packets are handed over exactly when that is not the node's; else null.
     */
    EventLoop loopOf(int rtpPort) {
        PhonePair pair = spare != null && spareRtpPort == rtpPort ? spare : phoneSockets.get(rtpPort);
        if (pair == null || pair.rtp.eventLoop() != pair.rtcp.eventLoop()
                || pair.handOver == (pair.rtp.eventLoop() == nodeLoop.loop())) {
            return null;
        }
        return pair.rtp.eventLoop();
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

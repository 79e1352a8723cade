package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;

/**
 * What the media side of the relay needs from the world: sockets facing the phones and overlay ports
 * and flows facing the other relays. The relay's logic calls it and never touches a channel; tests
 * hand in a recording fake. Buffers passed in stay owned by the caller.
 */
public interface MediaIo {
    /** Opens the RTP socket on {@code rtpPort} and the RTCP socket above it; false when either is taken. */
    boolean bindPhonePorts(int rtpPort);

    void unbindPhonePorts(int rtpPort);

    /**
     * A hint that {@code rtpPort} is the pair the next call will take: the sockets may be opened
     * beforehand, off the path of the INVITE that takes them. Doing nothing is correct.
     */
    default void preparePhonePorts(int rtpPort) {
    }

    /** Opens an overlay port for one stream's packets from the other relay; -1 when none could be opened. */
    int openOverlayPort();

    void closeOverlayPort(int overlayPort);

    /** Sends a packet to a phone from the stream's RTP socket, or its RTCP socket when {@code rtcp}. */
    void sendToPhone(int rtpPort, boolean rtcp, InetSocketAddress to, ByteBuf packet);

    /** Sends a packet on the real-time flow from {@code overlayPort} to a port of another node; false when refused. */
    boolean sendToNode(int overlayPort, String node, int remotePort, ByteBuf packet);
}

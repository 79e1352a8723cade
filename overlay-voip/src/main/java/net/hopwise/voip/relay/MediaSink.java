package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;

/**
 * Where {@link RelayMedia} delivers the packets its sockets and overlay ports receive: the proxy, on
 * the node's loop. Buffers stay owned by the caller.
 */
interface MediaSink {
    /** A packet read from a phone's RTP socket (or its RTCP socket when {@code rtcpSocket}) at {@code now}. */
    void onPhoneMedia(int rtpPort, boolean rtcpSocket, ByteBuf packet, InetSocketAddress source, long now);

    /**
     * A packet from another relay's flow on a stream's overlay port, {@code recovered} when an overlay
     * link lost it and sent it again on the way.
     */
    void onNodeMedia(int overlayPort, ByteBuf packet, long flowSequence, long sendTimeNanos, boolean recovered,
            long now);
}

package net.hopwise.voip.relay;

import java.net.InetSocketAddress;

/**
 * One m= line of a call at one relay: the RTP/RTCP port pair facing the local phone, the overlay port
 * where the other relay's packets for it arrive, the phone's media address (as its SDP said, then as
 * latched from the first packets), the other relay's port, and what was seen each way. Mutated only
 * by {@link Calls} on the relay's loop.
 */
final class MediaStream {
    final Call call;
    final int index;
    final int rtpPort;
    final int overlayPort;
    InetSocketAddress sdpRtp;
    InetSocketAddress sdpRtcp;
    boolean phoneMux;
    InetSocketAddress latchedRtp;
    InetSocketAddress latchedRtcp;
    String remoteNode;
    int remotePort;
    boolean held;
    final ReceptionStats fromPhone;
    final ReceptionStats toPhone;
    long rtcpFromPhone;
    long rtcpToPhone;
    long sentToNode;
    long refusedByNode;
    long noTarget;
    long deliveredToPhone;
    RtcpReport phoneReport;
    /** Round trips from the phones' RTCP timing: to the local phone and back, to the far phone and back. */
    final RtcpRoundTrip accessRtt = new RtcpRoundTrip();
    final RtcpRoundTrip farRtt = new RtcpRoundTrip();

    MediaStream(Call call, int index, int rtpPort, int overlayPort, long deadlineNanos) {
        this.call = call;
        this.index = index;
        this.rtpPort = rtpPort;
        this.overlayPort = overlayPort;
        this.fromPhone = new ReceptionStats(16, Long.MAX_VALUE);
        this.toPhone = new ReceptionStats(32, deadlineNanos);
    }

    /** Where RTP for the phone goes: the latched source, else the SDP address. */
    InetSocketAddress rtpTarget() {
        return latchedRtp != null ? latchedRtp : sdpRtp;
    }

    /** Where RTCP for the phone goes: the latched RTCP source, else the RTP target when muxed, else the SDP's. */
    InetSocketAddress rtcpTarget() {
        if (latchedRtcp != null) {
            return latchedRtcp;
        }
        return phoneMux ? rtpTarget() : sdpRtcp;
    }

    StreamStatistics snapshot() {
        return new StreamStatistics(index, rtpPort, overlayPort, sdpRtp, latchedRtp, remoteNode, remotePort, held,
                StreamStatistics.Direction.of(fromPhone, rtcpFromPhone, 0),
                StreamStatistics.Direction.of(toPhone, rtcpToPhone, refusedByNode + noTarget),
                sentToNode, deliveredToPhone, phoneReport, accessRtt.lastMs(), farRtt.lastMs());
    }
}

package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import net.hopwise.voip.sdp.RtpMap;

/**
 * One m= line of a call at one relay: the RTP/RTCP port pair facing the local phone, the overlay port
 * where the other relay's packets for it arrive, the phone's media address (as its SDP said, then as
 * latched from the first packets), the other relay's port, the payload types both sides declared,
 * and what was seen each way. Mutated only by {@link Calls} on the relay's loop.
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
    final PayloadTypes payloadTypes = new PayloadTypes();
    /** The phone's RTP timestamps as media time, at each packet's clock rate, for its jitter. */
    private final RtpMediaClock fromPhoneClock = new RtpMediaClock();
    /** The SSRC of the phone's RTP the stream counts; -1 before one. */
    private long phoneSsrc = -1;
    /** A new SSRC on probation (its first packet, kept until the next in sequence), or -1. */
    private long candidateSsrc = -1;
    private int candidateSequence;
    private long candidateTimestamp;
    private int candidatePayloadType;
    private long candidateArrival;
    private int candidateLength;
    /** The voice format of the last RTP the phone was sent, or null before any: the codec it hears. */
    private RtpMap codecToPhone;
    /** The packet time the local phone's last SDP asked for (a=ptime), or null. */
    java.time.Duration localPtime;
    /** The packet time the far phone's last SDP asked for, or null. */
    java.time.Duration farPtime;

    MediaStream(Call call, int index, int rtpPort, int overlayPort, long deadlineNanos) {
        this.call = call;
        this.index = index;
        this.rtpPort = rtpPort;
        this.overlayPort = overlayPort;
        this.fromPhone = new ReceptionStats(16, Long.MAX_VALUE);
        this.toPhone = new ReceptionStats(32, deadlineNanos);
    }

    /**
     * Sets the deadline of the packets towards the phone from the SDPs seen so far. The far phone sends
     * what the local phone asked for (RFC 3264 section 5: a=ptime is what its author wants to receive);
     * without the local phone's word, the far phone's own packet time is the better guess, since phones
     * ask for what they send.
     */
    void applyDeadline(RelayConfig config) {
        toPhone.deadline(config.mediaDeadline(localPtime != null ? localPtime : farPtime).toNanos());
    }

    /**
     * Counts an RTP packet the phone sent (version 2, at least its 12-byte header): its sequence, and
     * its transit at its payload type's clock rate for the RFC 3550 jitter. A new SSRC is taken only
     * once two of its packets came in sequence (RFC 3550 appendix A.1's probation), so that a packet of
     * the source just replaced, arriving after its successor's first, does not start the count again.
     */
    void countFromPhone(ByteBuf rtp, long now) {
        int at = rtp.readerIndex();
        int payloadType = rtp.getUnsignedByte(at + 1) & 0x7f;
        int sequence = rtp.getUnsignedShort(at + 2);
        long timestamp = rtp.getUnsignedInt(at + 4);
        long ssrc = rtp.getUnsignedInt(at + 8);
        int length = rtp.readableBytes();
        if (phoneSsrc >= 0 && ssrc != phoneSsrc) {
            if (ssrc != candidateSsrc || sequence != ((candidateSequence + 1) & 0xffff)) {
                candidateSsrc = ssrc;
                candidateSequence = sequence;
                candidateTimestamp = timestamp;
                candidatePayloadType = payloadType;
                candidateArrival = now;
                candidateLength = length;
                return;
            }
            // A new source (a codec change, a transfer, a media server) numbers its packets afresh.
            fromPhone.newSource();
            phoneSsrc = ssrc;
            count(candidatePayloadType, candidateSequence, candidateTimestamp, candidateLength, candidateArrival);
            candidateSsrc = -1;
        }
        phoneSsrc = ssrc;
        count(payloadType, sequence, timestamp, length, now);
    }

    private void count(int payloadType, int sequence, long timestamp, int length, long now) {
        int clockRate = PayloadTypes.clockRate(payloadTypes.sentByPhone(payloadType));
        long transit = fromPhoneClock.transitNanos(phoneSsrc, timestamp, clockRate, now);
        fromPhone.record(sequence, transit, length);
    }

    /** Notes the codec of an RTP packet (version 2, at least its header) going to the phone. */
    void sendingToPhone(ByteBuf rtp) {
        RtpMap format = payloadTypes.sentToPhone(rtp.getUnsignedByte(rtp.readerIndex() + 1));
        if (format != null && format != codecToPhone && PayloadTypes.isVoice(format)) {
            codecToPhone = format;
        }
    }

    /** The clock rate of what the phone receives, which its RTCP reports' jitter counts in. */
    int clockRateToPhone() {
        return PayloadTypes.clockRate(codecToPhone);
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
                sentToNode, deliveredToPhone, phoneReport, accessRtt.lastMs(), farRtt.lastMs(),
                codecToPhone == null ? null : codecToPhone.toString(), toPhone.deadlineNanos() / 1e6);
    }
}

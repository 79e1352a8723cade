package net.hopwise.voip.relay;

import net.hopwise.voip.sdp.MediaDescription;
import net.hopwise.voip.sdp.RtpMap;

/**
 * What the payload type numbers of one stream stand for, as each side's SDP declared them. A phone's
 * description names the numbers it expects to receive and would prefer to send (RFC 3264 section
 * 5.1), so a packet from the phone is read by the far side's declarations first and a packet to it by
 * its own, each falling back on the other and then on RFC 3551's static table. Every description of
 * the call adds to what is known, the latest winning: a number may not be remapped within a session
 * (section 8.3.2), so a re-INVITE or UPDATE that changes the codec only brings new numbers, and late
 * packets of the old codec still read right. Mutated on the relay's loop only.
 */
final class PayloadTypes {
    /**
     * The clock of a payload type nobody declared: the 8 kHz of the narrowband telephone codecs
     * (G.711, G.729, and G.722 by RFC 3551's convention), which most calls carry.
     */
    static final int DEFAULT_CLOCK_RATE = 8000;

    private final RtpMap[] byPhone = new RtpMap[128];
    private final RtpMap[] byFar = new RtpMap[128];

    /** Learns the rtpmaps of a description the local phone sent. */
    void declaredByPhone(MediaDescription m) {
        for (RtpMap r : m.rtpMaps()) {
            byPhone[r.payloadType()] = r;
        }
    }

    /** Learns the rtpmaps of a description that came from the far side for the local phone. */
    void declaredByFar(MediaDescription m) {
        for (RtpMap r : m.rtpMaps()) {
            byFar[r.payloadType()] = r;
        }
    }

    /** What a packet the phone sent with {@code payloadType} carries; null when nobody declared it. */
    RtpMap sentByPhone(int payloadType) {
        RtpMap r = byFar[payloadType & 0x7f];
        r = r != null ? r : byPhone[payloadType & 0x7f];
        return r != null ? r : RtpMap.ofStatic(payloadType & 0x7f);
    }

    /** What a packet for the phone with {@code payloadType} carries; null when nobody declared it. */
    RtpMap sentToPhone(int payloadType) {
        RtpMap r = byPhone[payloadType & 0x7f];
        r = r != null ? r : byFar[payloadType & 0x7f];
        return r != null ? r : RtpMap.ofStatic(payloadType & 0x7f);
    }

    /** The clock rate of {@code format}, or {@link #DEFAULT_CLOCK_RATE} when it is unknown (null). */
    static int clockRate(RtpMap format) {
        return format != null ? format.clockRate() : DEFAULT_CLOCK_RATE;
    }

    /**
     * Whether {@code format} is the voice itself rather than a companion of it: telephone events (RFC
     * 4733) and comfort noise (RFC 3389) travel beside the codec and say nothing of its quality.
     */
    static boolean isVoice(RtpMap format) {
        String e = format.encoding();
        return !e.equalsIgnoreCase("telephone-event") && !e.equalsIgnoreCase("CN");
    }
}

package net.hopwise.voip.relay;

import java.net.InetSocketAddress;

/**
 * One media stream of a call as the relay saw it, at one instant.
 *
 * @param index the m= line
 * @param rtpPort the relay's RTP port facing the phone (RTCP is one above)
 * @param overlayPort the relay's overlay port for this stream
 * @param advertised the phone's RTP address from its SDP, or null
 * @param latched the address the phone's RTP really came from, or null before its first packet
 * @param remoteNode the relay at the other end, or null before it answered
 * @param remotePort that relay's overlay port for this stream
 * @param held whether the phone's last SDP put this stream on hold
 * @param fromPhone RTP the local phone sent (sequence and jitter from its RTP headers)
 * @param toPhone packets that came over the overlay for the phone (sequence from the overlay flow)
 * @param sentToNode packets handed to the overlay flow
 * @param deliveredToPhone packets sent to the phone (duplicates and late ones dropped)
 * @param phoneReport the local phone's last RTCP report on the media it receives, or null before one
 * @param accessRttMs round trip from this relay to the local phone and back, from the phones' RTCP
 *     timing (a sender report passed to the phone, the phone's report quoting it), or -1 before one
 * @param farRttMs round trip from this relay to the far phone and back (across the overlay), from
 *     the local phone's sender reports and the far phone's answers, or -1 before one
 * @param codec the codec of the last voice packet sent to the phone as {@code encoding/clock rate}
 *     ("PCMU/8000", "opus/48000"), from the call's SDP or RFC 3551's static types; null before one or
 *     when its payload type was never declared
 * @param deadlineMs how far a packet for the phone may trail the stream's best transit before the
 *     egress drops it as late: {@code mediaDeadlinePackets} of the phones' a=ptime, else the relay's
 *     {@code mediaDeadline}
 */
public record StreamStatistics(int index, int rtpPort, int overlayPort, InetSocketAddress advertised,
        InetSocketAddress latched, String remoteNode, int remotePort, boolean held, Direction fromPhone,
        Direction toPhone, long sentToNode, long deliveredToPhone, RtcpReport phoneReport, double accessRttMs,
        double farRttMs, String codec, double deadlineMs) {

    /** A stream whose codec is not known (its E-model figures are G.711's), with the default deadline. */
    public StreamStatistics(int index, int rtpPort, int overlayPort, InetSocketAddress advertised,
            InetSocketAddress latched, String remoteNode, int remotePort, boolean held, Direction fromPhone,
            Direction toPhone, long sentToNode, long deliveredToPhone, RtcpReport phoneReport, double accessRttMs,
            double farRttMs) {
        this(index, rtpPort, overlayPort, advertised, latched, remoteNode, remotePort, held, fromPhone, toPhone,
                sentToNode, deliveredToPhone, phoneReport, accessRttMs, farRttMs, null,
                RelayConfig.DEFAULT_MEDIA_DEADLINE.toNanos() / 1e6);
    }

    /**
     * The round trip the local phone itself computes from the far phone's reports (RFC 3550 section
     * 6.4.1): the access leg and the far part together; -1 until both were seen.
     */
    public double phoneRttMs() {
        return accessRttMs < 0 || farRttMs < 0 ? -1 : accessRttMs + farRttMs;
    }

    /**
     * One direction's reception counters.
     *
     * @param dropped packets the relay could not pass on (no route, no address to send to yet)
     * @param jitterMs RFC 3550 interarrival jitter in milliseconds: for {@code fromPhone} from the RTP
     *     timestamps, each at its payload type's clock rate; for {@code toPhone} from the overlay's send times
     * @param meanTransitMs mean transit: for {@code toPhone} the one-way delay from the far relay's node
     *     (the overlay reads send times onto this node's clock); for {@code fromPhone} arrival minus the RTP
     *     media time, counted from the first packet's, whose changes alone mean something (the jitter)
     * @param recovered of the packets received, those an overlay link recovered on the way (lost once and
     *     sent again); for {@code fromPhone}, whose leg has no recovery, 0. {@code lost} counts what no
     *     recovery brought back, so {@code lost + recovered} is what the overlay lost before recovery
     */
    public record Direction(long received, long expected, long lost, long late, long duplicates, long rtcp,
            long dropped, double jitterMs, double meanTransitMs, long recovered) {

        /** A direction in which nothing was recovered. */
        public Direction(long received, long expected, long lost, long late, long duplicates, long rtcp, long dropped,
                double jitterMs, double meanTransitMs) {
            this(received, expected, lost, late, duplicates, rtcp, dropped, jitterMs, meanTransitMs, 0);
        }

        static Direction of(ReceptionStats s, long rtcp, long dropped) {
            return new Direction(s.received(), s.expected(), s.lost(), s.late(), s.duplicates(), rtcp, dropped,
                    s.jitterNanos() / 1e6, s.meanTransitNanos() / 1e6, s.recovered());
        }

        /** Lost or late over expected, in percent. */
        public double missedPercent() {
            return expected == 0 ? 0 : 100.0 * (lost + late) / expected;
        }
    }

    /**
     * The E-model R of what reached the phone: the codec's impairment ({@link EModel#codec}: G.711 with
     * concealment unless the stream carries G.729), the misses the relay saw, and a mouth-to-ear delay
     * of the mean transit plus two jitters (a jitter buffer) plus {@code accessDelayMs} (packetisation
     * and the access legs, which the relay does not see).
     */
    public double rating(double accessDelayMs) {
        double delay = Math.max(0, toPhone.meanTransitMs()) + 2 * toPhone.jitterMs() + accessDelayMs;
        return EModel.rating(EModel.codec(codec), delay, toPhone.missedPercent(), 1);
    }

    public double mos(double accessDelayMs) {
        return EModel.mos(rating(accessDelayMs));
    }

    /**
     * The E-model MOS from the phone's own RTCP report (its loss and jitter, access leg included) with
     * the relay's transit plus {@code accessDelayMs} as delay; 0 when the phone sent no report.
     */
    public double phoneMos(double accessDelayMs) {
        return phoneReport == null ? 0 : EModel.mos(phoneRating(accessDelayMs));
    }

    /** The E-model R behind {@link #phoneMos}; 0 when the phone sent no report. */
    public double phoneRating(double accessDelayMs) {
        return phoneReport == null ? 0
                : phoneReport.rating(EModel.codec(codec), Math.max(0, toPhone.meanTransitMs()) + accessDelayMs);
    }
}

package net.hopwise.voip.relay;

import static net.hopwise.voip.relay.MidCallOfferTest.rtp;
import static net.hopwise.voip.relay.MidCallOfferTest.sdp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/**
 * RTP timestamps read at their payload type's clock rate (the SDP's rtpmap, else RFC 3551's static
 * table, else 8 kHz): the relay's RFC 3550 jitter, the phones' reported jitter, and the E-model's codec.
 */
class RtpClockRateTest {
    private static final InetSocketAddress PHONE_A_RTP = new InetSocketAddress("127.0.0.1", 41000);
    private static final String OPUS = "a=rtpmap:111 opus/48000/2\r\n";

    private final RelayPair pair = new RelayPair();

    private void call(String offer, String answer) {
        pair.fromPhoneA(SipText.invite("k1", "z9hG4bK-k1", offer));
        pair.atA();
        String invite = pair.atB();
        pair.fromPhoneB(SipText.response(invite, 200, "tagB", answer));
        pair.atA();
    }

    private void fromPhoneA(ByteBuf packet, long at) {
        try {
            pair.a.onPhoneMedia(30000, packet.getUnsignedByte(1) == 201, packet, PHONE_A_RTP, at);
        } finally {
            packet.release();
        }
    }

    private void fromPhoneB(ByteBuf packet) {
        try {
            pair.b.onPhoneMedia(30500, false, packet, new InetSocketAddress("127.0.0.1", 40000), pair.now);
        } finally {
            packet.release();
        }
    }

    private StreamStatistics atA() {
        return pair.a.calls(pair.now).get(0).streams().get(0);
    }

    @Test
    void opusAtFortyEightKilohertzWithFourMillisecondsOfArrivalJitterReadsFourMilliseconds() {
        call(sdp("1", 1, 41000, "111", OPUS), sdp("2", 1, 40000, "111", OPUS));
        // 20 ms of audio per packet (960 ticks at 48 kHz); every other packet arrives 4 ms late.
        int packets = 200;
        long start = pair.now;
        double jitterTicks = 0;
        long previousTransit = 0;
        for (int i = 0; i < packets; i++) {
            long timestamp = 123_456 + 960L * i;
            long arrival = start + i * 20_000_000L + (i % 2 == 1 ? 4_000_000L : 0);
            fromPhoneA(rtp(111, i, timestamp, 0x1234), arrival);
            // RFC 3550 appendix A.8 in timestamp units: the arrival read on the 48 kHz clock.
            long transit = (arrival - start) * 48_000 / 1_000_000_000L - timestamp;
            if (i > 0) {
                jitterTicks += (Math.abs(transit - previousTransit) - jitterTicks) / 16;
            }
            previousTransit = transit;
        }
        double expectedMs = jitterTicks / 48;
        assertThat(expectedMs).isCloseTo(4.0, within(1e-3));
        assertThat(atA().fromPhone().jitterMs()).isCloseTo(expectedMs, within(1e-6));
    }

    @Test
    void aDynamicTypeWithoutAnRtpmapCountsAtEightKilohertz() {
        call(sdp("1", 1, 41000, "97", ""), sdp("2", 1, 40000, "97", ""));
        for (int i = 0; i < 20; i++) {
            fromPhoneA(rtp(97, i, 160L * i, 0x1234), pair.now + i * 20_000_000L);
        }
        assertThat(atA().fromPhone().jitterMs()).isZero();
        assertThat(atA().fromPhone().received()).isEqualTo(20);
    }

    /** A phone that changes its SSRC (a codec switch, a transfer) numbers its packets afresh: no loss read. */
    @Test
    void aNewSsrcFromThePhoneIsNoGapInItsSequence() {
        call(sdp("1", 1, 41000, "0", ""), sdp("2", 1, 40000, "0", ""));
        for (int i = 0; i < 20; i++) {
            fromPhoneA(rtp(0, 500 + i, 160L * i, 0x1234), pair.now + i * 20_000_000L);
        }
        for (int i = 0; i < 20; i++) {
            fromPhoneA(rtp(0, 30_000 + i, 7_000 + 160L * i, 0x9999), pair.now + (20 + i) * 20_000_000L);
        }
        assertThat(atA().fromPhone().received()).isEqualTo(40);
        assertThat(atA().fromPhone().expected()).isEqualTo(40);
        assertThat(atA().fromPhone().lost()).isZero();
        assertThat(atA().fromPhone().jitterMs()).isZero();
    }

    /**
     * A copy of the replaced source's last packet arriving after its successor's first (duplicated and
     * held up on the way) is that source's duplicate, not a new source whose first packet it would be;
     * a new source is taken once two of its packets came in sequence, the first of them counted too.
     */
    @Test
    void aStragglerOfTheOldSsrcAfterTheSwitchIsNoNewSource() {
        call(sdp("1", 1, 41000, "0", ""), sdp("2", 1, 40000, "0", ""));
        for (int i = 0; i < 20; i++) {
            fromPhoneA(rtp(0, 500 + i, 160L * i, 0x1234), pair.now + i * 20_000_000L);
        }
        fromPhoneA(rtp(0, 30_000, 7_000, 0x9999), pair.now + 20 * 20_000_000L);
        fromPhoneA(rtp(0, 519, 160L * 19, 0x1234), pair.now + 20 * 20_000_000L + 1_000_000L);
        for (int i = 1; i < 20; i++) {
            fromPhoneA(rtp(0, 30_000 + i, 7_000 + 160L * i, 0x9999), pair.now + (20 + i) * 20_000_000L);
        }
        assertThat(atA().fromPhone().received()).isEqualTo(40);
        assertThat(atA().fromPhone().expected()).isEqualTo(40);
        assertThat(atA().fromPhone().duplicates()).isEqualTo(1);
        assertThat(atA().fromPhone().lost()).isZero();
    }

    @Test
    void aLoneStrayPacketOfAnotherSsrcIsNotCounted() {
        call(sdp("1", 1, 41000, "0", ""), sdp("2", 1, 40000, "0", ""));
        for (int i = 0; i < 20; i++) {
            fromPhoneA(rtp(0, 500 + i, 160L * i, 0x1234), pair.now + i * 20_000_000L);
            if (i == 10) {
                fromPhoneA(rtp(0, 7, 99_000, 0x4444), pair.now + i * 20_000_000L + 5_000_000L);
            }
        }
        assertThat(atA().fromPhone().received()).isEqualTo(20);
        assertThat(atA().fromPhone().expected()).isEqualTo(20);
        assertThat(atA().fromPhone().jitterMs()).isZero();
    }

    @Test
    void theFarSidesRtpmapReadsWhatThePhoneSendsWhenItsOwnOfferNamedNoClock() {
        // Phone A offers type 96 without an rtpmap (as loose phones do); phone B's answer maps it.
        call(sdp("1", 1, 41000, "96", ""), sdp("2", 1, 40000, "96", "a=rtpmap:96 opus/48000/2\r\n"));
        for (int i = 0; i < 20; i++) {
            fromPhoneA(rtp(96, i, 960L * i, 0x1234), pair.now + i * 20_000_000L);
        }
        assertThat(atA().fromPhone().jitterMs()).isZero();
    }

    @Test
    void thePhonesReportedJitterIsReadAtTheClockOfTheCodecItReceives() {
        call(sdp("1", 1, 41000, "111", OPUS), sdp("2", 1, 40000, "111", OPUS));
        // Before any RTP reached phone A the relay knows no codec there: 8 kHz, 192 units are 24 ms.
        fromPhoneA(RtcpReportTest.receiverReport(0, 0, 192), pair.now);
        assertThat(atA().phoneReport().jitterMs()).isEqualTo(24.0);
        fromPhoneB(rtp(111, 1, 960, 0x5678));
        assertThat(atA().codec()).isEqualTo("opus/48000");
        fromPhoneA(RtcpReportTest.receiverReport(0, 0, 192), pair.now);
        assertThat(atA().phoneReport().jitterMs()).isEqualTo(4.0);
    }

    @Test
    void aG729CallIsRatedWithG729sImpairmentAndTelephoneEventsDoNotChangeTheCodec() {
        String events = "a=rtpmap:101 telephone-event/8000\r\n";
        call(sdp("1", 1, 41000, "18 101", events), sdp("2", 1, 40000, "18 101", events));
        fromPhoneB(rtp(18, 1, 160, 0x5678));
        fromPhoneB(rtp(101, 2, 320, 0x5678));
        StreamStatistics s = atA();
        assertThat(s.codec()).isEqualTo("G729/8000");
        // 10 ms over the fake overlay, no jitter, no loss, 20 ms of access: only Ie differs from G.711.
        assertThat(s.rating(20)).isCloseTo(EModel.rating(EModel.G729A_VAD, 30, 0, 1), within(1e-9));
        assertThat(s.rating(20)).isCloseTo(EModel.rating(EModel.G711_PLC, 30, 0, 1) - 11, within(1e-9));
    }

    @Test
    void theEModelKnowsG711AndG729AndRatesEveryOtherCodecAsG711() {
        assertThat(EModel.codec("PCMU/8000")).isEqualTo(EModel.G711_PLC);
        assertThat(EModel.codec("pcma")).isEqualTo(EModel.G711_PLC);
        assertThat(EModel.codec("G729/8000")).isEqualTo(EModel.G729A_VAD);
        assertThat(EModel.G729A_VAD).isEqualTo(new EModel.Codec(11, 19));
        assertThat(EModel.codec("opus/48000")).isEqualTo(EModel.G711_PLC);
        assertThat(EModel.codec("G722/8000")).isEqualTo(EModel.G711_PLC);
        assertThat(EModel.codec(null)).isEqualTo(EModel.G711_PLC);
    }

    @Test
    void theMediaClockCrossesTheTimestampWrapAndDaysOfMediaExactly() {
        RtpMediaClock clock = new RtpMediaClock();
        long t = 5_000_000_000L;
        long ts = 0xFFFF_FC40L;
        assertThat(clock.transitNanos(7, ts, 48_000, t)).isZero();
        for (int i = 0; i < 10; i++) {
            t += 20_000_000L;
            ts = (ts + 960) & 0xFFFF_FFFFL;
            assertThat(clock.transitNanos(7, ts, 48_000, t)).isZero();
        }
        // Six-hour steps (over a billion ticks each, wrapping every four or five) for a day and more.
        for (int i = 0; i < 5; i++) {
            t += 6 * 3600 * 1_000_000_000L;
            ts = (ts + 6 * 3600 * 48_000L) & 0xFFFF_FFFFL;
            assertThat(clock.transitNanos(7, ts, 48_000, t)).isZero();
        }
        // A packet 3 ms late, then one on time; a step that goes back (reordering) reads right too.
        assertThat(clock.transitNanos(7, (ts + 960) & 0xFFFF_FFFFL, 48_000, t + 23_000_000L)).isEqualTo(3_000_000L);
        assertThat(clock.transitNanos(7, ts, 48_000, t + 1_000_000L)).isEqualTo(1_000_000L);
    }

    @Test
    void aNewSsrcOrClockRateStartsATimelineAtTheLastTransit() {
        RtpMediaClock clock = new RtpMediaClock();
        assertThat(clock.transitNanos(7, 1000, 8000, 0)).isZero();
        assertThat(clock.transitNanos(7, 1160, 8000, 25_000_000L)).isEqualTo(5_000_000L);
        // Another codec on the same SSRC, its timestamps from anywhere: no jump, the last transit again.
        assertThat(clock.transitNanos(7, 3_000_000_000L, 48_000, 45_000_000L)).isEqualTo(5_000_000L);
        assertThat(clock.transitNanos(7, 3_000_000_960L, 48_000, 65_000_000L)).isEqualTo(5_000_000L);
        // Another SSRC (a transfer, a media server): the same.
        assertThat(clock.transitNanos(9, 42, 48_000, 86_000_000L)).isEqualTo(5_000_000L);
        assertThat(clock.transitNanos(9, 42 + 960, 48_000, 106_000_000L)).isEqualTo(5_000_000L);
    }
}

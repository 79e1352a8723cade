package net.hopwise.voip.relay;

import static net.hopwise.voip.relay.SipText.body;
import static net.hopwise.voip.relay.SipText.response;
import static net.hopwise.voip.relay.SipText.startLine;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Media through two relays on virtual time: latching, RTCP, de-duplication, drop-late, hold and timeouts. */
class MediaRelayTest {
    private static final InetSocketAddress CALLER_RTP = new InetSocketAddress("127.0.0.1", 41000);
    private final RelayPair pair = new RelayPair();

    /** A confirmed call; returns the INVITE phone B received. */
    private String call(String callId) {
        pair.fromPhoneA(SipText.invite(callId, "z9hG4bK-" + callId, SipText.SDP_A));
        pair.atA();
        String invite = pair.atB();
        pair.fromPhoneB(response(invite, 200, "tagB", SipText.SDP_B));
        pair.atA();
        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-ack" + callId, "tagA", "tagB",
                callId, 1, "", null));
        pair.atB();
        return invite;
    }

    private static ByteBuf rtp(int seq, long timestamp) {
        ByteBuf b = RelayPair.ALLOC.buffer();
        b.writeByte(0x80).writeByte(0).writeShort(seq).writeInt((int) timestamp).writeInt(0x1234);
        b.writeZero(160);
        return b;
    }

    private void phoneASends(int seq, InetSocketAddress from) {
        ByteBuf p = rtp(seq, seq * 160L);
        try {
            pair.a.onPhoneMedia(30000, false, p, from, pair.now);
        } finally {
            p.release();
        }
    }

    @Test
    void rtpFromTheCallerReachesTheCalleeByteForByteFromTheRelaysPort() {
        call("m1");
        phoneASends(7, CALLER_RTP);
        assertThat(pair.mediaB.toPhone).singleElement().satisfies(sent -> {
            assertThat(sent[0]).isEqualTo(30500);
            assertThat(sent[1]).isEqualTo(false);
            assertThat(sent[2]).isEqualTo(new InetSocketAddress("127.0.0.1", 40000));
            byte[] bytes = (byte[]) sent[3];
            assertThat(bytes).hasSize(172);
            assertThat(((bytes[2] & 0xFF) << 8) | (bytes[3] & 0xFF)).isEqualTo(7);
        });
        StreamStatistics atA = pair.a.calls(pair.now).get(0).streams().get(0);
        assertThat(atA.latched()).isEqualTo(CALLER_RTP);
        assertThat(atA.sentToNode()).isEqualTo(1);
    }

    @Test
    void theCalleeIsLatchedWhereItsRtpReallyComesFrom() {
        call("m2");
        InetSocketAddress natted = new InetSocketAddress("127.0.0.1", 45678);
        ByteBuf p = rtp(1, 160);
        try {
            pair.b.onPhoneMedia(30500, false, p, natted, pair.now);
        } finally {
            p.release();
        }
        phoneASends(1, CALLER_RTP);
        assertThat(pair.mediaB.toPhone).singleElement().satisfies(sent -> assertThat(sent[2]).isEqualTo(natted));
        assertThat(pair.mediaA.toPhone).singleElement().satisfies(sent -> assertThat(sent[2]).isEqualTo(CALLER_RTP));
    }

    @Test
    void rtcpTravelsTheSameFlowAndLeavesFromTheRtcpPortToTheRtcpAddress() {
        call("m3");
        ByteBuf rr = RelayPair.ALLOC.buffer().writeByte(0x80).writeByte(201).writeShort(1).writeInt(0x1234);
        try {
            pair.a.onPhoneMedia(30000, true, rr, new InetSocketAddress("127.0.0.1", 41001), pair.now);
        } finally {
            rr.release();
        }
        assertThat(pair.mediaB.toPhone).singleElement().satisfies(sent -> {
            assertThat(sent[1]).isEqualTo(true);
            assertThat(sent[2]).isEqualTo(new InetSocketAddress("127.0.0.1", 40001));
        });
        assertThat(pair.b.calls(pair.now).get(0).streams().get(0).toPhone().rtcp()).isEqualTo(1);
    }

    private static ByteBuf senderReport(long ntpMsw, long ntpLsw) {
        return RelayPair.ALLOC.buffer().writeByte(0x80).writeByte(200).writeShort(6).writeInt(0x1234)
                .writeInt((int) ntpMsw).writeInt((int) ntpLsw).writeInt(0).writeInt(0).writeInt(0);
    }

    private static ByteBuf receiverReport(long lsr, long dlsr) {
        return RelayPair.ALLOC.buffer().writeByte(0x81).writeByte(201).writeShort(7).writeInt(0x5678)
                .writeInt(0x1234).writeInt(0).writeInt(100).writeInt(0).writeInt((int) lsr).writeInt((int) dlsr);
    }

    private void rtcpFrom(SipProxy relay, int port, ByteBuf packet) {
        try {
            relay.onPhoneMedia(port, true, packet, new InetSocketAddress("127.0.0.1", port == 30000 ? 41001 : 40001),
                    pair.now);
        } finally {
            packet.release();
        }
    }

    @Test
    void roundTripsComeFromThePhonesSenderReportsAndTheAnswersQuotingThem() {
        call("rtt");
        // Phone A's sender report (NTP 0x0001_2345.0x6789_0000: LSR 0x2345_6789) crosses both relays;
        // 30 ms later phone B answers, having held it 10 ms (DLSR 655 / 65536 s).
        rtcpFrom(pair.a, 30000, senderReport(0x00012345L, 0x67890000L));
        pair.now += 30_000_000L;
        rtcpFrom(pair.b, 30500, receiverReport(0x23456789L, 655));
        // Then phone B's report, answered by phone A 4 ms later without holding it.
        rtcpFrom(pair.b, 30500, senderReport(0x0002AAAAL, 0xBBBB0000L));
        pair.now += 4_000_000L;
        rtcpFrom(pair.a, 30000, receiverReport(0xAAAABBBBL, 0));

        double held = 655 * 1000.0 / 65536;
        StreamStatistics atA = pair.a.calls(pair.now).get(0).streams().get(0);
        StreamStatistics atB = pair.b.calls(pair.now).get(0).streams().get(0);
        assertThat(atA.accessRttMs()).isCloseTo(4, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(atA.farRttMs()).isCloseTo(30 - held, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(atA.phoneRttMs()).isCloseTo(34 - held, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(atB.accessRttMs()).isCloseTo(30 - held, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(atB.farRttMs()).isCloseTo(4, org.assertj.core.data.Offset.offset(1e-6));
        // A report quoting nothing the relay passed, and one before any sender report, give no round trip.
        call("rtt-none");
        int port = stream("rtt-none").rtpPort();
        ByteBuf unknown = receiverReport(0x11112222L, 0);
        try {
            pair.a.onPhoneMedia(port, true, unknown, new InetSocketAddress("127.0.0.1", 41003), pair.now);
        } finally {
            unknown.release();
        }
        assertThat(stream("rtt-none").accessRttMs()).isEqualTo(-1);
        assertThat(stream("rtt-none").phoneRttMs()).isEqualTo(-1);
        assertThat(stream("rtt-none").fromPhone().rtcp()).isEqualTo(1);
    }

    private StreamStatistics stream(String callId) {
        return pair.a.calls(pair.now).stream().filter(c -> c.callId().equals(callId)).findFirst().orElseThrow()
                .streams().get(0);
    }

    @Test
    void theEgressDropsDuplicatesAndPacketsPastTheDeadline() {
        call("m4");
        int overlayPort = pair.b.calls(pair.now).get(0).streams().get(0).overlayPort();
        long t = pair.now;
        deliverAtB(overlayPort, 0, t - 10_000_000L, t);
        deliverAtB(overlayPort, 1, t - 10_000_000L, t + 20_000_000L);
        deliverAtB(overlayPort, 1, t - 10_000_000L, t + 21_000_000L);
        // 150 ms behind the best transit: past the 100 ms deadline.
        deliverAtB(overlayPort, 2, t + 40_000_000L - 10_000_000L, t + 40_000_000L + 150_000_000L);
        deliverAtB(overlayPort, 4, t + 80_000_000L - 10_000_000L, t + 80_000_000L);
        assertThat(pair.mediaB.toPhone).hasSize(3);
        StreamStatistics.Direction in = pair.b.calls(pair.now).get(0).streams().get(0).toPhone();
        assertThat(in.duplicates()).isEqualTo(1);
        assertThat(in.late()).isEqualTo(1);
        assertThat(in.lost()).isEqualTo(1);
        assertThat(in.expected()).isEqualTo(5);
        assertThat(in.missedPercent()).isEqualTo(40.0);
    }

    private void deliverAtB(int overlayPort, long seq, long sent, long at) {
        deliverAtB(pair, overlayPort, seq, sent, false, at);
    }

    private static void deliverAtB(RelayPair pair, int overlayPort, long seq, long sent, boolean recovered, long at) {
        ByteBuf p = rtp((int) seq, seq * 160);
        try {
            pair.b.onNodeMedia(overlayPort, p, seq, sent, recovered, at);
        } finally {
            p.release();
        }
    }

    /** A call in which phone A asks for 10 ms packets and phone B for 40 ms. */
    private static void callWithPacketTimes(RelayPair pair, String callId) {
        pair.fromPhoneA(SipText.invite(callId, "z9hG4bK-" + callId, SipText.sdp("127.0.0.1", 41000, "53655765", 1,
                "a=ptime:10\r\n")));
        pair.atA();
        String invite = pair.atB();
        pair.fromPhoneB(response(invite, 200, "tagB", SipText.sdp("127.0.0.1", 40000, "98765", 1, "a=ptime:40\r\n")));
        pair.atA();
        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-ack" + callId, "tagA", "tagB",
                callId, 1, "", null));
        pair.atB();
    }

    @Test
    void eachStreamsDeadlineIsFivePacketsOfThePacketTimeItsPhoneAskedFor() {
        callWithPacketTimes(pair, "d1");
        StreamStatistics atB = pair.b.calls(pair.now).get(0).streams().get(0);
        assertThat(atB.deadlineMs()).isEqualTo(200.0);
        assertThat(pair.a.calls(pair.now).get(0).streams().get(0).deadlineMs()).isEqualTo(50.0);

        // 150 ms behind the best transit: within phone B's 200 ms, past the relay's 100 ms default.
        long t = pair.now;
        deliverAtB(atB.overlayPort(), 0, t - 10_000_000L, t);
        deliverAtB(atB.overlayPort(), 1, t + 20_000_000L - 10_000_000L, t + 20_000_000L + 150_000_000L);
        deliverAtB(atB.overlayPort(), 2, t + 40_000_000L - 10_000_000L, t + 40_000_000L + 210_000_000L);
        StreamStatistics.Direction in = pair.b.calls(pair.now).get(0).streams().get(0).toPhone();
        assertThat(in.late()).isEqualTo(1);
        assertThat(pair.mediaB.toPhone).hasSize(2);

        // A re-offer without a=ptime: phone A's stream falls back to what phone B asks for, which it sends.
        pair.fromPhoneA(SipText.request("INVITE", "sip:bob@127.0.0.1:5070", "z9hG4bK-d1re", "tagA", "tagB", "d1", 2,
                "", SipText.sdp("127.0.0.1", 41000, "53655765", 2, "")));
        pair.atA();
        String reInvite = pair.atB();
        pair.fromPhoneB(response(reInvite, 200, null, SipText.sdp("127.0.0.1", 40000, "98765", 2, "a=ptime:40\r\n")));
        pair.atA();
        assertThat(pair.a.calls(pair.now).get(0).streams().get(0).deadlineMs()).isEqualTo(200.0);
    }

    @Test
    void withoutDeadlinePacketsEveryStreamTakesTheRelaysDeadline() {
        RelayPair fixed = new RelayPair(c -> c.mediaDeadlinePackets(0), c -> c.mediaDeadlinePackets(0)
                .mediaDeadline(Duration.ofMillis(80)));
        callWithPacketTimes(fixed, "d2");
        assertThat(fixed.a.calls(fixed.now).get(0).streams().get(0).deadlineMs()).isEqualTo(100.0);
        assertThat(fixed.b.calls(fixed.now).get(0).streams().get(0).deadlineMs()).isEqualTo(80.0);
    }

    @Test
    void aStreamWithoutPacketTimesTakesTheRelaysDeadline() {
        call("d3");
        assertThat(pair.b.calls(pair.now).get(0).streams().get(0).deadlineMs()).isEqualTo(100.0);
    }

    @Test
    void packetsTheOverlayRecoveredAreCountedOnceEvenWhenTheyCameTwice() {
        call("r1");
        int overlayPort = pair.b.calls(pair.now).get(0).streams().get(0).overlayPort();
        long t = pair.now;
        deliverAtB(pair, overlayPort, 0, t - 10_000_000L, false, t);
        deliverAtB(pair, overlayPort, 2, t - 10_000_000L, false, t + 40_000_000L);
        deliverAtB(pair, overlayPort, 1, t - 10_000_000L, true, t + 45_000_000L);
        deliverAtB(pair, overlayPort, 1, t - 10_000_000L, true, t + 46_000_000L);
        deliverAtB(pair, overlayPort, 4, t - 10_000_000L, false, t + 80_000_000L);
        StreamStatistics stream = pair.b.calls(pair.now).get(0).streams().get(0);
        assertThat(stream.toPhone().recovered()).isEqualTo(1);
        assertThat(stream.toPhone().duplicates()).isEqualTo(1);
        assertThat(stream.toPhone().lost()).isEqualTo(1);
        assertThat(stream.fromPhone().recovered()).isZero();
        assertThat(pair.mediaB.toPhone).hasSize(4);
    }

    @Test
    void aHoldReInviteKeepsThePortsMovesTheVersionAndTakesTheLongTimeout() {
        String invite = call("m5");
        String hold = SipText.sdp("127.0.0.1", 41000, "53655765", 2, "a=sendonly\r\n");
        pair.fromPhoneA(SipText.request("INVITE", "sip:bob@127.0.0.1:5070", "z9hG4bK-hold", "tagA", "tagB", "m5", 3,
                "", hold));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 100 Trying");
        String reInvite = pair.atB();
        assertThat(body(reInvite)).contains("m=audio 30500 ").contains("a=sendonly")
                .contains("o=user1 53655765 2 IN IP4 127.0.0.20");
        assertThat(body(invite)).contains("o=user1 53655765 1 IN IP4 127.0.0.20");
        pair.fromPhoneB(response(reInvite, 200, null, SipText.sdp("127.0.0.1", 40000, "98765", 2, "a=recvonly\r\n")));
        assertThat(body(pair.atA())).contains("m=audio 30000 ").contains("a=recvonly");
        assertThat(pair.a.state().mediaPortPairs()).isEqualTo(1);

        pair.advance(Duration.ofSeconds(61));
        assertThat(pair.a.state().calls()).isEqualTo(1);
        pair.advance(Duration.ofSeconds(3600));
        assertThat(pair.a.state().calls()).isZero();
        assertThat(pair.a.counters()).containsEntry("mediaTimeouts", 1L);
    }

    @Test
    void aCallWithoutMediaTimesOutAfterSixtySecondsAndReportsWhy() {
        call("m6");
        java.util.List<CallStatistics> ended = new java.util.ArrayList<>();
        pair.a.onCallEnded(ended::add);
        pair.advance(Duration.ofSeconds(59));
        phoneASends(1, CALLER_RTP);
        pair.advance(Duration.ofSeconds(59));
        assertThat(pair.a.state().calls()).isEqualTo(1);
        pair.advance(Duration.ofSeconds(2));
        assertThat(ended).singleElement().satisfies(c -> assertThat(c.endReason()).isEqualTo("media timeout"));
        assertThat(pair.mediaA.bound).isEmpty();
        assertThat(pair.mediaA.overlayPorts).isEmpty();
    }

    @Test
    void aLateOfferIsRewrittenInThe200AndTheAnswerInTheAck() {
        pair.fromPhoneA(SipText.invite("m7", "z9hG4bK-m7", null));
        pair.atA();
        String invite = pair.atB();
        assertThat(body(invite)).isEmpty();
        pair.fromPhoneB(response(invite, 200, "tagB", SipText.SDP_B));
        assertThat(body(pair.atA())).contains("c=IN IP4 127.0.0.10").contains("m=audio 30000 ");
        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-m7ack", "tagA", "tagB", "m7", 1, "",
                SipText.SDP_A));
        assertThat(body(pair.atB())).contains("c=IN IP4 127.0.0.20").contains("m=audio 30500 ")
                .doesNotContain("41000");
        phoneASends(3, CALLER_RTP);
        assertThat(pair.mediaB.toPhone).singleElement()
                .satisfies(sent -> assertThat(sent[2]).isEqualTo(new InetSocketAddress("127.0.0.1", 40000)));
    }

    @Test
    void whenMediaPortsRunOutTheInviteIsRefused503AndThePoolStaysWhole() {
        RelayPair small = new RelayPair(c -> c.mediaPorts(30000, 30001), c -> { });
        small.fromPhoneA(SipText.invite("p1", "z9hG4bK-p1", SipText.SDP_A));
        small.atA();
        small.atB();
        small.fromPhoneA(SipText.request("INVITE", "sip:bob@127.0.0.1:5070", "z9hG4bK-p2", "tagX", null, "p2", 1, "",
                SipText.SDP_A));
        assertThat(startLine(small.atA())).isEqualTo("SIP/2.0 100 Trying");
        assertThat(startLine(small.atA())).startsWith("SIP/2.0 503");
        assertThat(small.a.counters()).containsEntry("portsExhausted", 1L);
        // Timer C ends the unanswered call (408), which then lingers.
        small.advance(Duration.ofSeconds(200));
        assertThat(small.inbox("a", RelayPair.PHONE_A)).anySatisfy(m -> assertThat(startLine(m)).startsWith("SIP/2.0 408"));
        small.advance(Duration.ofSeconds(40));
        assertThat(small.a.state().mediaPortPairs()).isZero();
        assertThat(small.idle()).isTrue();
    }

    @Test
    void iceIsStrippedFromTheSdpAPhoneReceives() {
        String ice = SipText.sdp("127.0.0.1", 41000, "1", 1,
                "a=ice-ufrag:abcd\r\na=ice-pwd:0123456789abcdef012345\r\na=candidate:1 1 UDP 2130706431 10.0.0.5 41000 typ host\r\n");
        pair.fromPhoneA(SipText.invite("m9", "z9hG4bK-m9", ice));
        pair.atA();
        assertThat(body(pair.atB())).doesNotContain("candidate").doesNotContain("ice-").doesNotContain("10.0.0.5");
    }

    @Test
    void anSdpWithMoreStreamsThanAnEnvelopeCarriesIsRefusedWithoutHoldingPorts() {
        StringBuilder sdp = new StringBuilder(SipText.SDP_A);
        for (int i = 0; i < RelayEnvelope.MAX_STREAMS; i++) {
            sdp.append("m=audio ").append(42000 + 2 * i).append(" RTP/AVP 0\r\n");
        }
        pair.fromPhoneA(SipText.invite("m10", "z9hG4bK-m10", sdp.toString()));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 100 Trying");
        assertThat(startLine(pair.atA())).startsWith("SIP/2.0 503");
        assertThat(pair.a.state().mediaPortPairs()).isZero();
        assertThat(pair.a.counters()).containsEntry("faults", 0L).containsEntry("sdpUnreadable", 1L);
    }
}

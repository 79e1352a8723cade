package net.hopwise.voip.relay;

import static net.hopwise.voip.relay.SipText.body;
import static net.hopwise.voip.relay.SipText.response;
import static net.hopwise.voip.relay.SipText.startLine;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Offers made in the middle of a call, through two relays on virtual time: an UPDATE and its 2xx are
 * rewritten as a re-INVITE's are, and a re-INVITE or UPDATE that changes the codec keeps the media
 * path, and the relays' per-call counts, as they were.
 */
class MidCallOfferTest {
    private static final InetSocketAddress PHONE_A_RTP = new InetSocketAddress("127.0.0.1", 41000);
    private static final InetSocketAddress PHONE_B_RTP = new InetSocketAddress("127.0.0.1", 40000);
    /** 20 ms of audio between packets. */
    private static final long FRAME_NANOS = 20_000_000L;

    private final RelayPair pair = new RelayPair();

    /** An SDP as test phones write it, on 127.0.0.1, with the m= line's formats and its attribute lines. */
    static String sdp(String session, long version, int port, String formats, String attributes) {
        return "v=0\r\no=user1 " + session + " " + version + " IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\n"
                + "t=0 0\r\nm=audio " + port + " RTP/AVP " + formats + "\r\n" + attributes;
    }

    /** A call from phone A to phone B, answered and acknowledged, with the SDPs given. */
    private void call(String callId, String offer, String answer) {
        pair.fromPhoneA(SipText.invite(callId, "z9hG4bK-" + callId, offer));
        pair.atA();
        String invite = pair.atB();
        pair.fromPhoneB(response(invite, 200, "tagB", answer));
        pair.atA();
        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-ack" + callId, "tagA", "tagB",
                callId, 1, "", null));
        pair.atB();
    }

    static ByteBuf rtp(int payloadType, int seq, long timestamp, int ssrc) {
        ByteBuf b = RelayPair.ALLOC.buffer();
        b.writeByte(0x80).writeByte(payloadType).writeShort(seq).writeInt((int) timestamp).writeInt(ssrc);
        b.writeZero(80);
        return b;
    }

    /** Phone A's and phone B's RTP, one packet each per 20 ms of virtual time. */
    private void talk(int packets, int payloadType, int firstSeq, long firstTimestamp, long ticksPerPacket,
            InetSocketAddress fromA) {
        for (int i = 0; i < packets; i++) {
            long ts = firstTimestamp + i * ticksPerPacket;
            send(pair.a, 30000, rtp(payloadType, firstSeq + i, ts, 0x1234), fromA);
            send(pair.b, 30500, rtp(payloadType, firstSeq + i, ts, 0x5678), PHONE_B_RTP);
            pair.now += FRAME_NANOS;
        }
    }

    private void send(SipProxy relay, int port, ByteBuf packet, InetSocketAddress from) {
        try {
            relay.onPhoneMedia(port, false, packet, from, pair.now);
        } finally {
            packet.release();
        }
    }

    private StreamStatistics stream(SipProxy relay) {
        return relay.calls(pair.now).get(0).streams().get(0);
    }

    @Test
    void anUpdateOfferAndItsAnswerAreRewrittenAsAReInvitesAndMediaFollowsThem() {
        call("u1", SipText.SDP_A, SipText.SDP_B);
        int overlayA = stream(pair.a).overlayPort();
        // Phone A moves its media (a new port, as after a transfer to another device) by UPDATE, with an
        // attribute no relay knows and an ICE candidate that would lead around the relays.
        String offer = sdp("53655765", 2, 41010, "0", "a=rtpmap:0 PCMU/8000\r\na=rtcp:41011\r\n"
                + "a=x-vendor-quality:keep me as is\r\na=candidate:1 1 UDP 2130706431 127.0.0.1 41010 typ host\r\n");
        pair.fromPhoneA(SipText.request("UPDATE", "sip:bob@127.0.0.1:5070", "z9hG4bK-u1-upd", "tagA", "tagB", "u1", 2,
                "", offer));
        String update = pair.atB();
        assertThat(startLine(update)).isEqualTo("UPDATE sip:bob@127.0.0.1:5070 SIP/2.0");
        // Line for line the phone's offer, but for relay b's address and ports, the version it carries
        // on from the INVITE's, and no ICE.
        assertThat(body(update)).isEqualTo("v=0\r\no=user1 53655765 2 IN IP4 127.0.0.20\r\ns=-\r\n"
                + "c=IN IP4 127.0.0.20\r\nt=0 0\r\nm=audio 30500 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n"
                + "a=rtcp:30501\r\na=x-vendor-quality:keep me as is\r\n");

        String answer = sdp("98765", 2, 40000, "0", "a=rtpmap:0 PCMU/8000\r\na=x-answer-note:also kept\r\n");
        pair.fromPhoneB(response(update, 200, null, answer));
        String ok = pair.atA();
        assertThat(startLine(ok)).isEqualTo("SIP/2.0 200 OK");
        assertThat(SipText.header(ok, "CSeq")).isEqualTo("2 UPDATE");
        assertThat(body(ok)).isEqualTo("v=0\r\no=user1 98765 2 IN IP4 127.0.0.10\r\ns=-\r\nc=IN IP4 127.0.0.10\r\n"
                + "t=0 0\r\nm=audio 30000 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\na=x-answer-note:also kept\r\n");
        assertThat(pair.a.state().mediaPortPairs()).isEqualTo(1);
        assertThat(pair.b.state().mediaPortPairs()).isEqualTo(1);
        assertThat(stream(pair.a).overlayPort()).isEqualTo(overlayA);

        // Media goes on through the relays, to phone A's new port, and from it.
        InetSocketAddress moved = new InetSocketAddress("127.0.0.1", 41010);
        talk(3, 0, 0, 0, 160, moved);
        assertThat(pair.mediaA.toPhone).hasSize(3).allSatisfy(sent -> {
            assertThat(sent[0]).isEqualTo(30000);
            assertThat(sent[2]).isEqualTo(moved);
        });
        assertThat(pair.mediaB.toPhone).hasSize(3).allSatisfy(sent -> {
            assertThat(sent[0]).isEqualTo(30500);
            assertThat(sent[2]).isEqualTo(PHONE_B_RTP);
        });
        assertThat(stream(pair.a).latched()).isEqualTo(moved);
        assertThat(stream(pair.a).advertised()).isEqualTo(moved);
        assertThat(pair.a.counters()).containsEntry("faults", 0L).containsEntry("unmatchedResponses", 0L)
                .containsEntry("sdpUnreadable", 0L);
        assertThat(pair.b.counters()).containsEntry("faults", 0L).containsEntry("unmatchedResponses", 0L);
    }

    @Test
    void theCalleesUpdateMovingToG722ReachesTheCallerRewrittenAndItsRtpCountsAtEightKilohertz() {
        call("u2", SipText.SDP_A, SipText.SDP_B);
        talk(50, 0, 0, 0, 160, PHONE_A_RTP);
        // G.722 by its static payload type, without an rtpmap: 16 kHz audio on RFC 3551's 8 kHz clock.
        String offer = sdp("98765", 2, 40000, "9", "a=ptime:20\r\n");
        pair.fromPhoneB(SipText.request("UPDATE", "sip:sipp@127.0.0.1:5080", "z9hG4bK-u2-upd", "tagB", "tagA", "u2", 1,
                "", offer));
        String update = pair.atA();
        assertThat(startLine(update)).isEqualTo("UPDATE sip:sipp@127.0.0.1:5080 SIP/2.0");
        assertThat(body(update)).isEqualTo("v=0\r\no=user1 98765 2 IN IP4 127.0.0.10\r\ns=-\r\nc=IN IP4 127.0.0.10\r\n"
                + "t=0 0\r\nm=audio 30000 RTP/AVP 9\r\na=ptime:20\r\n");
        pair.fromPhoneA(response(update, 200, null, sdp("53655765", 2, 41000, "9", "")));
        String ok = pair.at("b", RelayPair.PHONE_B);
        assertThat(startLine(ok)).isEqualTo("SIP/2.0 200 OK");
        assertThat(body(ok)).contains("o=user1 53655765 2 IN IP4 127.0.0.20").contains("c=IN IP4 127.0.0.20")
                .contains("m=audio 30500 RTP/AVP 9").doesNotContain("41000");

        // The same SSRCs go on with G.722: sequence and timestamps continue, 160 ticks per 20 ms.
        talk(50, 9, 50, 50 * 160, 160, PHONE_A_RTP);
        for (SipProxy relay : List.of(pair.a, pair.b)) {
            StreamStatistics s = stream(relay);
            assertThat(s.fromPhone().received()).isEqualTo(100);
            assertThat(s.fromPhone().lost()).isZero();
            // At 16 kHz each 20 ms packet would read 10 ms late or early: a 10 ms jitter.
            assertThat(s.fromPhone().jitterMs()).isZero();
            assertThat(s.toPhone().received()).isEqualTo(100);
            assertThat(s.codec()).isEqualTo("G722/8000");
        }
        assertThat(pair.mediaA.toPhone).hasSize(100).allSatisfy(sent -> assertThat(sent[2]).isEqualTo(PHONE_A_RTP));
        assertThat(pair.mediaB.toPhone).hasSize(100).allSatisfy(sent -> assertThat(sent[2]).isEqualTo(PHONE_B_RTP));
    }

    @Test
    void aReInviteFromPcmuToOpusKeepsTheMediaPathAndTheCallsStatistics() {
        call("c1", SipText.SDP_A, SipText.SDP_B);
        StreamStatistics before = stream(pair.a);
        talk(50, 0, 0, 0, 160, PHONE_A_RTP);
        assertThat(stream(pair.a).codec()).isEqualTo("PCMU/8000");

        String opus = "a=rtpmap:111 opus/48000/2\r\na=fmtp:111 useinbandfec=1\r\n";
        pair.fromPhoneA(SipText.request("INVITE", "sip:bob@127.0.0.1:5070", "z9hG4bK-c1-re", "tagA", "tagB", "c1", 3,
                "", sdp("53655765", 2, 41000, "111 0", opus + "a=rtpmap:0 PCMU/8000\r\n")));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 100 Trying");
        String reInvite = pair.atB();
        assertThat(body(reInvite)).isEqualTo("v=0\r\no=user1 53655765 2 IN IP4 127.0.0.20\r\ns=-\r\n"
                + "c=IN IP4 127.0.0.20\r\nt=0 0\r\nm=audio 30500 RTP/AVP 111 0\r\n" + opus
                + "a=rtpmap:0 PCMU/8000\r\n");
        pair.fromPhoneB(response(reInvite, 200, null, sdp("98765", 2, 40000, "111", opus)));
        assertThat(body(pair.atA())).isEqualTo("v=0\r\no=user1 98765 2 IN IP4 127.0.0.10\r\ns=-\r\n"
                + "c=IN IP4 127.0.0.10\r\nt=0 0\r\nm=audio 30000 RTP/AVP 111\r\n" + opus);
        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-c1-reack", "tagA", "tagB", "c1", 3,
                "", null));
        assertThat(startLine(pair.atB())).isEqualTo("ACK sip:bob@127.0.0.1:5070 SIP/2.0");

        // Opus from the same SSRCs: sequence numbers go on, timestamps jump to another base (one near
        // the 32-bit wrap, crossed a few packets in) and count 960 per 20 ms.
        talk(50, 111, 50, 0xFFFF_F000L, 960, PHONE_A_RTP);

        for (SipProxy relay : List.of(pair.a, pair.b)) {
            StreamStatistics s = stream(relay);
            assertThat(s.rtpPort()).isEqualTo(relay == pair.a ? 30000 : 30500);
            assertThat(s.fromPhone().received()).isEqualTo(100);
            assertThat(s.fromPhone().expected()).isEqualTo(100);
            assertThat(s.fromPhone().lost()).isZero();
            assertThat(s.fromPhone().duplicates()).isZero();
            // Read at 8 kHz, each opus packet would look 100 ms late: RFC 3550's jitter would climb toward 100 ms.
            assertThat(s.fromPhone().jitterMs()).isZero();
            assertThat(s.toPhone().received()).isEqualTo(100);
            assertThat(s.toPhone().lost()).isZero();
            assertThat(s.sentToNode()).isEqualTo(100);
            assertThat(s.deliveredToPhone()).isEqualTo(100);
            assertThat(s.codec()).isEqualTo("opus/48000");
        }
        StreamStatistics after = stream(pair.a);
        assertThat(after.overlayPort()).isEqualTo(before.overlayPort());
        assertThat(after.remotePort()).isEqualTo(before.remotePort());
        assertThat(pair.a.state().mediaPortPairs()).isEqualTo(1);
        assertThat(pair.b.state().mediaPortPairs()).isEqualTo(1);
        assertThat(pair.mediaB.toPhone).hasSize(100).allSatisfy(sent -> {
            assertThat(sent[0]).isEqualTo(30500);
            assertThat(sent[2]).isEqualTo(PHONE_B_RTP);
        });
        // 10 ms across the overlay, 20 ms of access, no loss: a clean call by the E-model.
        assertThat(pair.a.calls(pair.now).get(0).mos(20)).isGreaterThan(4.3);
        assertThat(pair.a.counters()).containsEntry("faults", 0L).containsEntry("sdpUnreadable", 0L);
    }
}

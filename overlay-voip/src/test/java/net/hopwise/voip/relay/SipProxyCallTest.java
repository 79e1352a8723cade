package net.hopwise.voip.relay;

import static net.hopwise.voip.relay.SipText.body;
import static net.hopwise.voip.relay.SipText.header;
import static net.hopwise.voip.relay.SipText.headers;
import static net.hopwise.voip.relay.SipText.response;
import static net.hopwise.voip.relay.SipText.startLine;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Whole calls through two relays on virtual time, in the shapes SIPp's uac and uas give them. */
class SipProxyCallTest {
    private final RelayPair pair = new RelayPair();

    /** Places a call from phone A up to the INVITE phone B receives; returns that INVITE. */
    private String invite(String callId) {
        pair.fromPhoneA(SipText.invite(callId, "z9hG4bK-a-1", SipText.SDP_A));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 100 Trying");
        return pair.atB();
    }

    @Test
    void aBasicCallCrossesBothRelaysWithRewrittenSdpAndLeavesNoState() {
        String atB = invite("call-1");
        assertThat(startLine(atB)).isEqualTo("INVITE sip:bob@127.0.0.1:5070 SIP/2.0");
        assertThat(headers(atB, "Via")).hasSize(3);
        assertThat(headers(atB, "Via").get(0)).startsWith("SIP/2.0/UDP 127.0.0.1:5062;branch=z9hG4bKhw");
        // The phone's own Via is passed on as it wrote it (it sent from the host its Via names).
        assertThat(headers(atB, "Via").get(2)).isEqualTo("SIP/2.0/UDP 127.0.0.1:5080;branch=z9hG4bK-a-1");
        assertThat(headers(atB, "Record-Route")).containsExactly("<sip:127.0.0.1:5062;lr;hwnode=b>",
                "<sip:127.0.0.1:5060;lr;hwnode=a>");
        assertThat(header(atB, "Max-Forwards")).isEqualTo("68");
        // The callee is pointed at relay b's media address and ports; nothing of phone A's remains.
        assertThat(body(atB)).contains("c=IN IP4 127.0.0.20").contains("m=audio 30500 RTP/AVP 0")
                .contains("o=user1 53655765 1 IN IP4 127.0.0.20").doesNotContain("41000");

        pair.fromPhoneB(response(atB, 180, "tagB", null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 180 Ringing");
        pair.fromPhoneB(response(atB, 200, "tagB", SipText.SDP_B));
        String ok = pair.atA();
        assertThat(startLine(ok)).isEqualTo("SIP/2.0 200 OK");
        assertThat(headers(ok, "Via")).hasSize(1);
        assertThat(body(ok)).contains("c=IN IP4 127.0.0.10").contains("m=audio 30000 RTP/AVP 0")
                .doesNotContain("40000");

        // SIPp's uac sends ACK and BYE without a Route set: the dialog table routes them.
        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-a-2", "tagA", "tagB", "call-1",
                1, "", null));
        assertThat(startLine(pair.atB())).isEqualTo("ACK sip:bob@127.0.0.1:5070 SIP/2.0");
        assertThat(pair.a.calls(pair.now)).singleElement()
                .satisfies(c -> assertThat(c.state()).isEqualTo("CONFIRMED"));

        pair.fromPhoneA(SipText.request("BYE", "sip:bob@127.0.0.1:5070", "z9hG4bK-a-3", "tagA", "tagB", "call-1",
                2, "", null));
        String bye = pair.atB();
        assertThat(startLine(bye)).isEqualTo("BYE sip:bob@127.0.0.1:5070 SIP/2.0");
        pair.fromPhoneB(response(bye, 200, null, null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 200 OK");
        assertThat(pair.a.calls(pair.now)).singleElement()
                .satisfies(c -> assertThat(c.endReason()).isEqualTo("bye"));

        assertThat(pair.idle()).isFalse();
        pair.advance(Duration.ofSeconds(40));
        assertThat(pair.a.state()).isEqualTo(new RelayState(0, 0, 0, 0, 0));
        assertThat(pair.b.state()).isEqualTo(new RelayState(0, 0, 0, 0, 0));
        assertThat(pair.mediaA.bound).isEmpty();
        assertThat(pair.mediaB.overlayPorts).isEmpty();
        assertThat(pair.a.counters()).containsEntry("unmatchedResponses", 0L).containsEntry("malformedDropped", 0L);
    }

    @Test
    void inDialogRequestsFollowTheRecordRouteSetToo() {
        String atB = invite("call-rr");
        pair.fromPhoneB(response(atB, 200, "tagB", SipText.SDP_B));
        String ok = pair.atA();
        // A dialog-correct phone reverses the Record-Route set into its Route set (RFC 3261 section 12.1.2).
        java.util.List<String> rr = headers(ok, "Record-Route");
        String routes = "Route: " + rr.get(1) + ", " + rr.get(0) + "\r\n";
        pair.fromPhoneA(SipText.request("BYE", "sip:bob@127.0.0.1:5070", "z9hG4bK-a-9", "tagA", "tagB", "call-rr",
                2, routes, null));
        String bye = pair.atB();
        assertThat(headers(bye, "Route")).isEmpty();
        pair.fromPhoneB(response(bye, 200, null, null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 200 OK");
    }

    @Test
    void aRejectedCallIsAckedHopByHopAndFreesItsPorts() {
        String atB = invite("call-486");
        pair.fromPhoneB(response(atB, 486, "tagB", null));
        String ack = pair.atB();
        assertThat(startLine(ack)).isEqualTo("ACK sip:bob@127.0.0.1:5070 SIP/2.0");
        assertThat(header(ack, "To")).contains("tag=tagB");
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 486 Busy Here");
        // Phone A's own ACK of the 486 ends at relay a.
        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-a-1", "tagA", "tagB", "call-486",
                1, "", null));
        assertThat(pair.inbox("b", RelayPair.PHONE_B)).isEmpty();
        pair.advance(Duration.ofSeconds(40));
        assertThat(pair.idle()).isTrue();
    }

    @Test
    void cancelAfterRingingCancelsTheBranchAndTheCalleesFailureReachesTheCaller() {
        String atB = invite("call-cancel");
        pair.fromPhoneB(response(atB, 180, "tagB", null));
        pair.atA();
        pair.fromPhoneA(SipText.request("CANCEL", "sip:bob@127.0.0.1:5070", "z9hG4bK-a-1", "tagA", null,
                "call-cancel", 1, "", null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 200 OK");
        String cancel = pair.atB();
        assertThat(startLine(cancel)).isEqualTo("CANCEL sip:bob@127.0.0.1:5070 SIP/2.0");
        assertThat(headers(cancel, "Via").get(0)).isEqualTo(headers(atB, "Via").get(0));
        pair.fromPhoneB(response(cancel, 200, "tagB", null));
        pair.fromPhoneB(response(atB, 487, "tagB", null));
        assertThat(startLine(pair.atB())).startsWith("ACK");
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 487 Request Terminated");
        assertThat(pair.a.calls(pair.now)).singleElement()
                .satisfies(c -> assertThat(c.endReason()).isEqualTo("cancelled"));
        pair.advance(Duration.ofSeconds(40));
        assertThat(pair.idle()).isTrue();
    }

    @Test
    void retransmittedInviteIsAnsweredFromTheTransactionNotForwardedAgain() {
        String request = SipText.invite("call-rtx", "z9hG4bK-a-1", SipText.SDP_A);
        pair.fromPhoneA(request);
        pair.atA();
        pair.atB();
        pair.fromPhoneA(request);
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 100 Trying");
        assertThat(pair.inbox("b", RelayPair.PHONE_B)).isEmpty();
        assertThat(pair.a.counters()).containsEntry("retransmissionsAbsorbed", 1L);
    }

    @Test
    void anUnansweredInviteIsRetransmittedToThePhoneThenTimesOutWith408() {
        invite("call-silent");
        pair.advance(Duration.ofMillis(500));
        assertThat(startLine(pair.atB())).startsWith("INVITE");
        pair.advance(Duration.ofMillis(1000));
        assertThat(startLine(pair.atB())).startsWith("INVITE");
        pair.inbox("b", RelayPair.PHONE_B).clear();
        pair.advance(Duration.ofSeconds(31));
        pair.advance(Duration.ofSeconds(1));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 408 Request Timeout");
        assertThat(pair.b.counters().get("transactionTimeouts")).isEqualTo(1L);
        pair.advance(RelayConfig.DEFAULT_LINGER.plusSeconds(40));
        assertThat(pair.idle()).isTrue();
    }

    @Test
    void maxForwardsZeroIsAnswered483AndALoopingDialPlan482() {
        pair.fromPhoneA(SipText.request("INVITE", "sip:bob@127.0.0.1:5070", "z9hG4bK-mf", "tagA", null, "call-mf", 1,
                "", null).replace("Max-Forwards: 70", "Max-Forwards: 0"));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 483 Too Many Hops");
        assertThat(pair.a.counters()).containsEntry("tooManyHops", 1L);

        // b's dial plan sends the callee's domain back to a: the INVITE returns to a unchanged.
        RelayPair looping = new RelayPair(c -> { }, c -> c.route("domain:127.0.0.1:5070=a"));
        looping.fromPhoneA(SipText.invite("call-loop", "z9hG4bK-loop", SipText.SDP_A));
        assertThat(startLine(looping.atA())).isEqualTo("SIP/2.0 100 Trying");
        assertThat(startLine(looping.atA())).startsWith("SIP/2.0 482");
        assertThat(looping.a.counters()).containsEntry("loopsDetected", 1L);
        assertThat(looping.inbox("b", RelayPair.PHONE_B)).isEmpty();
        looping.advance(Duration.ofSeconds(40));
        assertThat(looping.idle()).isTrue();
    }

    @Test
    void aRequestNoRuleMatchesIsAnswered404() {
        pair.fromPhoneA(SipText.request("INVITE", "sip:carol@127.0.0.1:5070", "z9hG4bK-nr", "tagA", null, "call-nr",
                1, "", SipText.SDP_A));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 100 Trying");
        assertThat(startLine(pair.atA())).startsWith("SIP/2.0 404");
        pair.advance(RelayConfig.DEFAULT_LINGER.plusSeconds(40));
        assertThat(pair.idle()).isTrue();
    }

    @Test
    void aCallToARegisteredUserReachesTheContactItRegisteredUntilTheBindingLapses() {
        RelayPair reg = new RelayPair(c -> c.route("example.org=b"), c -> { });
        reg.fromPhoneB("REGISTER sip:example.org SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bK-reg1\r\n"
                + "From: <sip:bob@example.org>;tag=r1\r\nTo: <sip:bob@example.org>\r\nCall-ID: reg-1\r\n"
                + "CSeq: 1 REGISTER\r\nContact: <sip:bob@127.0.0.1:5070;line=7>\r\nExpires: 120\r\n"
                + "Content-Length: 0\r\n\r\n");
        String ok = reg.atB();
        assertThat(startLine(ok)).isEqualTo("SIP/2.0 200 OK");
        assertThat(header(ok, "Contact")).isEqualTo("<sip:bob@127.0.0.1:5070;line=7>;expires=120");
        assertThat(reg.b.state().registrations()).isEqualTo(1);

        reg.fromPhoneA(SipText.request("INVITE", "sip:bob@example.org", "z9hG4bK-r1", "tagA", null, "reg-call", 1, "",
                SipText.SDP_A));
        reg.atA();
        assertThat(startLine(reg.atB())).isEqualTo("INVITE sip:bob@127.0.0.1:5070;line=7 SIP/2.0");

        reg.advance(Duration.ofSeconds(121));
        // The first call was never answered: its 408 came meanwhile.
        assertThat(startLine(reg.atA())).startsWith("SIP/2.0 408");
        reg.fromPhoneA(SipText.request("INVITE", "sip:bob@example.org", "z9hG4bK-r2", "tagA2", null, "reg-call-2", 1,
                "", SipText.SDP_A));
        assertThat(startLine(reg.atA())).isEqualTo("SIP/2.0 100 Trying");
        assertThat(startLine(reg.atA())).startsWith("SIP/2.0 480");
        assertThat(reg.b.state().registrations()).isZero();
    }

    @Test
    void earlyMediaFromOneTagThenA200FromAnotherKeepThePortsAndTheDialogFollowsThe200() {
        String atB = invite("call-fork");
        pair.fromPhoneB(response(atB, 183, "early", SipText.sdp("127.0.0.1", 40100, "777", 1, "")));
        String early = pair.atA();
        assertThat(startLine(early)).isEqualTo("SIP/2.0 183 Session Progress");
        assertThat(body(early)).contains("c=IN IP4 127.0.0.10").contains("m=audio 30000 ");
        pair.fromPhoneB(response(atB, 200, "final", SipText.SDP_B));
        String ok = pair.atA();
        assertThat(header(ok, "To")).contains("tag=final");
        assertThat(body(ok)).contains("m=audio 30000 ");
        assertThat(pair.b.calls(pair.now).get(0).streams().get(0).advertised())
                .isEqualTo(new java.net.InetSocketAddress("127.0.0.1", 40000));
        pair.fromPhoneA(SipText.request("BYE", "sip:bob@127.0.0.1:5070", "z9hG4bK-a-f", "tagA", "final", "call-fork",
                2, "", null));
        assertThat(startLine(pair.atB())).startsWith("BYE");
        assertThat(pair.a.state().mediaPortPairs()).isEqualTo(1);
    }

    @Test
    void aByeFromTheCalleeFindsTheCallerByItsRouteSetAndEndsTheCall() {
        String atB = invite("call-callee-bye");
        pair.fromPhoneB(response(atB, 200, "tagB", SipText.SDP_B));
        pair.atA();
        // The callee's route set is the Record-Route of the INVITE it received, in order.
        java.util.List<String> rr = headers(atB, "Record-Route");
        String bye = "BYE sip:sipp@127.0.0.1:5080 SIP/2.0\r\n"
                + "Via: SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bK-b-bye\r\n"
                + "From: bob <sip:bob@127.0.0.1:5070>;tag=tagB\r\n"
                + "To: sipp <sip:sipp@127.0.0.1:5080>;tag=tagA\r\n"
                + "Call-ID: call-callee-bye\r\nCSeq: 1 BYE\r\nMax-Forwards: 70\r\n"
                + "Route: " + rr.get(0) + ", " + rr.get(1) + "\r\nContent-Length: 0\r\n\r\n";
        pair.fromPhoneB(bye);
        String atA = pair.atA();
        assertThat(startLine(atA)).isEqualTo("BYE sip:sipp@127.0.0.1:5080 SIP/2.0");
        assertThat(headers(atA, "Route")).isEmpty();
        assertThat(headers(atA, "Via")).hasSize(3);
        // The caller answers; the 200 retraces the BYE's Vias to the callee.
        String ok = "SIP/2.0 200 OK\r\n" + String.join("", headers(atA, "Via").stream().map(v -> "Via: " + v + "\r\n")
                .toList()) + "From: bob <sip:bob@127.0.0.1:5070>;tag=tagB\r\nTo: sipp <sip:sipp@127.0.0.1:5080>;tag=tagA"
                + "\r\nCall-ID: call-callee-bye\r\nCSeq: 1 BYE\r\nContent-Length: 0\r\n\r\n";
        pair.fromPhoneA(ok);
        String back = pair.atB();
        assertThat(startLine(back)).isEqualTo("SIP/2.0 200 OK");
        assertThat(headers(back, "Via")).containsExactly("SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bK-b-bye");
        assertThat(pair.a.calls(pair.now)).singleElement().satisfies(c -> assertThat(c.endReason()).isEqualTo("bye"));
        assertThat(pair.b.calls(pair.now)).singleElement().satisfies(c -> assertThat(c.endReason()).isEqualTo("bye"));
        pair.advance(Duration.ofSeconds(40));
        assertThat(pair.idle()).isTrue();
    }
}

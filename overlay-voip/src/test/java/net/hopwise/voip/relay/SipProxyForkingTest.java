package net.hopwise.voip.relay;

import static net.hopwise.voip.relay.RelayPair.PHONE_A;
import static net.hopwise.voip.relay.RelayPair.PHONE_B;
import static net.hopwise.voip.relay.RelayPair.PHONE_C;
import static net.hopwise.voip.relay.SipText.body;
import static net.hopwise.voip.relay.SipText.header;
import static net.hopwise.voip.relay.SipText.headers;
import static net.hopwise.voip.relay.SipText.response;
import static net.hopwise.voip.relay.SipText.startLine;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Parallel forking (RFC 3261 section 16.7) on virtual time: bob registered from two phones at relay
 * b (or reachable at two places by the dial plan), a call from phone A rings both; the first 2xx
 * wins and cancels the other, failures wait for the best, a 6xx ends the search, a silent branch
 * times out alone.
 */
class SipProxyForkingTest {
    private final RelayPair pair = new RelayPair();

    private static String register(InetSocketAddress phone, String aor) {
        return "REGISTER sip:example.org SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:" + phone.getPort()
                + ";branch=z9hG4bK-reg" + phone.getPort() + "\r\nFrom: <sip:" + aor + ">;tag=r" + phone.getPort()
                + "\r\nTo: <sip:" + aor + ">\r\nCall-ID: reg-" + phone.getPort() + "\r\nCSeq: 1 REGISTER\r\n"
                + "Contact: <sip:bob@127.0.0.1:" + phone.getPort() + ">\r\nExpires: 600\r\nContent-Length: 0\r\n\r\n";
    }

    /** Registers bob from phones B and C at relay b, calls him from A; returns the INVITEs B and C got. */
    private String[] forkedInvite(String callId) {
        pair.deliver(pair.b, register(PHONE_B, "bob@example.org"), PHONE_B);
        assertThat(startLine(pair.at("b", PHONE_B))).isEqualTo("SIP/2.0 200 OK");
        pair.deliver(pair.b, register(PHONE_C, "bob@example.org"), PHONE_C);
        assertThat(startLine(pair.at("b", PHONE_C))).isEqualTo("SIP/2.0 200 OK");
        pair.fromPhoneA(SipText.invite(callId, "z9hG4bK-a-1", SipText.SDP_A));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 100 Trying");
        String atB = pair.at("b", PHONE_B);
        String atC = pair.at("b", PHONE_C);
        assertThat(startLine(atB)).isEqualTo("INVITE sip:bob@127.0.0.1:5070 SIP/2.0");
        assertThat(startLine(atC)).isEqualTo("INVITE sip:bob@127.0.0.1:5072 SIP/2.0");
        // Two client transactions: two branches of relay b, the rest of the Via stack the same.
        assertThat(headers(atB, "Via").get(0)).isNotEqualTo(headers(atC, "Via").get(0));
        assertThat(headers(atB, "Via").subList(1, 3)).isEqualTo(headers(atC, "Via").subList(1, 3));
        assertThat(body(atB)).isEqualTo(body(atC)).contains("m=audio 30500 ");
        return new String[] {atB, atC};
    }

    private void from(InetSocketAddress phone, String sip) {
        pair.deliver(pair.b, sip, phone);
    }

    @Test
    void bothPhonesRingTheFirst200WinsAndTheOtherBranchIsCancelled() {
        String[] invites = forkedInvite("fork-1");
        from(PHONE_B, response(invites[0], 180, "tagB", null));
        from(PHONE_C, response(invites[1], 180, "tagC", null));
        // Each branch's ringing reaches the caller, each in its own early dialog.
        assertThat(header(pair.atA(), "To")).endsWith("tag=tagB");
        assertThat(header(pair.atA(), "To")).endsWith("tag=tagC");

        from(PHONE_B, response(invites[0], 200, "tagB", SipText.SDP_B));
        String ok = pair.atA();
        assertThat(startLine(ok)).isEqualTo("SIP/2.0 200 OK");
        assertThat(header(ok, "To")).endsWith("tag=tagB");
        String cancel = pair.at("b", PHONE_C);
        assertThat(startLine(cancel)).isEqualTo("CANCEL sip:bob@127.0.0.1:5072 SIP/2.0");
        assertThat(headers(cancel, "Via").get(0)).isEqualTo(headers(invites[1], "Via").get(0));
        assertThat(pair.inbox("b", PHONE_B)).isEmpty();

        from(PHONE_C, response(cancel, 200, "tagC", null));
        from(PHONE_C, response(invites[1], 487, "tagC", null));
        assertThat(startLine(pair.at("b", PHONE_C))).isEqualTo("ACK sip:bob@127.0.0.1:5072 SIP/2.0");
        // The cancelled branch's 487 ends at relay b: the caller has its 200.
        assertThat(pair.inbox("a", PHONE_A)).isEmpty();

        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-a-2", "tagA", "tagB", "fork-1", 1,
                "", null));
        assertThat(startLine(pair.at("b", PHONE_B))).startsWith("ACK");
        pair.fromPhoneA(SipText.request("BYE", "sip:bob@127.0.0.1:5070", "z9hG4bK-a-3", "tagA", "tagB", "fork-1", 2,
                "", null));
        String bye = pair.at("b", PHONE_B);
        assertThat(startLine(bye)).startsWith("BYE");
        assertThat(pair.inbox("b", PHONE_C)).isEmpty();
        from(PHONE_B, response(bye, 200, null, null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 200 OK");
        assertThat(pair.b.calls(pair.now)).singleElement().satisfies(c -> assertThat(c.endReason()).isEqualTo("bye"));
        pair.advance(Duration.ofSeconds(40));
        assertThat(pair.idle()).isTrue();
        assertThat(pair.mediaA.bound).isEmpty();
        assertThat(pair.mediaB.bound).isEmpty();
        assertThat(pair.b.counters()).containsEntry("unmatchedResponses", 0L).containsEntry("faults", 0L);
    }

    @Test
    void aBusyPhoneDoesNotEndTheCallWhileTheOtherRingsThenAnswers() {
        String[] invites = forkedInvite("fork-busy");
        from(PHONE_B, response(invites[0], 486, "tagB", null));
        assertThat(startLine(pair.at("b", PHONE_B))).startsWith("ACK");
        assertThat(pair.inbox("a", PHONE_A)).isEmpty();
        from(PHONE_C, response(invites[1], 180, "tagC", null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 180 Ringing");
        from(PHONE_C, response(invites[1], 200, "tagC", SipText.SDP_B));
        String ok = pair.atA();
        assertThat(startLine(ok)).isEqualTo("SIP/2.0 200 OK");
        assertThat(header(ok, "To")).endsWith("tag=tagC");
        assertThat(pair.inbox("a", PHONE_A)).isEmpty();
        assertThat(pair.a.calls(pair.now)).singleElement().satisfies(c -> assertThat(c.state()).isEqualTo("CONFIRMED"));
        // In-dialog requests go to the phone that answered.
        pair.fromPhoneA(SipText.request("BYE", "sip:bob@127.0.0.1:5072", "z9hG4bK-a-3", "tagA", "tagC", "fork-busy", 2,
                "", null));
        assertThat(startLine(pair.at("b", PHONE_C))).startsWith("BYE");
    }

    @Test
    void whenEveryBranchFailsTheCallerGetsTheBestFailureOnceAllEnded() {
        String[] invites = forkedInvite("fork-fail");
        from(PHONE_B, response(invites[0], 503, "tagB", null));
        assertThat(pair.inbox("a", PHONE_A)).isEmpty();
        from(PHONE_C, response(invites[1], 486, "tagC", null));
        // The lowest class wins (section 16.7 step 6): the 486, not the 503 that came first.
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 486 Busy Here");
        assertThat(pair.inbox("a", PHONE_A)).isEmpty();
        assertThat(pair.a.calls(pair.now)).singleElement()
                .satisfies(c -> assertThat(c.endReason()).isEqualTo("rejected 486"));
        assertThat(pair.b.calls(pair.now)).singleElement()
                .satisfies(c -> assertThat(c.endReason()).isEqualTo("rejected 486"));
        pair.advance(Duration.ofSeconds(40));
        // Nothing of the call is left; bob's registrations stay.
        assertThat(pair.b.state()).isEqualTo(new RelayState(0, 0, 0, 0, 1));
        assertThat(pair.idle()).isTrue();
    }

    @Test
    void aDeclineOfOnePhoneEndsTheSearchAtOnceAndCancelsTheOther() {
        String[] invites = forkedInvite("fork-603");
        from(PHONE_C, response(invites[1], 180, "tagC", null));
        pair.atA();
        from(PHONE_B, response(invites[0], 603, "tagB", null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 603 Status");
        assertThat(startLine(pair.at("b", PHONE_C))).startsWith("CANCEL");
        from(PHONE_C, response(invites[1], 487, "tagC", null));
        assertThat(pair.inbox("a", PHONE_A)).isEmpty();
    }

    @Test
    void aSilentPhoneTimesOutAloneWhileTheOtherRingsAndAnswers() {
        String[] invites = forkedInvite("fork-silent");
        from(PHONE_C, response(invites[1], 180, "tagC", null));
        pair.atA();
        // Phone B never answers: its INVITE is retransmitted, then Timer B gives its branch a 408.
        for (int s = 0; s < 40; s++) {
            pair.advance(Duration.ofSeconds(1));
        }
        assertThat(pair.b.counters().get("transactionTimeouts")).isEqualTo(1L);
        assertThat(pair.inbox("b", PHONE_B)).isNotEmpty().allSatisfy(m -> assertThat(startLine(m)).startsWith("INVITE"));
        assertThat(pair.inbox("a", PHONE_A)).isEmpty();
        from(PHONE_C, response(invites[1], 200, "tagC", SipText.SDP_B));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 200 OK");
        assertThat(pair.inbox("a", PHONE_A)).isEmpty();
    }

    @Test
    void aSecond200IsStillForwardedAndItsByeLeavesTheWinningCallUp() {
        String[] invites = forkedInvite("fork-two");
        from(PHONE_B, response(invites[0], 200, "tagB", SipText.SDP_B));
        String first = pair.atA();
        // Phone C answered before the CANCEL reached it.
        // With a second stream the call does not have: its line passes as it came, nothing is taken for it.
        from(PHONE_C, response(invites[1], 200, "tagC", SipText.sdp("127.0.0.1", 40200, "555", 1, "")
                + "m=video 40202 RTP/AVP 96\r\n"));
        String second = pair.atA();
        assertThat(startLine(second)).isEqualTo("SIP/2.0 200 OK");
        assertThat(header(second, "To")).endsWith("tag=tagC");
        // The second answer points the caller at the same relay ports; the streams keep phone B.
        assertThat(body(second)).contains("c=IN IP4 127.0.0.10").contains("m=audio 30000 ").doesNotContain("40200")
                .contains("m=video 40202 ");
        assertThat(pair.mediaA.bound).hasSize(1);
        assertThat(pair.mediaB.bound).hasSize(1);
        assertThat(body(first)).contains("m=audio 30000 ");
        assertThat(pair.b.calls(pair.now).get(0).streams().get(0).advertised())
                .isEqualTo(new InetSocketAddress("127.0.0.1", 40000));
        assertThat(pair.a.calls(pair.now).get(0).streams().get(0).remotePort())
                .isEqualTo(pair.b.calls(pair.now).get(0).streams().get(0).overlayPort());

        // The caller ACKs and hangs up the second dialog (section 13.2.2.4): it goes to phone C only.
        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5072", "z9hG4bK-a-4", "tagA", "tagC", "fork-two", 1,
                "", null));
        assertThat(startLine(pair.at("b", PHONE_C))).startsWith("ACK");
        pair.fromPhoneA(SipText.request("BYE", "sip:bob@127.0.0.1:5072", "z9hG4bK-a-5", "tagA", "tagC", "fork-two", 2,
                "", null));
        String bye = pair.at("b", PHONE_C);
        assertThat(startLine(bye)).startsWith("BYE");
        from(PHONE_C, response(bye, 200, null, null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 200 OK");
        assertThat(pair.inbox("b", PHONE_B)).isEmpty();
        assertThat(pair.a.calls(pair.now)).singleElement().satisfies(c -> assertThat(c.state()).isEqualTo("CONFIRMED"));
        assertThat(pair.b.calls(pair.now)).singleElement().satisfies(c -> assertThat(c.state()).isEqualTo("CONFIRMED"));
        pair.fromPhoneA(SipText.request("BYE", "sip:bob@127.0.0.1:5070", "z9hG4bK-a-6", "tagA", "tagB", "fork-two", 3,
                "", null));
        assertThat(startLine(pair.at("b", PHONE_B))).startsWith("BYE");
        assertThat(pair.b.calls(pair.now)).singleElement().satisfies(c -> assertThat(c.endReason()).isEqualTo("bye"));
    }

    @Test
    void theCallersCancelReachesEveryBranch() {
        String[] invites = forkedInvite("fork-cancel");
        from(PHONE_B, response(invites[0], 180, "tagB", null));
        pair.atA();
        pair.fromPhoneA(SipText.request("CANCEL", "sip:bob@127.0.0.1:5070", "z9hG4bK-a-1", "tagA", null,
                "fork-cancel", 1, "", null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 200 OK");
        assertThat(startLine(pair.at("b", PHONE_B))).startsWith("CANCEL");
        // Phone C has not answered yet: its CANCEL waits for its provisional response (section 9.1).
        assertThat(pair.inbox("b", PHONE_C)).isEmpty();
        from(PHONE_C, response(invites[1], 180, "tagC", null));
        assertThat(startLine(pair.at("b", PHONE_C))).startsWith("CANCEL");
        // Still pending upstream: the ringing is passed on (section 16.7 step 5).
        assertThat(header(pair.atA(), "To")).endsWith("tag=tagC");
        from(PHONE_B, response(invites[0], 487, "tagB", null));
        assertThat(pair.inbox("a", PHONE_A)).isEmpty();
        from(PHONE_C, response(invites[1], 487, "tagC", null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 487 Request Terminated");
        assertThat(pair.a.calls(pair.now)).singleElement()
                .satisfies(c -> assertThat(c.endReason()).isEqualTo("cancelled"));
    }

    @Test
    void aDialPlanRuleWithTwoNodesForksToAPhoneHereAndToTheOtherRelay() {
        RelayPair plan = new RelayPair(c -> c.route("prefix:carol=a,b"), c -> c.route("prefix:carol=b"));
        plan.deliver(plan.a, register(PHONE_C, "carol@example.org"), PHONE_C);
        plan.at("a", PHONE_C);
        plan.deliver(plan.b, register(PHONE_B, "carol@example.org"), PHONE_B);
        plan.at("b", PHONE_B);
        plan.fromPhoneA(SipText.request("INVITE", "sip:carol@example.org", "z9hG4bK-c1", "tagA", null, "plan-1", 1, "",
                SipText.SDP_A));
        assertThat(startLine(plan.atA())).isEqualTo("SIP/2.0 100 Trying");
        String local = plan.at("a", PHONE_C);
        String remote = plan.at("b", PHONE_B);
        assertThat(startLine(local)).isEqualTo("INVITE sip:bob@127.0.0.1:5072 SIP/2.0");
        assertThat(startLine(remote)).isEqualTo("INVITE sip:bob@127.0.0.1:5070 SIP/2.0");
        plan.deliver(plan.a, response(local, 486, "tagC", null), PHONE_C);
        assertThat(plan.inbox("a", PHONE_A)).isEmpty();
        plan.fromPhoneB(response(remote, 200, "tagB", SipText.SDP_B));
        String ok = plan.atA();
        assertThat(startLine(ok)).isEqualTo("SIP/2.0 200 OK");
        assertThat(body(ok)).contains("c=IN IP4 127.0.0.10");
        assertThat(plan.a.counters()).containsEntry("faults", 0L);
    }

    @Test
    void theBestResponseRanksAsSection16Point7Says() {
        assertThat(Forks.better(486, 0)).isTrue();
        assertThat(Forks.better(486, 503)).isTrue();
        assertThat(Forks.better(503, 486)).isFalse();
        assertThat(Forks.better(603, 302)).isTrue();
        assertThat(Forks.better(302, 603)).isFalse();
        assertThat(Forks.better(407, 486)).isTrue();
        assertThat(Forks.better(486, 404)).isFalse();
        assertThat(Forks.better(408, 486)).isFalse();
    }

    @Test
    void aDialPlanRuleReadsSeveralNodes() {
        DialPlan plan = DialPlan.parse(List.of("prefix:carol=a, b", "example.org=b"));
        assertThat(plan.nodesFor(SipUri.parse("sip:carol@10.0.0.1"))).containsExactly("a", "b");
        assertThat(plan.nodeFor(SipUri.parse("sip:carol@10.0.0.1"))).contains("a");
        assertThat(plan.nodesFor(SipUri.parse("sip:bob@example.org"))).containsExactly("b");
        assertThat(plan.nodesFor(SipUri.parse("sip:dave@10.0.0.1"))).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DialPlan.Rule.parse("carol=a,,b"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

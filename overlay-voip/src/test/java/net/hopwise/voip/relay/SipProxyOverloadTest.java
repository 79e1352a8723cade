package net.hopwise.voip.relay;

import static net.hopwise.voip.relay.SipText.header;
import static net.hopwise.voip.relay.SipText.response;
import static net.hopwise.voip.relay.SipText.startLine;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A full relay refuses new calls with 503 and Retry-After, counts them, and holds no port for them:
 * at a configured maximum of calls, and when its media port pool is empty. On virtual time.
 */
class SipProxyOverloadTest {

    private static String invite(String callId, String branch) {
        return SipText.invite(callId, branch, SipText.SDP_A);
    }

    @Test
    void overTheMaximumOfCallsAnInviteIsAnswered503WithRetryAfterAndHoldsNoPort() {
        RelayPair pair = new RelayPair(c -> c.maxCalls(1).retryAfter(Duration.ofSeconds(7)), c -> { });
        pair.fromPhoneA(invite("over-1", "z9hG4bK-o1"));
        pair.atA();
        String atB = pair.atB();
        pair.fromPhoneA(invite("over-2", "z9hG4bK-o2"));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 100 Trying");
        String refused = pair.atA();
        assertThat(startLine(refused)).startsWith("SIP/2.0 503");
        assertThat(header(refused, "Retry-After")).isEqualTo("7");
        assertThat(pair.inbox("b", RelayPair.PHONE_B)).isEmpty();
        assertThat(pair.a.counters()).containsEntry("overloadRefused", 1L);
        assertThat(pair.mediaA.bound).hasSize(1);
        assertThat(pair.a.state().mediaPortPairs()).isEqualTo(1);
        // A retransmission of the refused INVITE is answered from its transaction, not counted again.
        pair.fromPhoneA(invite("over-2", "z9hG4bK-o2"));
        assertThat(startLine(pair.atA())).startsWith("SIP/2.0 503");
        assertThat(pair.a.counters()).containsEntry("overloadRefused", 1L);

        // The first call ends: a call lingering after its end does not count against the maximum.
        pair.fromPhoneB(response(atB, 486, "tagB", null));
        pair.atB();
        assertThat(startLine(pair.atA())).startsWith("SIP/2.0 486");
        pair.fromPhoneA(invite("over-3", "z9hG4bK-o3"));
        pair.atA();
        assertThat(startLine(pair.atB())).startsWith("INVITE");
        assertThat(pair.a.counters()).containsEntry("overloadRefused", 1L);
    }

    @Test
    void anEmptyPortPoolAnswers503WithRetryAfterAtEitherRelayAndNoPortLeaks() {
        // One RTP/RTCP pair at relay b: the second call finds b full, a's port comes back at once.
        RelayPair pair = new RelayPair(c -> { }, c -> c.mediaPorts(30500, 30501));
        pair.fromPhoneA(invite("pool-1", "z9hG4bK-p1"));
        pair.atA();
        String first = pair.atB();
        pair.fromPhoneA(invite("pool-2", "z9hG4bK-p2"));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 100 Trying");
        String refused = pair.atA();
        assertThat(startLine(refused)).startsWith("SIP/2.0 503");
        assertThat(header(refused, "Retry-After")).isEqualTo(Long.toString(RelayConfig.DEFAULT_RETRY_AFTER.toSeconds()));
        assertThat(pair.b.counters()).containsEntry("overloadRefused", 1L);
        assertThat(pair.mediaB.bound).hasSize(1);
        assertThat(pair.mediaA.bound).hasSize(1);
        assertThat(pair.inbox("b", RelayPair.PHONE_B)).isEmpty();

        // And the same at relay a when its own pool is the one that ran out.
        RelayPair small = new RelayPair(c -> c.mediaPorts(30000, 30001), c -> { });
        small.fromPhoneA(invite("pool-3", "z9hG4bK-p3"));
        small.atA();
        small.atB();
        small.fromPhoneA(invite("pool-4", "z9hG4bK-p4"));
        small.atA();
        assertThat(startLine(small.atA())).startsWith("SIP/2.0 503");
        assertThat(small.a.counters()).containsEntry("overloadRefused", 1L);
        assertThat(small.mediaA.bound).hasSize(1);

        // Every call ends; every pool is full again.
        pair.fromPhoneB(response(first, 486, "tagB", null));
        pair.advance(Duration.ofSeconds(40));
        assertThat(pair.idle()).isTrue();
        assertThat(pair.mediaA.bound).isEmpty();
        assertThat(pair.mediaB.bound).isEmpty();
        assertThat(pair.a.counters()).containsEntry("faults", 0L);
    }
}

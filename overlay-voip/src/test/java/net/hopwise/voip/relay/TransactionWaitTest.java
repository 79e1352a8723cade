package net.hopwise.voip.relay;

import static net.hopwise.voip.relay.SipText.response;
import static net.hopwise.voip.relay.SipText.startLine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How long the relays remember a transaction after its final response: 64 T1 by default (RFC 3261's
 * Timers H and J), or the configured wait, on virtual time. A test with real phones keeps RFC's T1
 * and a short wait; before the wait existed, only a smaller T1 shortened it, and that made the
 * relays retransmit to phones that were merely slow.
 */
class TransactionWaitTest {

    /** A whole call from phone A to phone B and back to idle but for transactions; both relays forget calls at once. */
    private static void call(RelayPair pair, String callId) {
        pair.fromPhoneA(SipText.invite(callId, "z9hG4bK-w-1", SipText.SDP_A));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 100 Trying");
        String invite = pair.atB();
        pair.fromPhoneB(response(invite, 180, "tagB", null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 180 Ringing");
        pair.fromPhoneB(response(invite, 200, "tagB", SipText.SDP_B));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 200 OK");
        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-w-2", "tagA", "tagB", callId,
                1, "", null));
        pair.atB();
        pair.fromPhoneA(SipText.request("BYE", "sip:bob@127.0.0.1:5070", "z9hG4bK-w-3", "tagA", "tagB", callId,
                2, "", null));
        String bye = pair.atB();
        pair.fromPhoneB(response(bye, 200, null, null));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 200 OK");
    }

    private static boolean transactionsHeld(RelayPair pair) {
        RelayState a = pair.a.state();
        RelayState b = pair.b.state();
        return a.serverTransactions() + a.clientTransactions() + b.serverTransactions() + b.clientTransactions() > 0;
    }

    @Test
    void aConfiguredWaitForgetsTransactionsThatLongAfterTheirFinalResponseWithoutTouchingT1() {
        RelayPair pair = new RelayPair(c -> c.linger(Duration.ZERO).transactionWait(Duration.ofMillis(3200)),
                c -> c.linger(Duration.ZERO).transactionWait(Duration.ofMillis(3200)));
        assertThat(pair.a.config.t1()).isEqualTo(RelayConfig.DEFAULT_T1);
        call(pair, "call-wait");
        pair.advance(Duration.ofMillis(3100));
        assertThat(transactionsHeld(pair)).isTrue();
        pair.advance(Duration.ofMillis(200));
        assertThat(pair.idle()).isTrue();
        // Nothing was retransmitted to a phone on the way: every request was answered within T1.
        assertThat(pair.a.counters()).containsEntry("retransmissionsSent", 0L).containsEntry("transactionTimeouts", 0L);
        assertThat(pair.b.counters()).containsEntry("retransmissionsSent", 0L).containsEntry("transactionTimeouts", 0L);
    }

    @Test
    void withoutAWaitTransactionsStay64T1() {
        RelayPair pair = new RelayPair(c -> c.linger(Duration.ZERO), c -> c.linger(Duration.ZERO));
        call(pair, "call-default");
        pair.advance(Duration.ofSeconds(31));
        assertThat(transactionsHeld(pair)).isTrue();
        pair.advance(Duration.ofMillis(1100));
        assertThat(pair.idle()).isTrue();
    }

    @Test
    void theWaitFollowsT1UnlessSetAndMustBePositive() {
        RelayConfig.Builder b = RelayConfig.builder().advertisedHost("192.0.2.1")
                .timers(Duration.ofMillis(100), Duration.ofSeconds(1));
        assertThat(b.build().transactionWait()).isEqualTo(Duration.ofMillis(6400));
        assertThat(b.transactionWait(Duration.ofSeconds(5)).build().transactionWait()).isEqualTo(Duration.ofSeconds(5));
        assertThatThrownBy(() -> RelayConfig.builder().transactionWait(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("transactionWait");
    }
}

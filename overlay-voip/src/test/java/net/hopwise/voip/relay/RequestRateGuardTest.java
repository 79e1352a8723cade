package net.hopwise.voip.relay;

import static net.hopwise.voip.relay.SipText.startLine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The per-address request cap (pike's job): over the limit in a window an address's requests are
 * dropped unanswered until a whole block interval passes without it going over again; other
 * addresses are not touched; the addresses tracked are bounded. On virtual time.
 */
class RequestRateGuardTest {
    private static final long S = 1_000_000_000L;

    private static InetAddress address(int last) throws Exception {
        return InetAddress.getByAddress(new byte[] {10, 0, (byte) (last >> 8), (byte) last});
    }

    private static String register(int i) {
        return SipText.request("REGISTER", "sip:127.0.0.1", "z9hG4bK-r" + i, "tagA", null, "reg-" + i, i + 1,
                "Expires: 60\r\n", null);
    }

    @Test
    void offByDefaultEverythingPasses() throws Exception {
        assertThat(RelayConfig.builder().advertisedHost("127.0.0.1").build().requestRateLimit()).isEqualTo(RelayConfig.RequestRateLimit.OFF);
        RequestRateGuard g = new RequestRateGuard(RelayConfig.RequestRateLimit.OFF, 10);
        for (int i = 0; i < 10_000; i++) {
            assertThat(g.admit(address(1), i)).isTrue();
        }
        assertThat(g.tracked()).isZero();
    }

    @Test
    void overTheLimitAnAddressIsBlockedUntilAQuietBlockPassesAndAFlooderStaysBlocked() throws Exception {
        RequestRateGuard g = new RequestRateGuard(new RelayConfig.RequestRateLimit(3, Duration.ofSeconds(2),
                Duration.ofSeconds(10)), 100);
        InetAddress a = address(1);
        for (int i = 0; i < 3; i++) {
            assertThat(g.admit(a, i)).isTrue();
        }
        assertThat(g.admit(a, 3)).isFalse();
        assertThat(g.blocks()).isEqualTo(1);
        assertThat(g.admit(address(2), 4)).as("another address").isTrue();
        // A new window, under the limit: still blocked until 10 s after its last request over it.
        assertThat(g.admit(a, 5 * S)).isFalse();
        assertThat(g.blocked(5 * S)).isEqualTo(1);
        assertThat(g.admit(a, 10 * S + 3)).isTrue();
        assertThat(g.blocked(10 * S + 3)).isZero();
        // A flooder: each window over the limit moves the end of its block on.
        long t = 20 * S;
        for (int w = 0; w < 10; w++, t += 2 * S) {
            for (int i = 0; i < 5; i++) {
                g.admit(a, t + i);
            }
        }
        assertThat(g.admit(a, t)).isFalse();
        assertThat(g.blocks()).as("one block, extended").isEqualTo(2);
        // Its last window over the limit began at t - 2 s: blocked until 10 s after that.
        assertThat(g.admit(a, t + 7 * S)).isFalse();
        assertThat(g.admit(a, t + 9 * S)).isTrue();
    }

    @Test
    void theAddressesTrackedAreBoundedLeastRecentFirstOut() throws Exception {
        RequestRateGuard g = new RequestRateGuard(RelayConfig.RequestRateLimit.perTwoSeconds(1), 50);
        for (int i = 0; i < 1000; i++) {
            g.admit(address(i), i);
        }
        assertThat(g.tracked()).isEqualTo(50);
    }

    @Test
    void aLimitIsChecked() {
        assertThatThrownBy(() -> new RelayConfig.RequestRateLimit(-1, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
        assertThatThrownBy(() -> new RelayConfig.RequestRateLimit(5, Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
    }

    @Test
    void theRelayDropsAFloodingPhonesRequestsUnansweredAndCountsThem() {
        RelayPair pair = new RelayPair(c -> c.requestRateLimit(new RelayConfig.RequestRateLimit(5, Duration.ofSeconds(2),
                Duration.ofSeconds(10))), c -> { });
        for (int i = 0; i < 8; i++) {
            pair.fromPhoneA(register(i));
        }
        assertThat(pair.inbox("a", RelayPair.PHONE_A)).hasSize(5)
                .allSatisfy(m -> assertThat(startLine(m)).isEqualTo("SIP/2.0 200 OK"));
        pair.inbox("a", RelayPair.PHONE_A).clear();
        assertThat(pair.a.counters()).containsEntry("rateLimited", 3L).containsEntry("rateBlocks", 1L)
                .containsEntry("requestsFromPhones", 8L);
        InetSocketAddress other = new InetSocketAddress("127.0.0.2", 5080);
        pair.deliver(pair.a, register(100), other);
        assertThat(pair.inbox("a", other)).hasSize(1);
        // Bad bytes from the flooding address are dropped too, not answered 400.
        pair.deliver(pair.a, "OPTIONS sip:x SIP/2.0\r\nVia: broken\r\n\r\n", RelayPair.PHONE_A);
        assertThat(pair.inbox("a", RelayPair.PHONE_A)).isEmpty();
        assertThat(pair.a.counters()).containsEntry("rateLimited", 4L).containsEntry("malformedAnswered", 0L);
        pair.advance(Duration.ofSeconds(5));
        pair.fromPhoneA(register(8));
        assertThat(pair.inbox("a", RelayPair.PHONE_A)).as("still blocked 5 s on").isEmpty();
        pair.advance(Duration.ofSeconds(6));
        pair.fromPhoneA(register(9));
        assertThat(startLine(pair.atA())).isEqualTo("SIP/2.0 200 OK");
        assertThat(pair.a.counters()).containsEntry("faults", 0L);
    }
}

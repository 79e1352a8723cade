package net.hopwise.overlay.security.attack;

import static net.hopwise.overlay.security.attack.SecuredOverlay.MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.hopwise.overlay.security.SecureLinks;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** What {@link SecureLinks#handshakes()} shows an operator while handshakes are under way and under a flood. */
class HandshakeStateTest {
    @AfterAll
    static void noLeaks() {
        net.hopwise.overlay.testing.LeakDetection.assertNoLeaks();
    }

    @Test
    void theStateShowsHandshakesUnderWayAndWhatAFloodCost() {
        try (SecuredOverlay sim = new SecuredOverlay(3, (n, c) -> c.withMaxPendingHandshakes(64))) {
            sim.overlay.node("a");
            sim.overlay.node("b");
            sim.overlay.external("mallory", (from, d, now) -> { });
            sim.overlay.link("a", "b", MS);
            sim.overlay.link("mallory", "a", MS);
            sim.overlay.start("a"); // b is down and mallory no node: a's handshakes with both stay under way
            sim.overlay.runFor(2_000 * MS);
            SecureLinks.HandshakeState s = state(sim);
            assertThat(s.initiations()).isEqualTo(2);
            assertThat(s.pendingResponses()).isZero();
            assertThat(s.maxPendingResponses()).isEqualTo(64);
            assertThat(s.cookieReplies()).isZero();

            Random random = new Random(9);
            for (int i = 0; i < 30; i++) {
                sim.inject("mallory", "a", Forgeries.init(random, false));
            }
            for (int i = 0; i < 7; i++) {
                sim.inject("mallory", "a", Forgeries.init(random, true));
            }
            sim.overlay.runFor(100 * MS);
            s = state(sim);
            assertThat(s.cookieReplies()).as("every INIT without a valid cookie got one").isEqualTo(37);
            assertThat(s.badCookies()).isEqualTo(7);
            assertThat(s.pendingResponses()).as("no state for any of them").isZero();
            assertThat(s.rateRefused()).isZero();

            sim.overlay.start("b");
            assertThat(sim.awaitRoute("a", "b", 5_000)).isTrue();
            assertThat(state(sim).initiations()).as("mallory's only").isEqualTo(1);
        }
    }

    private static SecureLinks.HandshakeState state(SecuredOverlay sim) {
        var f = sim.engine("a").module(SecureLinks.class).handshakes();
        sim.overlay.runFor(MS);
        return f.join();
    }
}

package net.hopwise.overlay.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** RFC 5681 in packets. */
class RenoCongestionControllerTest {
    @Test
    void slowStartDoublesPerWindowThenAvoidanceAddsOnePerWindow() {
        RenoCongestionController c = new RenoCongestionController(4, 200);
        c.onAcknowledged(4, 1, true, 0);
        assertThat(c.window()).isEqualTo(8);
        c.onLoss(0);
        assertThat(c.window()).isEqualTo(4);
        assertThat(c.slowStartThreshold()).isEqualTo(4);
        c.onAcknowledged(4, 1, true, 0);
        assertThat(c.window()).isEqualTo(5);
    }

    @Test
    void timeoutGoesBackToOnePacketAndUnusedWindowsDoNotGrow() {
        RenoCongestionController c = new RenoCongestionController(4, 200);
        c.onAcknowledged(100, 1, false, 0);
        assertThat(c.window()).isEqualTo(4);
        c.onTimeout(0);
        assertThat(c.window()).isEqualTo(1);
        assertThat(c.slowStartThreshold()).isEqualTo(2);
        for (int i = 0; i < 3000; i++) { // congestion avoidance: about w^2/2 packets to reach w
            c.onAcknowledged(10, 1, true, 0);
        }
        assertThat(c.window()).isEqualTo(200);
    }
}

package net.hopwise.overlay.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** RFC 5681 in bytes, with RFC 3465's byte counting. */
class RenoCongestionControllerTest {
    private static final int S = 1500;

    @Test
    void slowStartGrowsByTheBytesAcknowledgedThenAvoidanceAddsOneSegmentPerWindow() {
        RenoCongestionController c = new RenoCongestionController(4 * S, 200 * S, S);
        for (int k = 0; k < 4; k++) {
            c.onAcknowledged(S, 1, true, 0);
        }
        assertThat(c.window()).isEqualTo(8 * S);
        c.onLoss(0);
        assertThat(c.window()).isEqualTo(4 * S);
        assertThat(c.slowStartThreshold()).isEqualTo(4 * S);
        for (int k = 0; k < 4; k++) {
            c.onAcknowledged(S, 1, true, 0); // a whole window acknowledged: about one segment more
        }
        assertThat(c.window()).isBetween(4L * S + S * 9 / 10, 5L * S); // 7381: each acknowledgement adds S*S/cwnd
    }

    @Test
    void smallPacketsGrowTheWindowByTheirBytesNotByTheirNumber() {
        RenoCongestionController small = new RenoCongestionController(4 * S, 200 * S, S);
        for (int k = 0; k < 12; k++) {
            small.onAcknowledged(500, 1, true, 0); // 12 packets of 500 B = 4 segments' worth
        }
        assertThat(small.window()).isEqualTo(8 * S);
    }

    @Test
    void slowStartCountsAtMostTwoSegmentsPerAcknowledgement() {
        RenoCongestionController c = new RenoCongestionController(4 * S, 200 * S, S);
        c.onAcknowledged(10 * S, 1, true, 0); // a stretch acknowledgement
        assertThat(c.window()).isEqualTo(6 * S);
    }

    @Test
    void timeoutGoesBackToOneSegmentAndUnusedWindowsDoNotGrow() {
        RenoCongestionController c = new RenoCongestionController(4 * S, 200 * S, S);
        c.onAcknowledged(100 * S, 1, false, 0);
        assertThat(c.window()).isEqualTo(4 * S);
        c.onTimeout(0);
        assertThat(c.window()).isEqualTo(S);
        assertThat(c.slowStartThreshold()).isEqualTo(2 * S);
        for (int i = 0; i < 30000; i++) { // congestion avoidance: about w^2/2 segments to reach w
            c.onAcknowledged(S, 1, true, 0);
        }
        assertThat(c.window()).isEqualTo(200 * S);
    }

    @Test
    void theDefaultInitialWindowIsRfc3390s() {
        assertThat(RenoCongestionController.factory().create(256L * S, S).window()).isEqualTo(4380);
        assertThat(RenoCongestionController.factory().create(256L * 1000, 1000).window()).isEqualTo(4000);
    }
}

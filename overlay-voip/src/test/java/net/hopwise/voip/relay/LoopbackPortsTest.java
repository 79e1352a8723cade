package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The tests' port band hands out blocks that never overlap until it has gone round, across its wrap
 * too and whatever the mix of sizes: a SIP port taken right after a callee's three media ports must
 * not be one of them, since SIPp binds its media after the check that found them free.
 */
class LoopbackPortsTest {

    private static boolean overlap(int[] a, int[] b) {
        return a[0] < b[0] + b[1] && b[0] < a[0] + a[1];
    }

    @Test
    void blocksOfMixedSizesTakenInTurnAreDisjointEvenAndInsideTheBandAcrossItsWrap() {
        long seed = 2026112602L;
        Random random = new Random(seed);
        int low = 12000;
        int high = 12200;
        for (int start = 150; start < 200; start += 2) { // near the end: the run wraps
            LoopbackPorts.Band band = new LoopbackPorts.Band(low, high, start);
            List<int[]> blocks = new ArrayList<>();
            int taken = 0;
            while (true) {
                int n = random.nextBoolean() ? 1 : 3; // a SIP port, or an RTP echo's three
                int step = Math.max(4, n + (n & 1));
                if (taken + step > (high - low) - 4) {
                    break; // short of a whole round, where blocks may meet again by design
                }
                int port = band.nextBlock(n);
                taken += step;
                int[] block = {port, n};
                assertThat(port % 2).as("seed %d, start %d: even", seed, start).isZero();
                assertThat(port).as("seed %d, start %d: inside the band", seed, start).isBetween(low, high - n);
                for (int[] other : blocks) {
                    assertThat(overlap(block, other)).as("seed %d, start %d: %d+%d against %d+%d", seed, start,
                            port, n, other[0], other[1]).isFalse();
                }
                blocks.add(block);
            }
            assertThat(blocks).as("seed %d, start %d", seed, start).hasSizeGreaterThan(30);
        }
    }

    @Test
    void theSequenceASignallingTestTakesKeepsTheCallersSipPortOffTheCalleesMedia() {
        // uas SIP port, uas media (three), uac SIP port, uac media: as SippThroughTwoRelaysTest takes them,
        // from a start where the band wraps between them.
        for (int start = 180; start < 200; start += 2) {
            LoopbackPorts.Band band = new LoopbackPorts.Band(12000, 12200, start);
            int uasSip = band.nextBlock(1);
            int uasMedia = band.nextBlock(3);
            int uacSip = band.nextBlock(1);
            // SIPp's RTP echo binds its media port and the one two above.
            assertThat(uacSip).as("start %d", start).isNotIn(uasMedia, uasMedia + 2).isNotEqualTo(uasSip);
            assertThat(band.nextBlock(3)).as("start %d", start).isNotIn(uasSip, uasMedia, uasMedia + 2, uacSip);
        }
    }
}

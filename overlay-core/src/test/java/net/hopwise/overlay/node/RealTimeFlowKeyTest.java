package net.hopwise.overlay.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A relay's flows, whose two ports step together call after call, spread over a hash table. */
class RealTimeFlowKeyTest {
    @Test
    void portsSteppingTogetherFillMostBucketsOfATableTheirSize() {
        int flows = 1000;
        int buckets = 2048; // what a HashMap holding 1000 entries has
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < flows; i++) {
            // As a VoIP relay allocates them: RTP ports in steps of 2 on both sides, one origin.
            int h = new RealTimeStage.RealTimeFlowKey(0x1234_5678_9ABCL, 30_000 + 2 * i, 40_000 + 2 * i).hashCode();
            used.add((h ^ (h >>> 16)) & (buckets - 1));
        }
        // A random spread of 1000 keys over 2048 buckets uses about 800; the record's own hash used 64.
        assertThat(used.size()).isGreaterThan(700);
    }
}

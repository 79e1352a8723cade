package net.hopwise.overlay.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.Test;

/**
 * The suite's leak check catches every leaked buffer, not a sample: each buffer of a run of them
 * dropped unreleased is reported, named by where it was allocated.
 */
class LeakDetectionTest {
    /** More than Netty's default sampling interval (128), so a sampling detector would miss most of them. */
    private static final int LEAKED = 200;

    @Test
    void everyLeakedBufferIsReportedWithWhereItWasAllocated() {
        LeakDetection.assertNoLeaks(); // whatever an earlier class in this JVM left is not this test's
        assertThat(ResourceLeakDetector.getLevel()).isNotEqualTo(ResourceLeakDetector.Level.DISABLED);
        for (int i = 0; i < LEAKED; i++) {
            leakAtDepth(PooledByteBufAllocator.DEFAULT, i);
        }
        StringBuilder reports = new StringBuilder();
        int found = 0;
        // Netty reports a leak once the buffer has been collected and a later allocation polls for it;
        // each assertNoLeaks forces a few collections and polls, and the reports may take more than one.
        for (int round = 0; round < 50 && found < LEAKED; round++) {
            try {
                LeakDetection.assertNoLeaks();
            } catch (AssertionError e) {
                reports.append(e.getMessage());
                found = countLeaks(reports.toString());
            }
        }
        assertThat(found).as("leaked buffers reported").isEqualTo(LEAKED);
        assertThat(reports.toString()).contains("leak").contains(LeakDetectionTest.class.getName() + ".leakAtDepth");
    }

    @Test
    void disabledIsRefusedRatherThanLettingLeaksPass() {
        assertThatThrownBy(() -> LeakDetection.level("disabled")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("simple, advanced or paranoid");
        assertThat(LeakDetection.level(" Paranoid ")).isEqualTo(ResourceLeakDetector.Level.PARANOID);
        assertThatThrownBy(() -> LeakDetection.level("loud")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a level");
    }

    /**
     * One buffer dropped unreleased, allocated {@code depth} calls deep: Netty reports a leak whose
     * record it has reported before only once, and each depth makes a stack of its own.
     */
    private static void leakAtDepth(ByteBufAllocator allocator, int depth) {
        if (depth > 0) {
            leakAtDepth(allocator, depth - 1);
            return;
        }
        ByteBuf dropped = allocator.directBuffer(64);
        dropped.writeInt(depth);
    }

    private static int countLeaks(String reports) {
        int n = 0;
        for (int at = reports.indexOf(" leaked"); at >= 0; at = reports.indexOf(" leaked", at + 1)) {
            n++;
        }
        return n;
    }
}

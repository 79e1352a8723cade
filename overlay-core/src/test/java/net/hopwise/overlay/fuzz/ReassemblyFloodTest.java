package net.hopwise.overlay.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.SplittableRandom;
import net.hopwise.overlay.forward.Reassembler;
import org.junit.jupiter.api.Test;

/**
 * A neighbour that sends nothing but short last fragments of distinct messages (what the fuzzer's
 * "fragments that never complete" become at a destination): the reassembler keeps no more partial
 * messages than its budget holds full fragments, and honest messages still complete meanwhile.
 */
class ReassemblyFloodTest {
    private static final long SECOND = 1_000_000_000L;
    private static final int FRAGMENT = 100;
    private static final long BUDGET = 2000;

    @Test
    void shortLastFragmentsOfDistinctMessagesCannotOutnumberTheBudget() {
        Reassembler r = new Reassembler(UnpooledByteBufAllocator.DEFAULT, 1000, BUDGET, SECOND, FRAGMENT);
        SplittableRandom random = new SplittableRandom(11);
        try {
            for (int id = 0; id < 10_000; id++) {
                int count = 2 + random.nextInt(8);
                // Empty or one byte: the byte budget alone barely sees them.
                accept(r, 7 + random.nextInt(3), id, count - 1, count, id % 2);
                assertThat(r.partialMessages()).as("after %d messages", id + 1)
                        .isLessThanOrEqualTo((int) (BUDGET / FRAGMENT));
                assertThat(r.bufferedBytes()).isLessThanOrEqualTo(BUDGET);
            }
            assertThat(r.evicted()).isGreaterThan(9_000);
            assertThat(accept(r, 99, 1, 0, 2, FRAGMENT).outcome()).isEqualTo(Reassembler.Outcome.PENDING);
            Reassembler.Result done = accept(r, 99, 1, 1, 2, 30);
            assertThat(done.outcome()).isEqualTo(Reassembler.Outcome.COMPLETE);
            assertThat(done.message().readableBytes()).isEqualTo(FRAGMENT + 30);
            done.message().release();
        } finally {
            r.close();
        }
    }

    private static Reassembler.Result accept(Reassembler r, long origin, int id, int index, int count, int length) {
        ByteBuf fragment = Unpooled.wrappedBuffer(new byte[length]);
        try {
            return r.accept(origin, id, index, count, fragment, 0);
        } finally {
            fragment.release();
        }
    }
}

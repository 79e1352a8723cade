package net.hopwise.overlay.forward;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.Test;

class ReassemblerTest {
    private static final int FRAG = 100;
    private static final long SECOND = 1_000_000_000L;

    private final Reassembler reassembler =
            new Reassembler(UnpooledByteBufAllocator.DEFAULT, 1000, 2000, SECOND, FRAG);

    @AfterContainer
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    private static byte[] message(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    private Reassembler.Result feed(long origin, int id, byte[] msg, int index, long now) {
        int count = Math.max(1, (msg.length + FRAG - 1) / FRAG);
        int from = index * FRAG;
        ByteBuf fragment = Unpooled.wrappedBuffer(msg, from, Math.min(FRAG, msg.length - from));
        try {
            return reassembler.accept(origin, id, index, count, fragment, now);
        } finally {
            fragment.release();
        }
    }

    @Property(tries = 50)
    void anyArrivalOrderWithDuplicatesRebuildsTheMessage(@ForAll @IntRange(min = 101, max = 1000) int length,
            @ForAll long seed) {
        Reassembler r = new Reassembler(UnpooledByteBufAllocator.DEFAULT, 1000, 2000, SECOND, FRAG);
        byte[] msg = message(length, seed);
        int count = (length + FRAG - 1) / FRAG;
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            order.add(i);
            order.add(i);
        }
        Collections.shuffle(order, new Random(seed));
        byte[] rebuilt = null;
        int completions = 0;
        for (int index : order) {
            int from = index * FRAG;
            ByteBuf fragment = Unpooled.wrappedBuffer(msg, from, Math.min(FRAG, length - from));
            Reassembler.Result result = r.accept(7, 1, index, count, fragment, 0);
            fragment.release();
            if (result.outcome() == Reassembler.Outcome.COMPLETE) {
                rebuilt = ByteBufUtil.getBytes(result.message());
                result.message().release();
                completions++;
            }
        }
        // The duplicates that arrive after completion start a new partial message, which times out.
        r.close();
        assertThat(completions).isGreaterThanOrEqualTo(1);
        assertThat(rebuilt).isEqualTo(msg);
    }

    @Test
    void incompleteMessageTimesOutAndFreesItsMemory() {
        byte[] msg = message(350, 1);
        feed(1, 1, msg, 0, 0);
        feed(1, 1, msg, 2, 0);
        assertThat(reassembler.bufferedBytes()).isEqualTo(200);
        assertThat(reassembler.nextDeadlineNanos()).isEqualTo(SECOND);
        assertThat(reassembler.expire(SECOND - 1)).isZero();
        assertThat(reassembler.expire(SECOND)).isEqualTo(2);
        assertThat(reassembler.bufferedBytes()).isZero();
        assertThat(reassembler.timedOut()).isEqualTo(1);
        assertThat(reassembler.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void memoryBudgetEvictsTheOldestPartialMessage() {
        // Budget 2000 bytes: three partial 900-byte holdings cannot coexist.
        for (int id = 1; id <= 3; id++) {
            byte[] msg = message(1000, id);
            for (int i = 0; i < 9; i++) {
                feed(1, id, msg, i, id);
            }
            assertThat(reassembler.bufferedBytes()).isLessThanOrEqualTo(2000);
        }
        assertThat(reassembler.evicted()).isEqualTo(1);
        assertThat(reassembler.partialMessages()).isEqualTo(2);
        reassembler.close();
        assertThat(reassembler.bufferedBytes()).isZero();
    }

    @Test
    void inconsistentFragmentsAreRejected() {
        ByteBuf tooLong = Unpooled.wrappedBuffer(new byte[FRAG + 1]);
        ByteBuf shortMiddle = Unpooled.wrappedBuffer(new byte[FRAG - 1]);
        ByteBuf full = Unpooled.wrappedBuffer(new byte[FRAG]);
        try {
            assertThat(reassembler.accept(1, 1, 0, 2, tooLong, 0).outcome()).isEqualTo(Reassembler.Outcome.REJECTED);
            assertThat(reassembler.accept(1, 1, 0, 2, shortMiddle, 0).outcome())
                    .isEqualTo(Reassembler.Outcome.REJECTED);
            // A message that would exceed the 1000-byte limit is refused before anything is buffered.
            assertThat(reassembler.accept(1, 2, 0, 11, full, 0).outcome())
                    .isEqualTo(Reassembler.Outcome.REJECTED);
        } finally {
            tooLong.release();
            shortMiddle.release();
            full.release();
        }
        assertThat(reassembler.bufferedBytes()).isZero();
    }
}

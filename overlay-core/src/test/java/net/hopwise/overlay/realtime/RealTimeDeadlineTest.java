package net.hopwise.overlay.realtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A link's sender with packets that carry deadlines of their own, on virtual time. */
class RealTimeDeadlineTest {
    private static final long MS = 1_000_000L;

    private final List<long[]> resent = new ArrayList<>(); // sequence, held
    private final List<String> evicted = new ArrayList<>();

    private RealTimeLinkSender<String> sender() {
        return new RealTimeLinkSender<>(RealTimeConfig.defaults(), new RealTimeLinkSender.Output<>() {
            @Override
            public void retransmit(long seq, String packet) {
                throw new AssertionError("the sender tells how long it held the packet");
            }

            @Override
            public void retransmit(long seq, String packet, long heldNanos) {
                resent.add(new long[] {seq, heldNanos});
            }

            @Override
            public void evicted(String packet) {
                evicted.add(packet);
            }
        });
    }

    @Test
    void aPacketIsResentOnlyBeforeItsOwnDeadlineAndNeverPastTheHistory() {
        RealTimeLinkSender<String> s = sender();
        s.sent("p0", 0, 30 * MS);
        s.sent("p1", 0, 500 * MS);
        s.sent("p2", 0);
        s.onNack(new long[] {0}, 1, 30 * MS);
        assertThat(resent).as("at its deadline a copy is useless").isEmpty();
        assertThat(s.refusedExpired()).isEqualTo(1);
        s.onNack(new long[] {1}, 1, 99 * MS);
        assertThat(resent).hasSize(1);
        assertThat(resent.get(0)).containsExactly(1, 99 * MS);
        s.onNack(new long[] {2}, 1, 100 * MS);
        assertThat(resent).as("the 100 ms history bounds a later deadline too").hasSize(1);
        assertThat(evicted).containsExactly("p0", "p1", "p2");
    }

    @Test
    void anEarlyDeadlineInTheMiddleDoesNotHoldBackTheOthers() {
        RealTimeLinkSender<String> s = sender();
        s.sent("p0", 0, 80 * MS);
        s.sent("p1", 10 * MS, 15 * MS);
        s.sent("p2", 20 * MS, 90 * MS);
        s.onNack(new long[] {0, 1, 2}, 3, 40 * MS);
        assertThat(resent).extracting(x -> x[0]).containsExactly(0L, 2L);
        assertThat(resent).extracting(x -> x[1]).containsExactly(40 * MS, 20 * MS);
    }
}

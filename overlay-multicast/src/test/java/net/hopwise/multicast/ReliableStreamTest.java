package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.List;
import java.util.SplittableRandom;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import org.junit.jupiter.api.Test;

/** The state of one reliable stream at a node, without a node: gaps, their back-off and retries, delivery. */
class ReliableStreamTest {
    private static final long MS = 1_000_000L;
    private static final StreamKey KEY = new StreamKey(NodeId.ofName("s"), GroupId.ofName("g"), 1, RoutingMetric.HOPS);

    private static ByteBuf packet(long seq, int fragment, int fragments) {
        ByteBuf b = new ReliablePacket(KEY, 7, seq, 0, fragment, fragments).encodeHeader(UnpooledByteBufAllocator.DEFAULT, 1);
        return b.writeByte((int) seq);
    }

    @Test
    void aGapIsAskedAfterItsBackOffThenOncePerRetryUntilItArrives() {
        ReliableStream s = new ReliableStream(KEY, false, 64, 250 * MS, 7, 0);
        s.restart(7, 0);
        SplittableRandom random = new SplittableRandom(1);
        s.insert(0, packet(0, 0, 1), 0, 40 * MS, random);
        s.insert(3, packet(3, 0, 1), 0, 40 * MS, random);
        assertThat(s.gapCount()).isEqualTo(2);
        assertThat(s.nextGapNanos()).isBetween(0L, 40 * MS);
        List<long[]> due = s.dueGaps(40 * MS, 100);
        assertThat(due).singleElement().satisfies(r -> assertThat(r).containsExactly(1, 2));
        assertThat(s.nextGapNanos()).isEqualTo(290 * MS);
        assertThat(s.dueGaps(100 * MS, 100)).isEmpty();
        assertThat(s.dueGaps(290 * MS, 100)).hasSize(1);
        s.insert(1, packet(1, 0, 1), 300 * MS, 40 * MS, random);
        s.insert(2, packet(2, 0, 1), 300 * MS, 40 * MS, random);
        assertThat(s.gapCount()).isZero();
        assertThat(s.nextGapNanos()).isEqualTo(Long.MAX_VALUE);
        s.clear();
    }

    @Test
    void aMemberDeliversWholeMessagesInOrderAndSkipsTheTailOfOneItJoinedInside() {
        ReliableStream s = new ReliableStream(KEY, false, 64, 250 * MS, 7, 0);
        s.restart(7, 5);
        s.delivering = true;
        SplittableRandom random = new SplittableRandom(1);
        s.insert(6, packet(6, 1, 2), 0, 0, random); // the second half of a message begun before the join
        s.insert(8, packet(8, 1, 2), 0, 0, random);
        assertThat(s.deliverable()).isEmpty();
        s.insert(5, packet(5, 0, 2), 0, 0, random);
        s.insert(7, packet(7, 0, 2), 0, 0, random);
        List<List<ByteBuf>> ready = s.deliverable();
        assertThat(ready).hasSize(2);
        assertThat(ready.get(0)).hasSize(2);
        assertThat(s.next).isEqualTo(9);
        s.clear();
    }
}

package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DropCounter;
import org.junit.jupiter.api.Test;

/** Reassembly at a member node: whole messages out, and bounded in number and time, every loss counted. */
class ReassemblyTest {
    private static final long MS = 1_000_000L;

    private static final class Count implements DropCounter {
        long n;

        @Override
        public String reason() {
            return "test";
        }

        @Override
        public void increment() {
            n++;
        }

        @Override
        public long count() {
            return n;
        }
    }

    private final Count incomplete = new Count();
    private final Count malformed = new Count();
    private final Reassembly reassembly = new Reassembly(2, 100, 2_000 * MS, incomplete, malformed);

    private static MulticastPacket fragment(long id, int index, int count) {
        return new MulticastPacket(RoutingMetric.HOPS, 8, NodeId.ofName("s"), GroupId.ofName("g"), id, 1, index, count);
    }

    private static ByteBuf bytes(String s) {
        return Unpooled.wrappedBuffer(s.getBytes());
    }

    @Test
    void fragmentsInAnyOrderMakeTheMessageAndDuplicatesAreIgnored() {
        assertThat(reassembly.add(fragment(1, 2, 3), bytes("C"), 0)).isNull();
        assertThat(reassembly.add(fragment(1, 0, 3), bytes("AA"), 0)).isNull();
        assertThat(reassembly.add(fragment(1, 0, 3), bytes("XX"), 0)).as("a duplicate").isNull();
        assertThat(new String(reassembly.add(fragment(1, 1, 3), bytes("B"), 0))).isEqualTo("AABC");
        assertThat(reassembly.pending()).isZero();
        assertThat(incomplete.n + malformed.n).isZero();
    }

    @Test
    void anIncompleteMessageExpiresAndTheOldestIsEvictedCounted() {
        reassembly.add(fragment(1, 0, 2), bytes("a"), 0);
        assertThat(reassembly.nextDeadlineNanos()).isEqualTo(2_000 * MS);
        reassembly.add(fragment(2, 0, 2), bytes("b"), 10 * MS);
        reassembly.add(fragment(3, 0, 2), bytes("c"), 20 * MS);
        assertThat(incomplete.n).as("the oldest made room").isEqualTo(1);
        assertThat(reassembly.add(fragment(1, 1, 2), bytes("a"), 30 * MS)).as("its fragments start anew").isNull();
        assertThat(incomplete.n).as("message 2 made room for it").isEqualTo(2);
        reassembly.expire(2_010 * MS);
        assertThat(reassembly.pending()).as("message 3 is not due yet").isEqualTo(2);
        reassembly.expire(2_020 * MS);
        assertThat(incomplete.n).as("message 3 timed out").isEqualTo(3);
        assertThat(reassembly.pending()).isEqualTo(1);
        reassembly.expire(2_030 * MS);
        assertThat(incomplete.n).isEqualTo(4);
        assertThat(reassembly.pending()).isZero();
        assertThat(reassembly.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void fragmentsThatDisagreeOrOverflowAreMalformed() {
        reassembly.add(fragment(1, 0, 2), bytes("a"), 0);
        assertThat(reassembly.add(fragment(1, 1, 3), bytes("b"), 0)).isNull();
        assertThat(malformed.n).isEqualTo(1);
        reassembly.add(fragment(2, 0, 2), Unpooled.wrappedBuffer(new byte[60]), 0);
        assertThat(reassembly.add(fragment(2, 1, 2), Unpooled.wrappedBuffer(new byte[60]), 0))
                .as("past maxMessageBytes").isNull();
        assertThat(malformed.n).isEqualTo(2);
    }
}

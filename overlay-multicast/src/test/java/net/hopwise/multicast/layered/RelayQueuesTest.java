package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import org.junit.jupiter.api.Test;

/**
 * A relay forwards layered data on receipt, each packet alone (the issue: "never batching"): a pair's
 * dispersion is the receiver's estimate, and a send that waits for the end of the loop's turn to go
 * out with the rest of it (UDP GSO) would send the pair back to back and read the next link's capacity
 * instead of the bottleneck's. The node's batching send is {@code send}; each layered packet must go
 * through {@code sendImmediately}, under either queue discipline.
 */
class RelayQueuesTest {
    private static final NodeId CHILD = NodeId.ofName("child");

    /** What the relay asked of its node: "immediately" or "batched", per packet. */
    private final List<String> sends = new ArrayList<>();
    private final LinkView link = (LinkView) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {LinkView.class}, (p, m, a) -> m.getName().equals("toString") ? "link" : null);
    private final ModuleContext context = (ModuleContext) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {ModuleContext.class}, (p, m, a) -> switch (m.getName()) {
                case "link" -> CHILD.equals(a[0]) ? link : null;
                case "sendImmediately" -> record("immediately", (ByteBuf) a[2]);
                case "send" -> record("batched", (ByteBuf) a[2]);
                case "toString" -> "context";
                default -> throw new UnsupportedOperationException(m.getName());
            });

    private boolean record(String how, ByteBuf body) {
        sends.add(how);
        body.release();
        return true;
    }

    private static DropCounter counter(String reason) {
        return new DropCounter() {
            long n;

            @Override
            public String reason() {
                return reason;
            }

            @Override
            public void increment() {
                n++;
            }

            @Override
            public long count() {
                return n;
            }
        };
    }

    @Test
    void underDropTailEachPacketLeavesAloneAsItArrives() {
        DropCounter unsent = counter("unsent");
        RelayQueues queues = new RelayQueues(context, unsent, counter("full"));
        for (int i = 0; i < 8; i++) {
            queues.send(CHILD, "s", Unpooled.buffer(512).writeZero(512), 1_000L * i);
            assertThat(sends).as("sent at once, packet %d", i).hasSize(i + 1);
        }
        assertThat(sends).containsOnly("immediately");
        assertThat(unsent.count()).isZero();
    }

    @Test
    void underFairQueuingEachPacketLeavesAloneInItsTurn() {
        RelayQueues queues = new RelayQueues(context, counter("unsent"), counter("full"));
        queues.set(RelayQueueing.fair(1_000_000));
        long now = 0;
        for (int i = 0; i < 8; i++) {
            queues.send(CHILD, i % 2 == 0 ? "s1" : "s2", Unpooled.buffer(512).writeZero(512), now);
        }
        while (queues.nextDeadlineNanos() != Long.MAX_VALUE) {
            now = queues.nextDeadlineNanos();
            queues.onTimer(now);
        }
        assertThat(sends).hasSize(8).containsOnly("immediately");
        queues.close();
    }

    @Test
    void aPacketForANeighbourWithoutALinkIsCountedNotSent() {
        DropCounter unsent = counter("unsent");
        RelayQueues queues = new RelayQueues(context, unsent, counter("full"));
        ByteBuf body = Unpooled.buffer(16).writeZero(16);
        queues.send(NodeId.ofName("gone"), "s", body, 0);
        assertThat(sends).isEmpty();
        assertThat(unsent.count()).isEqualTo(1);
        assertThat(body.refCnt()).isZero();
    }
}

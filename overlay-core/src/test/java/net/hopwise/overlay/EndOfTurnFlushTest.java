package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Sends made on the node's event loop are flushed once at the end of the loop's turn, not once
 * each: a burst to one neighbour from one task leaves in one flush (one GSO write where the kernel
 * has it), and a lone send is flushed in the same turn, before the next queued task runs. A
 * session's message sent on the loop is handed over and flushed before its send returns: a relay's
 * INVITE never waits for the rest of the turn.
 */
class EndOfTurnFlushTest {
    private static final int BURST = 20;

    @AfterAll
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    /** Counts the flushes and datagram writes that reach the socket while {@code counting} is set. */
    private static final class FlushCounter extends ChannelOutboundHandlerAdapter {
        boolean counting;
        int flushes;
        int writes;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (counting && msg instanceof DatagramPacket) {
                writes++;
            }
            ctx.write(msg, promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            if (counting) {
                flushes++;
            }
            ctx.flush();
        }
    }

    /** What the counter saw: during the sending task, and by the next task the loop ran. */
    private record Seen(int flushesDuringTask, int writesDuringTask, int flushes, int writes) { }

    private static Seen sendInOneTurn(OverlayNode node, FlushCounter counter, Consumer<Integer> sendOne, int count)
            throws Exception {
        CompletableFuture<Seen> seen = new CompletableFuture<>();
        node.eventLoop().execute(() -> {
            counter.counting = true;
            counter.flushes = 0;
            counter.writes = 0;
            for (int i = 0; i < count; i++) {
                sendOne.accept(i);
            }
            int during = counter.flushes;
            int writesDuring = counter.writes;
            // Queued after the sends: it runs in the same turn, after whatever they queued.
            node.eventLoop().execute(() -> {
                counter.counting = false;
                seen.complete(new Seen(during, writesDuring, counter.flushes, counter.writes));
            });
        });
        return seen.get(10, TimeUnit.SECONDS);
    }

    @Test
    void sendsInOneLoopTurnLeaveInOneFlushAndALoneSendInTheSameTurn() throws Exception {
        try (NodeRuntime runtime = NodeRuntime.builder().threads(1).build()) {
            OverlayNode a = OverlayNode.start(NodeConfig.builder("eot-a").loopback(0).build(), runtime);
            OverlayNode b = OverlayNode.start(NodeConfig.builder("eot-b").loopback(0).build(), runtime);
            try {
                a.addNeighbour(new NeighbourConfig("eot-b", b.localAddress()));
                b.addNeighbour(new NeighbourConfig("eot-a", a.localAddress()));
                AtomicInteger received = new AtomicInteger();
                b.openPort(7, m -> received.incrementAndGet());
                OverlayPort port = a.openPort(7, m -> { });
                RoutingMetric realTimeMetric = a.config().realTime().metric();
                Eventually.await("a reaches b", () -> a.reachableNodes(RoutingMetric.HOPS).contains("eot-b")
                        && a.reachableNodes(realTimeMetric).contains("eot-b"));
                FlushCounter counter = new FlushCounter();
                a.addChannelHandler("flush-counter", counter);
                RealTimeFlow flow = port.openRealTime("eot-b", 7);
                byte[] payload = new byte[160];

                Seen realTime = sendInOneTurn(a, counter, i -> {
                    ByteBuf p = Unpooled.wrappedBuffer(payload);
                    assertThat(flow.send(p)).isEqualTo(SendResult.ACCEPTED);
                    p.release();
                }, BURST);
                assertThat(realTime.flushesDuringTask()).isZero();
                assertThat(realTime.flushes()).isEqualTo(1);
                assertThat(realTime.writes()).isPositive();
                Eventually.await("b receives the real-time burst", () -> received.get() == BURST);

                NodeId bId = b.id();
                Seen bestEffort = sendInOneTurn(a, counter,
                        i -> assertThat(port.send(bId, 7, payload, RoutingMetric.HOPS)).isEqualTo(SendResult.ACCEPTED),
                        BURST);
                assertThat(bestEffort.flushesDuringTask()).isZero();
                assertThat(bestEffort.flushes()).isEqualTo(1);
                Eventually.await("b receives the best-effort burst", () -> received.get() == 2 * BURST);

                Seen lone = sendInOneTurn(a, counter, i -> {
                    ByteBuf p = Unpooled.wrappedBuffer(payload);
                    flow.send(p);
                    p.release();
                }, 1);
                assertThat(lone.flushes()).isEqualTo(1);
                assertThat(lone.writes()).isEqualTo(1);
                Eventually.await("b receives the lone send", () -> received.get() == 2 * BURST + 1);
            } finally {
                b.stop();
                a.stop();
            }
        }
    }

    @Test
    void aSessionMessageSentOnTheLoopLeavesBeforeSendReturns() throws Exception {
        try (NodeRuntime runtime = NodeRuntime.builder().threads(1).build()) {
            OverlayNode a = OverlayNode.start(NodeConfig.builder("eot-sa").loopback(0).build(), runtime);
            OverlayNode b = OverlayNode.start(NodeConfig.builder("eot-sb").loopback(0).build(), runtime);
            try {
                a.addNeighbour(new NeighbourConfig("eot-sb", b.localAddress()));
                b.addNeighbour(new NeighbourConfig("eot-sa", a.localAddress()));
                AtomicInteger received = new AtomicInteger();
                b.acceptSessions(9, s -> m -> received.incrementAndGet());
                Eventually.await("a and b reach each other",
                        () -> a.reachableNodes(a.config().defaultMetric()).contains("eot-sb")
                                && b.reachableNodes(b.config().defaultMetric()).contains("eot-sa"));
                ReliableSession session = a.openSession(9, "eot-sb", 9, m -> { });
                FlushCounter counter = new FlushCounter();
                a.addChannelHandler("flush-counter", counter);
                byte[] payload = new byte[300];

                Seen lone = sendInOneTurn(a, counter,
                        i -> assertThat(session.send(payload)).isEqualTo(SendResult.ACCEPTED), 1);
                // Written and flushed inside send, not at the end of the turn.
                assertThat(lone.writesDuringTask()).isEqualTo(1);
                assertThat(lone.flushesDuringTask()).isEqualTo(1);
                assertThat(lone.flushes()).isEqualTo(1);
                Eventually.await("b receives the lone message", () -> received.get() == 1);
            } finally {
                b.stop();
                a.stop();
            }
        }
    }
}

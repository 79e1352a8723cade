package net.hopwise.overlay.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.Test;

/**
 * A session copies a one-packet message into a pooled buffer on the caller's thread and hands it to
 * the event loop later: whatever the node or the session is doing meanwhile (delivering, closing,
 * stopping), every such buffer is sent or released, exactly once.
 */
class ReliableSessionHandoffTest {
    private static final int MESSAGES = 2000;

    @Test
    void oneAndManyPacketMessagesArriveInOrderAndNothingLeaks() {
        NodeRuntime runtime = NodeRuntime.create(2);
        OverlayNode a = start("a", runtime);
        OverlayNode b = start("b", runtime);
        try {
            link(a, b);
            ConcurrentLinkedQueue<byte[]> received = new ConcurrentLinkedQueue<>();
            ReliableSession in = b.openSession(7, "a", 7, m -> received.add(m.payloadBytes()));
            ReliableSession out = a.openSession(7, "b", 7, m -> {});
            int longEvery = 50;
            for (int i = 0; i < MESSAGES; i++) {
                // Mostly one packet (the caller-thread copy), now and then several (split on the loop).
                byte[] m = new byte[i % longEvery == 0 ? 5000 : 1000];
                ByteBuffer.wrap(m).putInt(i).putInt(m.length - 4, i);
                while (out.send(m) == SendResult.BACK_PRESSURED) {
                    Eventually.await("session writable", out::isWritable);
                }
            }
            Eventually.await("all messages at b", () -> received.size() >= MESSAGES);
            int i = 0;
            for (byte[] m : received) {
                assertThat(m.length).as("message %d", i).isEqualTo(i % longEvery == 0 ? 5000 : 1000);
                assertThat(ByteBuffer.wrap(m).getInt()).as("message %d", i).isEqualTo(i);
                assertThat(ByteBuffer.wrap(m).getInt(m.length - 4)).as("message %d", i).isEqualTo(i);
                i++;
            }
            in.close();
            out.close();
        } finally {
            a.stop();
            b.stop();
            runtime.close();
        }
        LeakDetection.assertNoLeaks();
    }

    @Test
    void messagesStillHandedOverWhenTheSessionClosesOrTheNodeStopsAreReleased() {
        NodeRuntime runtime = NodeRuntime.create(2);
        OverlayNode a = start("a", runtime);
        OverlayNode b = start("b", runtime);
        try {
            link(a, b);
            b.openSession(7, "a", 7, m -> {});
            b.openSession(8, "a", 8, m -> {});
            ReliableSession closing = a.openSession(7, "b", 7, m -> {});
            ReliableSession stopping = a.openSession(8, "b", 8, m -> {});
            byte[] m = new byte[1000];
            // Fill both sessions as fast as they take messages, then close one and stop the node at
            // once: some messages are still on their way to the event loop.
            while (closing.send(m) == SendResult.ACCEPTED) {
                stopping.send(m);
            }
            closing.close();
            assertThat(closing.send(m)).isEqualTo(SendResult.CLOSED);
            while (stopping.send(m) == SendResult.ACCEPTED) {
                // fill it again
            }
            a.stop();
            assertThat(stopping.send(m)).isEqualTo(SendResult.CLOSED);
        } finally {
            a.stop();
            b.stop();
            runtime.close();
        }
        LeakDetection.assertNoLeaks();
    }

    private static OverlayNode start(String name, NodeRuntime runtime) {
        return OverlayNode.start(NodeConfig.builder(name).loopback(0).defaultMetric(RoutingMetric.HOPS).build(),
                runtime);
    }

    private static void link(OverlayNode a, OverlayNode b) {
        a.addNeighbour(new NeighbourConfig(b.name(), b.localAddress()));
        b.addNeighbour(new NeighbourConfig(a.name(), a.localAddress()));
        Eventually.await("a and b reach each other", () -> a.reachableNodes(RoutingMetric.HOPS).contains("b")
                && b.reachableNodes(RoutingMetric.HOPS).contains("a"));
    }
}

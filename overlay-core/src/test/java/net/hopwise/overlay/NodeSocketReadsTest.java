package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.HeldLoop;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The node's socket is read until it is empty (up to {@link OverlayNode#READS_PER_WAKEUP} reads) each
 * time its loop wakes, not once: it carries all of a node's traffic, and on a loop that also serves
 * many sockets of an application (a relay's phones) one read per wake-up let its backlog grow.
 */
class NodeSocketReadsTest {
    /** More than the eight datagrams one recvmmsg takes, so that no single read can hold them all. */
    private static final int QUEUED = 24;

    @AfterAll
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    /** Counts datagrams between read-completes: one batch per wake-up of the loop for this socket. */
    private static final class ReadBatches extends ChannelInboundHandlerAdapter {
        final List<Integer> batches = new CopyOnWriteArrayList<>();
        volatile int total;
        private int current;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof DatagramPacket) {
                current++;
                total++;
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (current > 0) {
                batches.add(current);
                current = 0;
            }
            ctx.fireChannelReadComplete();
        }
    }

    @Test
    @SuppressWarnings("try") // the held loop is only closed
    void datagramsWaitingInTheNodesSocketAreReadInOneWakeUp() throws Exception {
        for (TransportKind transport : List.of(TransportKind.AUTO, TransportKind.NIO)) {
            try (NodeRuntime runtime = NodeRuntime.builder().threads(1).transport(transport).build()) {
                OverlayNode node = OverlayNode.start(NodeConfig.builder("reads-" + transport).loopback(0).build(),
                        runtime);
                try {
                    ReadBatches counter = new ReadBatches();
                    node.addChannelHandler("read-batches", counter);
                    InetSocketAddress to = node.localAddress();
                    // The loop waits while the datagrams queue up in its socket, as it does while a turn
                    // serves other sockets.
                    try (HeldLoop held = HeldLoop.hold(node);
                            DatagramSocket sender = new DatagramSocket(0, to.getAddress())) {
                        byte[] junk = new byte[40];
                        for (int i = 0; i < QUEUED; i++) {
                            sender.send(new java.net.DatagramPacket(junk, junk.length, to));
                        }
                    }
                    // On the batches, not the running total: the total is complete before the read-complete
                    // that records the last batch.
                    Eventually.await("the node reads every datagram",
                            () -> counter.batches.stream().mapToInt(Integer::intValue).sum() == QUEUED);
                    // One read per wake-up takes one datagram (GRO, NIO) or eight (recvmmsg) per batch.
                    assertThat(counter.batches).as("datagrams per wake-up on %s", runtime.transport())
                            .anySatisfy(batch -> assertThat(batch).isGreaterThan(8));
                } finally {
                    node.stop();
                }
            }
        }
    }
}

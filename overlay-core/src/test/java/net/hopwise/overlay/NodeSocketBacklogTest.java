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
 * A backlog of datagrams sent one by one (no GSO run to coalesce them, so one read each) is taken
 * from the node's socket in a single wake-up of its loop, as long as it is within
 * {@link OverlayNode#READS_PER_WAKEUP}: at load the node's socket carries as much as all of a
 * relay's phone sockets together, and a cap of sixteen reads let it age past the egress deadline.
 */
class NodeSocketBacklogTest {
    /** More than the sixteen reads per wake-up the node had, fewer than it has. */
    private static final int QUEUED = 40;

    @AfterAll
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    @Test
    @SuppressWarnings("try") // the held loop is only closed
    void aBacklogOfSingleDatagramsIsReadInOneWakeUp() throws Exception {
        for (TransportKind transport : List.of(TransportKind.AUTO, TransportKind.NIO)) {
            try (NodeRuntime runtime = NodeRuntime.builder().threads(1).transport(transport).build()) {
                OverlayNode node = OverlayNode.start(NodeConfig.builder("backlog-" + transport).loopback(0).build(),
                        runtime);
                try {
                    List<Integer> batches = new CopyOnWriteArrayList<>();
                    int[] current = {0};
                    int[] total = {0};
                    node.addChannelHandler("read-batches", new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            if (msg instanceof DatagramPacket) {
                                current[0]++;
                            }
                            ctx.fireChannelRead(msg);
                        }

                        @Override
                        public void channelReadComplete(ChannelHandlerContext ctx) {
                            if (current[0] > 0) {
                                total[0] += current[0];
                                batches.add(current[0]);
                                current[0] = 0;
                            }
                            ctx.fireChannelReadComplete();
                        }
                    });
                    InetSocketAddress to = node.localAddress();
                    try (HeldLoop held = HeldLoop.hold(node);
                            DatagramSocket sender = new DatagramSocket(0, to.getAddress())) {
                        byte[] junk = new byte[40];
                        for (int i = 0; i < QUEUED; i++) {
                            sender.send(new java.net.DatagramPacket(junk, junk.length, to));
                        }
                    }
                    Eventually.await("the node reads every datagram",
                            () -> batches.stream().mapToInt(Integer::intValue).sum() == QUEUED);
                    assertThat(batches).as("datagrams per wake-up on %s", runtime.transport())
                            .containsExactly(QUEUED);
                } finally {
                    node.stop();
                }
            }
        }
    }
}

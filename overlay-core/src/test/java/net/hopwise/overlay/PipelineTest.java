package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.spi.StagePosition;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/** A running node's stages are its channel pipeline's handlers, and a user's handler goes beside them. */
class PipelineTest {
    /** Counts the frames that pass between the link and routing stages: a module stage of its own. */
    static final class FrameTap implements OverlayModule {
        final AtomicLong frames = new AtomicLong();

        @Override
        public String name() {
            return "tap";
        }

        @Override
        public void install(ModuleContext context) {
            context.addStage("frame-tap", StagePosition.after("link"), new Stage() {
                @Override
                public void onFrame(Frame frame, FrameSink next) {
                    frames.incrementAndGet();
                    next.accept(frame);
                }
            });
        }
    }

    /** Counts the datagrams that pass both ways, and passes them on. */
    static final class DatagramTap extends ChannelDuplexHandler {
        final AtomicLong in = new AtomicLong();
        final AtomicLong out = new AtomicLong();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof DatagramPacket) {
                in.incrementAndGet();
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            out.incrementAndGet();
            ctx.write(msg, promise);
        }
    }

    @Test
    void theStagesAreNamedHandlersInTrafficOrderAndAUserHandlerSeesTheDatagrams() {
        FrameTap moduleTap = new FrameTap();
        try (NodeRuntime runtime = NodeRuntime.create(1)) {
            OverlayNode a = OverlayNode.start(NodeConfig.builder("a").loopback(0).module(moduleTap).build(), runtime);
            OverlayNode b = OverlayNode.start(NodeConfig.builder("b").loopback(0).build(), runtime);
            try {
                assertThat(a.pipelineNames()).containsSubsequence(OverlayNode.IMPAIRMENT_HANDLER,
                        OverlayNode.FRAME_HANDLER, "link", "frame-tap", "routing", "reliable-link", "real-time",
                        "forwarding", "session", "delivery", "unclaimed");
                DatagramTap tap = new DatagramTap();
                a.addChannelHandler("capture", tap);
                List<String> names = a.pipelineNames();
                assertThat(names.indexOf("capture")).isEqualTo(names.indexOf(OverlayNode.FRAME_HANDLER) - 1);
                assertThat(names.indexOf("capture")).isGreaterThan(names.indexOf(OverlayNode.IMPAIRMENT_HANDLER));
                assertThatThrownBy(() -> a.addChannelHandler("capture", new DatagramTap()))
                        .isInstanceOf(IllegalArgumentException.class);

                a.addNeighbour(new NeighbourConfig("b", loopback(b)));
                b.addNeighbour(new NeighbourConfig("a", loopback(a)));
                Eventually.await("b routes to a", () -> b.reachableNodes(b.config().defaultMetric()).contains("a"));
                List<String> got = new CopyOnWriteArrayList<>();
                a.openPort(7, m -> got.add(new String(m.payloadBytes(), StandardCharsets.UTF_8)));
                assertThat(b.openPort(7, m -> {}).send("a", 7, "through the pipeline".getBytes(StandardCharsets.UTF_8)))
                        .isEqualTo(SendResult.ACCEPTED);
                Eventually.await("the message reached a", () -> got.contains("through the pipeline"));

                assertThat(tap.in.get()).isPositive();
                assertThat(tap.out.get()).isPositive();
                // Every datagram that passed the frame check reached the module's stage after the link stage.
                assertThat(moduleTap.frames.get()).isPositive();
            } finally {
                b.stop();
                a.stop();
            }
        }
    }

    @Test
    void aDatagramStageIsAHandlerBetweenTheUsersAndTheFrameStageAndSealsWhatLeaves() {
        net.hopwise.overlay.node.DatagramStageTest.Wrapping wa = new net.hopwise.overlay.node.DatagramStageTest.Wrapping();
        net.hopwise.overlay.node.DatagramStageTest.Wrapping wb = new net.hopwise.overlay.node.DatagramStageTest.Wrapping();
        try (NodeRuntime runtime = NodeRuntime.create(1)) {
            OverlayNode a = OverlayNode.start(NodeConfig.builder("a").loopback(0).module(wa).build(), runtime);
            OverlayNode b = OverlayNode.start(NodeConfig.builder("b").loopback(0).module(wb).build(), runtime);
            try {
                a.addChannelHandler("capture", new DatagramTap());
                List<String> names = a.pipelineNames();
                assertThat(names).containsSubsequence(OverlayNode.IMPAIRMENT_HANDLER, "capture", "seal",
                        OverlayNode.FRAME_HANDLER, "link");
                assertThat(names.indexOf("seal")).isEqualTo(names.indexOf(OverlayNode.FRAME_HANDLER) - 1);
                a.addNeighbour(new NeighbourConfig("b", loopback(b)));
                b.addNeighbour(new NeighbourConfig("a", loopback(a)));
                Eventually.await("b routes to a", () -> b.reachableNodes(b.config().defaultMetric()).contains("a"));
                List<Integer> got = new CopyOnWriteArrayList<>();
                a.openPort(7, m -> got.add(m.payload().readableBytes()));
                assertThat(b.openPort(7, m -> {}).send("a", 7, new byte[3_000])).isEqualTo(SendResult.ACCEPTED);
                Eventually.await("the message reached a", () -> got.contains(3_000));
                assertThat(wb.sealedSizes).isNotEmpty().allSatisfy(size -> assertThat(size).isLessThanOrEqualTo(1200));
            } finally {
                b.stop();
                a.stop();
            }
        }
    }

    @Test
    void aModulesApiIsFetchedByTypeAndAMissingOneIsAClearError() {
        try (OverlayNode a = OverlayNode.start(NodeConfig.builder("a").loopback(0).build())) {
            assertThatThrownBy(() -> a.module(Runnable.class)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no module installed on node a offers java.lang.Runnable");
        }
    }

    private static InetSocketAddress loopback(OverlayNode n) {
        return new InetSocketAddress("127.0.0.1", n.localAddress().getPort());
    }
}

package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import java.util.concurrent.atomic.AtomicInteger;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.spi.StagePosition;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * A module's packets sent with {@code sendImmediately} leave one by one, never joined into a run of
 * datagrams sent together (UDP GSO), as packet pairs must; ordinary sends to one neighbour may be.
 */
class ImmediateSendTest {
    private static final int TYPE = 100;

    /** Sends bursts of equal packets to a neighbour, one way or the other, and counts what arrives. */
    static final class Burst implements OverlayModule {
        final AtomicInteger received = new AtomicInteger();
        ModuleContext context;

        @Override
        public String name() {
            return "burst";
        }

        @Override
        public void install(ModuleContext ctx) {
            this.context = ctx;
            ctx.registerPacketType(TYPE, "burst");
            ctx.addStage("burst", StagePosition.last(), new Stage() {
                @Override
                public boolean takes(int type) {
                    return type == TYPE;
                }

                @Override
                public void onFrame(Frame frame, FrameSink next) {
                    received.incrementAndGet();
                }
            });
        }

        void burst(String neighbour, int count, boolean immediately) {
            context.execute(() -> {
                LinkView link = context.link(NodeId.ofName(neighbour));
                for (int i = 0; i < count; i++) {
                    var body = Unpooled.wrappedBuffer(new byte[500]);
                    if (immediately) {
                        context.sendImmediately(link, TYPE, body);
                    } else {
                        context.send(link, TYPE, body);
                    }
                }
            });
        }
    }

    @Test
    void immediateSendsAreNeverJoinedIntoSegmentedRuns() {
        assumeTrue(io.netty.channel.epoll.EpollDatagramChannel.isSegmentedDatagramPacketSupported(), "UDP GSO (epoll) unavailable");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Burst fromA = new Burst();
        Burst atB = new Burst();
        try (NodeRuntime runtime = NodeRuntime.builder().threads(1).transport(TransportKind.EPOLL).udpOffload(true)
                .build()) {
            OverlayNode a = OverlayNode.start(NodeConfig.builder("imm-a").loopback(0).meterRegistry(registry)
                    .module(fromA).build(), runtime);
            OverlayNode b = OverlayNode.start(NodeConfig.builder("imm-b").loopback(0).module(atB).build(), runtime);
            try {
                a.addNeighbour(new NeighbourConfig("imm-b", b.localAddress()));
                b.addNeighbour(new NeighbourConfig("imm-a", a.localAddress()));
                Eventually.await("a reaches b", () -> a.reachableNodes(RoutingMetric.HOPS).contains("imm-b"));

                double before = segmentedSends(registry);
                fromA.burst("imm-b", 20, true);
                Eventually.await("b got the immediate burst", () -> atB.received.get() == 20);
                assertThat(segmentedSends(registry)).isEqualTo(before);

                fromA.burst("imm-b", 20, false);
                Eventually.await("b got the ordinary burst", () -> atB.received.get() == 40);
                assertThat(segmentedSends(registry)).isGreaterThan(before);
            } finally {
                b.stop();
                a.stop();
            }
        }
    }

    private static double segmentedSends(SimpleMeterRegistry registry) {
        return registry.find("hopwise.node.udp.segmented.sends").tag("node", "imm-a").functionCounter().count();
    }
}

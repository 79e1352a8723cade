package net.hopwise.overlay.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.Test;

/** A chain a-b-c-d on virtual time: hop limits, back-pressure, links removed and added at runtime. */
class ForwardingLimitsTest {
    private static final long MS = 1_000_000L;

    private static VirtualOverlay chain(int hopLimit) {
        VirtualOverlay overlay = new VirtualOverlay(5, b -> b.hopLimit(hopLimit));
        for (String n : List.of("a", "b", "c", "d")) {
            overlay.node(n);
        }
        overlay.link("a", "b", 2 * MS);
        overlay.link("b", "c", 2 * MS);
        overlay.link("c", "d", 2 * MS);
        overlay.startAll();
        overlay.runFor(2_000 * MS);
        return overlay;
    }

    private static SendResult send(VirtualOverlay overlay, String from, String to) {
        return overlay.engine(from).send(1, NodeId.ofName(to), 7, Unpooled.wrappedBuffer(new byte[8]),
                RoutingMetric.HOPS, overlay.now());
    }

    @Test
    void packetsDieWhenTheirHopLimitRunsOut() {
        try (VirtualOverlay overlay = chain(2)) {
            List<String> got = new ArrayList<>();
            overlay.engine("c").openPort(7, m -> got.add("c"));
            overlay.engine("d").openPort(7, m -> got.add("d"));
            assertThat(send(overlay, "a", "c")).isEqualTo(SendResult.ACCEPTED);
            assertThat(send(overlay, "a", "d")).isEqualTo(SendResult.ACCEPTED);
            overlay.runFor(50 * MS);
            assertThat(got).containsExactly("c");
            assertThat(overlay.engine("c").counters().drops(DropReason.HOP_LIMIT)).isEqualTo(1);
        }
    }

    @Test
    void aFullSocketBackPressuresTheSender() {
        try (VirtualOverlay overlay = chain(32)) {
            overlay.writable(false);
            assertThat(send(overlay, "a", "d")).isEqualTo(SendResult.BACK_PRESSURED);
            overlay.writable(true);
            assertThat(send(overlay, "a", "d")).isEqualTo(SendResult.ACCEPTED);
        }
    }

    @Test
    void linksRemovedAndAddedAtRuntimeChangeRoutes() {
        try (VirtualOverlay overlay = chain(32)) {
            NodeStack b = overlay.engine("b");
            assertThat(b.router().nextHop(NodeId.ofName("d"), RoutingMetric.HOPS)).isEqualTo(NodeId.ofName("c"));
            assertThat(b.removeNeighbour("c", overlay.now())).isTrue();
            assertThat(b.removeNeighbour("c", overlay.now())).isFalse();
            overlay.runFor(100 * MS);
            // The link is gone from b's side at once; c's side declares it dead after missing hellos.
            assertThat(b.router().nextHop(NodeId.ofName("d"), RoutingMetric.HOPS)).isNull();
            assertThat(overlay.events()).anySatisfy(e -> {
                assertThat(e.kind()).isEqualTo(NodeEvent.Kind.NEIGHBOUR_REMOVED);
                assertThat(e.peer()).isEqualTo("c");
            });
            overlay.runFor(2_000 * MS);
            assertThat(overlay.engine("a").router().nextHop(NodeId.ofName("d"), RoutingMetric.HOPS)).isNull();
            assertThat(overlay.engine("c").neighbour(NodeId.ofName("b")).status().name()).isEqualTo("DOWN");

            assertThat(b.addNeighbour(new net.hopwise.overlay.NeighbourConfig("c",
                    overlay.engine("c").config().bindAddress()), overlay.now())).isTrue();
            overlay.runFor(2_000 * MS);
            assertThat(overlay.engine("a").router().path(NodeId.ofName("d"), RoutingMetric.HOPS))
                    .containsExactly(NodeId.ofName("a"), NodeId.ofName("b"), NodeId.ofName("c"), NodeId.ofName("d"));
        }
    }
}

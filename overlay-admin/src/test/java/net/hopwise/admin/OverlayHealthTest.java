package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramSocket;
import java.net.InetAddress;
import net.hopwise.admin.overlay.LinkRates;
import net.hopwise.admin.overlay.LocalNodes;
import net.hopwise.admin.overlay.OverlayHealthIndicator;
import net.hopwise.admin.overlay.OverlayHealthIndicator.Facts;
import net.hopwise.admin.overlay.OverlayView;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/**
 * Readiness gives the reason that really holds a node back: no link up, no route computed at all,
 * or routes computed that reach nobody, three faults an operator looks for in three places.
 */
class OverlayHealthTest {
    @Test
    void noLinkUpIsSaidSo() {
        Health h = OverlayHealthIndicator.assess(new Facts("a", true, 2, 0, 1, 0, 0));
        assertThat(h.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(h.getDetails()).containsEntry("reason", OverlayHealthIndicator.NO_LINK_UP);
    }

    @Test
    void noRouteComputedIsSaidOnlyWhenNoneWas() {
        Health h = OverlayHealthIndicator.assess(new Facts("a", true, 2, 1, 2, 0, 0));
        assertThat(h.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(h.getDetails()).containsEntry("reason", OverlayHealthIndicator.NO_ROUTE_COMPUTED)
                .containsEntry("routeComputations", 0L);
    }

    @Test
    void routesComputedThatReachNobodyAreNotCalledUncomputed() {
        // The case that was reported as "no routes computed yet" after 85 computations.
        Health h = OverlayHealthIndicator.assess(new Facts("a", true, 2, 2, 1, 0, 85));
        assertThat(h.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(h.getDetails()).containsEntry("reason", OverlayHealthIndicator.NO_NODE_REACHABLE)
                .containsEntry("routeComputations", 85L).containsEntry("nodesReachable", 0L);
        assertThat((String) h.getDetails().get("reason")).doesNotContain("computed yet");
    }

    @Test
    void aLinkUpAndANodeReachedIsUpAndANodeWithoutLinksNeedsNothing() {
        assertThat(OverlayHealthIndicator.assess(new Facts("a", true, 2, 1, 3, 2, 4)).getStatus()).isEqualTo(Status.UP);
        Health alone = OverlayHealthIndicator.assess(new Facts("a", true, 0, 0, 1, 0, 0));
        assertThat(alone.getStatus()).isEqualTo(Status.UP);
        assertThat(alone.getDetails()).doesNotContainKey("reason");
        Health stopped = OverlayHealthIndicator.assess(new Facts("a", false, 0, 0, 0, 0, 0));
        assertThat(stopped.getStatus()).isEqualTo(Status.DOWN);
        assertThat(stopped.getDetails()).containsEntry("reason", OverlayHealthIndicator.STOPPED);
    }

    @Test
    void aRealNodeWhoseNeighbourNeverAnswersHasNoLinkUp() throws Exception {
        // A socket that receives and never answers: the neighbour exists and stays silent.
        try (DatagramSocket silent = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            OverlayNode node = OverlayNode.start(NodeConfig.builder("lonely").loopback(0)
                    .neighbour(NeighbourConfig.parse("silent@127.0.0.1:" + silent.getLocalPort())).build());
            try {
                OverlayHealthIndicator indicator = new OverlayHealthIndicator(
                        new OverlayView(LocalNodes.single(node), new LinkRates()));
                Health h = indicator.health();
                assertThat(h.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
                assertThat(h.getDetails()).containsEntry("reason", OverlayHealthIndicator.NO_LINK_UP)
                        .containsEntry("links", 1).containsEntry("linksUp", 0);
                node.stop();
                assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
            } finally {
                node.stop();
            }
        }
    }
}

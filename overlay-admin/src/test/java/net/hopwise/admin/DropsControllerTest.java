package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.hopwise.admin.api.DropsController;
import net.hopwise.admin.overlay.LinkRates;
import net.hopwise.admin.overlay.LocalNodes;
import net.hopwise.admin.overlay.OverlayException;
import net.hopwise.admin.overlay.OverlayView;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Drops of a service running one node among others it does not run: its own are listed, and asking
 * for a neighbour's says where they are counted instead of claiming the neighbour is unknown.
 */
class DropsControllerTest {
    private final OverlayNode gateway = OverlayNode.start(NodeConfig.builder("gateway").loopback(0)
            .neighbour(NeighbourConfig.parse("b@127.0.0.1:9")).build());
    private final DropsController drops = new DropsController(new OverlayView(LocalNodes.single(gateway),
            new LinkRates()));

    @AfterEach
    void stop() {
        gateway.stop();
    }

    @Test
    void listsTheLocalNodeOnlyAndSendsAskersOfARemoteNodeToItsOwnService() {
        assertThat(drops.drops()).singleElement().satisfies(d -> {
            assertThat(d.node()).isEqualTo("gateway");
            assertThat(d.self()).isTrue();
            assertThat(d.reasons()).containsOnlyKeys(DropReason.values());
        });
        assertThat(drops.node("gateway").total()).isGreaterThanOrEqualTo(0);
        assertThatThrownBy(() -> drops.node("b")).isInstanceOfSatisfying(OverlayException.class,
                e -> assertThat(e.kind()).isEqualTo(OverlayException.Kind.UNKNOWN_NODE))
                .hasMessageContaining("does not run in this process");
        assertThatThrownBy(() -> drops.node("nowhere")).isInstanceOf(OverlayException.class)
                .hasMessageContaining("no node named 'nowhere'");
    }
}

package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingConfig;
import net.hopwise.overlay.testing.VirtualOverlay;
import org.junit.jupiter.api.Test;

/**
 * A node may hold as many kinds as the overlay's maxExtensionsPerOrigin allows, and the module spreads
 * its groups over half of them: with 4,096 kinds a node joins thousands of groups (not the thousand of
 * the default 8 records), and another node's view follows its joins and leaves.
 */
class MembershipScaleTest {
    private static final long MS = 1_000_000L;
    private static final int GROUPS = 5_000;

    @Test
    void thousandsOfGroupsOfOneNodeReachTheOthersAndLeaveThemAgain() {
        RoutingConfig routing = RoutingConfig.builder().maxExtensionsPerOrigin(4096)
                // A node publishing thousands of records at once: the per-interval admission limits must admit them.
                .maxAdvertisementsPerOrigin(4096).maxAdvertisementsPerNeighbour(8192).build();
        try (VirtualOverlay overlay = new VirtualOverlay(5, b -> b.module(new MulticastModule()).routing(routing))) {
            overlay.node("a");
            overlay.node("b");
            overlay.node("c");
            overlay.link("a", "b", 5 * MS);
            overlay.link("b", "c", 5 * MS);
            overlay.startAll();
            overlay.runFor(20_000 * MS);
            Multicast a = multicast(overlay, "a");
            List<Membership> joined = new ArrayList<>();
            for (int i = 0; i < GROUPS; i++) {
                joined.add(a.join("scale-" + i, 1, m -> {}));
            }
            overlay.runFor(5_000 * MS);
            Multicast c = multicast(overlay, "c");
            assertThat(c.view()).hasSize(GROUPS);
            assertThat(c.memberNodes("scale-" + (GROUPS - 1))).containsExactly(NodeId.ofName("a"));

            for (int i = 0; i < GROUPS; i += 2) {
                joined.get(i).leave();
            }
            overlay.runFor(5_000 * MS);
            c = multicast(overlay, "c");
            assertThat(c.view()).hasSize(GROUPS / 2);
            assertThat(c.memberNodes("scale-0")).isEmpty();
            assertThat(c.memberNodes("scale-1")).isEqualTo(Set.of(NodeId.ofName("a")));
        }
    }

    private static Multicast multicast(VirtualOverlay overlay, String node) {
        NodeStack stack = overlay.engine(node);
        stack.advance(overlay.now());
        return stack.module(Multicast.class);
    }
}

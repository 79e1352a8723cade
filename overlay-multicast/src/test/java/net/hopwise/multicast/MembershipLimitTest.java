package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingConfig;
import net.hopwise.overlay.testing.VirtualOverlay;
import org.junit.jupiter.api.Test;

/** A bucket's record holds (maxExtensionBytes - 1) / 8 groups: one more is refused, clearly. */
class MembershipLimitTest {
    private static final long MS = 1_000_000L;

    @Test
    void aJoinBeyondWhatItsRecordHoldsIsRefusedAndTheOthersStand() {
        // 17 bytes: two groups per bucket.
        try (VirtualOverlay overlay = new VirtualOverlay(3, b -> b.module(new MulticastModule())
                .routing(RoutingConfig.builder().maxExtensionBytes(17).build()))) {
            overlay.node("a");
            overlay.node("b");
            overlay.link("a", "b", 5 * MS);
            overlay.startAll();
            overlay.runFor(20_000 * MS);
            List<String> sameBucket = new ArrayList<>();
            for (int i = 0; sameBucket.size() < 3; i++) {
                if (MembershipRecords.bucket(GroupId.ofName("g" + i), MembershipRecords.buckets(RoutingConfig.DEFAULT_MAX_EXTENSIONS_PER_ORIGIN)) == 0) {
                    sameBucket.add("g" + i);
                }
            }
            Multicast a = multicast(overlay, "a");
            Membership first = a.join(sameBucket.get(0), 1, m -> {});
            a.join(sameBucket.get(1), 1, m -> {});
            a.join(sameBucket.get(1), 2, m -> {}); // a second member of a joined group costs no room
            assertThatThrownBy(() -> a.join(sameBucket.get(2), 1, m -> {}))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("maxExtensionBytes");
            overlay.runFor(2_000 * MS);
            assertThat(multicast(overlay, "b").memberNodes(sameBucket.get(1))).containsExactly(NodeId.ofName("a"));
            assertThat(multicast(overlay, "b").memberNodes(sameBucket.get(2))).isEmpty();

            first.leave();
            a.join(sameBucket.get(2), 1, m -> {});
            overlay.runFor(2_000 * MS);
            assertThat(multicast(overlay, "b").memberNodes(sameBucket.get(2))).containsExactly(NodeId.ofName("a"));
            assertThat(multicast(overlay, "b").memberNodes(sameBucket.get(0))).isEmpty();
        }
    }

    private static Multicast multicast(VirtualOverlay overlay, String node) {
        NodeStack stack = overlay.engine(node);
        stack.advance(overlay.now());
        return stack.module(Multicast.class);
    }
}

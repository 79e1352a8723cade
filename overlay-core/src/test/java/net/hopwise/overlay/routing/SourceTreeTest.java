package net.hopwise.overlay.routing;

import static net.hopwise.overlay.routing.RouterTest.A;
import static net.hopwise.overlay.routing.RouterTest.B;
import static net.hopwise.overlay.routing.RouterTest.C;
import static net.hopwise.overlay.routing.RouterTest.D;
import static net.hopwise.overlay.routing.RouterTest.TEN_MS;
import static net.hopwise.overlay.routing.RouterTest.lsa;
import static net.hopwise.overlay.routing.RouterTest.update;
import static net.hopwise.overlay.routing.VirtualNetwork.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import net.hopwise.overlay.NodeId;
import org.junit.jupiter.api.Test;

/** Trees from any source: what they hold, their cache, and when they change. */
class SourceTreeTest {
    final RoutingConfig config = RoutingConfig.defaults();
    final Router a = new Router(A, "a", config, new CapturingOutput(), 100, 0);

    @Test
    void aLoneNodeIsItsOwnTreeAndUnknownSourcesHaveNone() {
        assertThat(a.tree(A, RoutingMetric.LATENCY)).containsExactly(Map.entry(A, A));
        assertThat(a.tree(B, RoutingMetric.LATENCY)).isEmpty();
        assertThatThrownBy(() -> a.tree(null, RoutingMetric.HOPS)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void theLeastRecentlyUsedTreesGoBeyondTheEntryBound() {
        RoutingTable table = RoutingTable.compute(A, java.util.List.of(lsa(A, 1, B, D), lsa(B, 1, A, C), lsa(C, 1, B, D),
                lsa(D, 1, A, C)), config);
        SourceTrees trees = new SourceTrees(table, 8);
        Map<NodeId, NodeId> fromA = trees.tree(A, RoutingMetric.HOPS);
        Map<NodeId, NodeId> fromB = trees.tree(B, RoutingMetric.HOPS);
        assertThat(fromA).hasSize(4);
        assertThat(trees.tree(A, RoutingMetric.HOPS)).isSameAs(fromA);
        // Eight entries held; a third tree pushes out the least recently used one, B's.
        Map<NodeId, NodeId> fromC = trees.tree(C, RoutingMetric.HOPS);
        assertThat(trees.cached()).isEqualTo(2);
        assertThat(trees.tree(A, RoutingMetric.HOPS)).isSameAs(fromA);
        assertThat(trees.tree(C, RoutingMetric.HOPS)).isSameAs(fromC);
        assertThat(trees.tree(B, RoutingMetric.HOPS)).isNotSameAs(fromB).isEqualTo(fromB);
    }

    /** a-b, b-c, c-d and a-d: from b, d is two hops either way, and the tie goes to the smaller ids. */
    @Test
    void treesAreCachedUntilTheNextRouteComputation() {
        a.neighbourUp(B, TEN_MS, 0);
        a.neighbourUp(D, TEN_MS, 0);
        a.onUpdate(B, update(lsa(B, 5, A, C), lsa(C, 7, B, D), lsa(D, 9, A, C)), SECOND);
        Map<NodeId, NodeId> fromB = a.tree(B, RoutingMetric.HOPS);
        NodeId viaForD = fromB.get(D);
        assertThat(fromB).containsEntry(B, B).containsEntry(A, B).containsEntry(C, B).hasSize(4);
        assertThat(viaForD).as("the branch through the smaller second id").isEqualTo(A.compareTo(C) < 0 ? A : C);
        assertThat(a.tree(B, RoutingMetric.HOPS)).as("cached").isSameAs(fromB);
        assertThat(a.tree(B, RoutingMetric.LATENCY)).as("per metric").isNotSameAs(fromB);

        long recomputations = a.recomputations();
        // c loses its link to b: from b, c is now reached through a and d.
        a.onUpdate(B, update(lsa(C, 8, D)), 2 * SECOND);
        assertThat(a.recomputations()).isEqualTo(recomputations + 1);
        Map<NodeId, NodeId> after = a.tree(B, RoutingMetric.HOPS);
        assertThat(after).isNotSameAs(fromB).containsEntry(A, B).containsEntry(D, A).containsEntry(C, D);
        assertThat(fromB).as("a tree handed out earlier does not change under its holder").containsEntry(C, B);
        assertThat(a.tree(A, RoutingMetric.HOPS)).containsEntry(C, D);
        assertThat(a.path(C, RoutingMetric.HOPS)).containsExactly(A, D, C);
    }
}

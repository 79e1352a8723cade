package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.RouteView;
import org.junit.jupiter.api.Test;

/**
 * A membership change forgets its group's tree entries and no other's, also once the record of which
 * groups have entries was rebuilt (more groups seen than the cache holds).
 */
class GroupTreesForgetTest {
    private static final NodeId S = NodeId.ofName("s");
    private static final NodeId X = NodeId.ofName("x");
    private static final NodeId M = NodeId.ofName("m");

    @Test
    void aGroupsChangeForgetsOnlyItsEntries() {
        AtomicInteger computed = new AtomicInteger();
        GroupTrees trees = new GroupTrees(X, routes(computed));
        GroupId a = new GroupId(1);
        GroupId b = new GroupId(2);
        GroupTrees.Entry e = trees.entry(S, a, RoutingMetric.HOPS, Set.of(M));
        assertThat(e.onTree()).isTrue();
        assertThat(e.parent()).isEqualTo(S);
        assertThat(e.children()).containsExactly(M);
        trees.entry(S, b, RoutingMetric.HOPS, Set.of(M));
        assertThat(trees.size()).isEqualTo(2);

        trees.forgetGroup(b);
        assertThat(trees.size()).isEqualTo(1);
        // A's entry stays cached: it is not recomputed from the members given now.
        assertThat(trees.entry(S, a, RoutingMetric.HOPS, Set.of()).children()).containsExactly(M);
        assertThat(computed).as("the source's full tree is computed once").hasValue(1);

        // More groups than the bookkeeping keeps: it is rebuilt from the entries, and still forgets a.
        for (int g = 10; g < 10 + 5 * GroupTrees.MAX_ENTRIES; g++) {
            trees.entry(S, new GroupId(g), RoutingMetric.HOPS, Set.of(M));
        }
        trees.entry(S, a, RoutingMetric.HOPS, Set.of(M));
        trees.forgetGroup(a);
        assertThat(trees.entry(S, a, RoutingMetric.HOPS, Set.of()).onTree()).isFalse();
    }

    @Test
    void aCachedEntryIsFoundWithoutAskingForTheMembers() {
        GroupTrees trees = new GroupTrees(X, routes(new AtomicInteger()));
        GroupId a = new GroupId(1);
        GroupId b = new GroupId(2);
        AtomicInteger asked = new AtomicInteger();
        java.util.function.Function<GroupId, Set<NodeId>> members = g -> {
            asked.incrementAndGet();
            return g.equals(a) ? Set.of(M) : Set.of();
        };
        for (int i = 0; i < 3; i++) {
            assertThat(trees.entry(S, a, RoutingMetric.HOPS, members).children()).containsExactly(M);
            assertThat(trees.entry(S, b, RoutingMetric.HOPS, members).onTree()).isFalse();
        }
        assertThat(asked).as("once per group, while the entries are cached").hasValue(2);

        // Forgetting is seen by the very next lookup, also of the group looked up last.
        trees.forgetGroup(b);
        assertThat(trees.entry(S, b, RoutingMetric.HOPS, g -> Set.of(M)).children()).containsExactly(M);
        trees.forgetAll();
        assertThat(trees.entry(S, b, RoutingMetric.HOPS, g -> Set.of()).onTree()).isFalse();
        assertThat(trees.entry(S, a, RoutingMetric.HOPS, members).children()).containsExactly(M);
        assertThat(asked).hasValue(3);
    }

    /** s - x - m: x relays s's datagrams to m. */
    private static RouteView routes(AtomicInteger computed) {
        return new RouteView() {
            @Override
            public NodeId nextHop(NodeId destination, RoutingMetric metric) {
                return null;
            }

            @Override
            public List<NodeId> path(NodeId destination, RoutingMetric metric) {
                return List.of();
            }

            @Override
            public double pathCost(NodeId destination, RoutingMetric metric) {
                return Double.POSITIVE_INFINITY;
            }

            @Override
            public double linkCost(NodeId from, NodeId to, RoutingMetric metric) {
                return Double.POSITIVE_INFINITY;
            }

            @Override
            public Map<NodeId, NodeId> tree(NodeId source, RoutingMetric metric) {
                computed.incrementAndGet();
                return Map.of(S, S, X, S, M, X);
            }

            @Override
            public String nameOf(NodeId node) {
                return node.toString();
            }

            @Override
            public NodeId idOf(String name) {
                return NodeId.ofName(name);
            }

            @Override
            public Optional<NodeId> find(String name) {
                return Optional.empty();
            }
        };
    }
}

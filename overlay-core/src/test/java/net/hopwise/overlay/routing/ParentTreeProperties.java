package net.hopwise.overlay.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The array-backed tree answers as the hash map it replaced: same entries, lookups, size and equality. */
class ParentTreeProperties {

    @Property(tries = 200)
    void answersAsAHashMapOfTheSameParents(@ForAll @IntRange(min = 1, max = 60) int n, @ForAll long seed) {
        Random r = new Random(seed);
        NodeId[] nodes = new NodeId[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = NodeId.ofName("n" + i);
        }
        Arrays.sort(nodes);
        int source = r.nextInt(n);
        int[] parents = new int[n];
        Map<NodeId, NodeId> expected = new HashMap<>();
        expected.put(nodes[source], nodes[source]);
        for (int v = 0; v < n; v++) {
            parents[v] = v == source || r.nextInt(4) == 0 ? -1 : r.nextInt(n);
            if (parents[v] >= 0) {
                expected.put(nodes[v], nodes[parents[v]]);
            }
        }
        Map<NodeId, NodeId> tree = new ParentTree(nodes, new NodeIndex(nodes), source, parents);

        assertThat(tree).isEqualTo(expected);
        assertThat(expected).isEqualTo(tree);
        assertThat(tree.hashCode()).isEqualTo(expected.hashCode());
        assertThat(tree.size()).isEqualTo(expected.size());
        assertThat(new LinkedHashMap<>(tree)).isEqualTo(expected);
        for (int v = 0; v < n; v++) {
            assertThat(tree.get(nodes[v])).isEqualTo(expected.get(nodes[v]));
            assertThat(tree.containsKey(nodes[v])).isEqualTo(expected.containsKey(nodes[v]));
        }
        NodeId stranger = NodeId.ofName("stranger");
        assertThat(tree.get(stranger)).isNull();
        assertThat(tree.containsKey(stranger)).isFalse();
        assertThat(tree.get("n0")).isNull();
        assertThatThrownBy(() -> tree.put(stranger, stranger)).isInstanceOf(UnsupportedOperationException.class);
    }
}

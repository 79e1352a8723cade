package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Graft and prune on a tree of relays: after any sequence of joins, leaves, level changes and lost
 * children, each link carries exactly the layers someone downstream holds, and a relay sends
 * upstream only when its own set changes.
 */
class LayerForwardingProperties {
    private static final int LAYERS = 12;

    private static final class Tree {
        final int[] parent;
        final LayerForwarding[] relays;
        /** Per node: the level of each local receiver (-1 = none). */
        final List<List<Integer>> receivers = new ArrayList<>();
        long redundant;

        Tree(int n, SplittableRandom r) {
            parent = new int[n];
            relays = new LayerForwarding[n];
            parent[0] = -1;
            for (int i = 1; i < n; i++) {
                parent[i] = r.nextInt(i);
            }
            for (int i = 0; i < n; i++) {
                int me = i;
                receivers.add(new ArrayList<>());
                relays[i] = new LayerForwarding(LAYERS, new LayerForwarding.Upstream() {
                    @Override
                    public void graft(int layer, long nowNanos) {
                        if (parent[me] >= 0) {
                            if (relays[parent[me]].forwards(me, layer)) {
                                redundant++;
                            }
                            relays[parent[me]].childGraft(me, layer, nowNanos);
                        }
                    }

                    @Override
                    public void prune(int layer, long nowNanos) {
                        if (parent[me] >= 0) {
                            if (!relays[parent[me]].forwards(me, layer)) {
                                redundant++;
                            }
                            relays[parent[me]].childPrune(me, layer, nowNanos);
                        }
                    }
                });
            }
        }

        void setLevel(int node, int receiver, int to) {
            List<Integer> levels = receivers.get(node);
            int from = levels.get(receiver);
            for (int k = from + 1; k <= to; k++) {
                relays[node].localJoin(k, 0);
            }
            for (int k = from; k > to; k--) {
                relays[node].localLeave(k, 0);
            }
            levels.set(receiver, to);
        }

        BitSet heldIn(int node) {
            BitSet held = new BitSet();
            for (int level : receivers.get(node)) {
                held.set(0, level + 1);
            }
            for (int c = 0; c < parent.length; c++) {
                if (parent[c] == node) {
                    held.or(heldIn(c));
                }
            }
            return held;
        }
    }

    @Property
    void eachLinkCarriesExactlyTheLayersSomeoneDownstreamHolds(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Tree t = new Tree(2 + r.nextInt(15), r);
        for (int step = r.nextInt(200); step > 0; step--) {
            int node = r.nextInt(t.parent.length);
            List<Integer> levels = t.receivers.get(node);
            int action = r.nextInt(4);
            if (action == 0 || levels.isEmpty()) {
                levels.add(-1);
                t.setLevel(node, levels.size() - 1, r.nextInt(LAYERS));
            } else if (action == 1) {
                int i = r.nextInt(levels.size());
                t.setLevel(node, i, -1);
                levels.remove(i);
            } else {
                t.setLevel(node, r.nextInt(levels.size()), r.nextInt(LAYERS + 1) - 1);
            }
        }
        for (int c = 1; c < t.parent.length; c++) {
            BitSet expected = t.heldIn(c);
            for (int k = 0; k < LAYERS; k++) {
                assertThat(t.relays[t.parent[c]].forwards(c, k)).as("link %d->%d layer %d", t.parent[c], c, k)
                        .isEqualTo(expected.get(k));
            }
        }
        for (int n = 0; n < t.parent.length; n++) {
            BitSet expected = t.heldIn(n);
            for (int k = 0; k < LAYERS; k++) {
                assertThat(t.relays[n].holds(k)).isEqualTo(expected.get(k));
            }
        }
        assertThat(t.redundant).as("grafts of layers already forwarded, prunes of layers not forwarded").isZero();
    }

    @Test
    void aLostChildPrunesWhatItHeldAndOnlyWhatNobodyElseNeeds() {
        List<String> upstream = new ArrayList<>();
        LayerForwarding f = new LayerForwarding(4, new LayerForwarding.Upstream() {
            @Override
            public void graft(int layer, long nowNanos) {
                upstream.add("+" + layer);
            }

            @Override
            public void prune(int layer, long nowNanos) {
                upstream.add("-" + layer);
            }
        });
        f.childGraft(1, 0, 0);
        f.childGraft(1, 1, 0);
        f.childGraft(1, 2, 0);
        f.childGraft(2, 0, 0);
        f.childGraft(2, 0, 0);
        f.localJoin(1, 0);
        f.childGone(1, 0);
        assertThat(upstream).containsExactly("+0", "+1", "+2", "-2");
        assertThat(f.forwards(2, 0)).isTrue();
        assertThat(f.forwards(1, 0)).isFalse();
        assertThat(f.ignoredInputs()).isEqualTo(1);
        f.childGraft(3, 99, 0);
        assertThat(f.ignoredInputs()).isEqualTo(2);
    }
}

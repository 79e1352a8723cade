package net.hopwise.multicast.layered;

import io.netty.util.collection.LongObjectHashMap;
import java.util.BitSet;
import java.util.Objects;

/**
 * One node's per-layer forwarding state on a layered session's tree, sans-IO, with PIM's graft and
 * prune semantics: the node forwards layer k to a child while the child has grafted k (someone in
 * its subtree holds it), holds k itself while a child or a local receiver does, and tells its
 * upstream neighbour only when that changes: a graft when it first needs k, a prune the moment
 * nobody below needs it any more (an overlay link is point to point, so the parent stops sending at
 * once; any leave latency is the network's, modelled by whoever carries the prune).
 *
 * <p>Children are named by a number of the caller's choosing (a node id). Layers are tracked one by
 * one, so the state is right for cumulative and non-cumulative layering alike.
 */
public final class LayerForwarding {
    /** Where grafts and prunes go: the upstream neighbour on the tree (nothing at the source). */
    public interface Upstream {
        void graft(int layer, long nowNanos);

        void prune(int layer, long nowNanos);
    }

    private final int layers;
    private final Upstream upstream;
    private final LongObjectHashMap<BitSet> children = new LongObjectHashMap<>();
    private final int[] localHolders;
    private final int[] childHolders;
    private long grafts;
    private long prunes;
    private long ignored;

    public LayerForwarding(int layers, Upstream upstream) {
        if (layers < 1 || layers > SessionAnnouncement.MAX_LAYERS) {
            throw new IllegalArgumentException("layers must be in 1.." + SessionAnnouncement.MAX_LAYERS + ", got " + layers);
        }
        this.layers = layers;
        this.upstream = Objects.requireNonNull(upstream, "upstream");
        this.localHolders = new int[layers];
        this.childHolders = new int[layers];
    }

    /** A child grafted {@code layer}; a repeated graft, or one of a layer out of range, changes nothing (counted). */
    public void childGraft(long child, int layer, long nowNanos) {
        if (!valid(layer)) {
            return;
        }
        BitSet set = children.get(child);
        if (set == null) {
            set = new BitSet(layers);
            children.put(child, set);
        }
        if (set.get(layer)) {
            ignored++;
            return;
        }
        boolean before = holds(layer);
        set.set(layer);
        childHolders[layer]++;
        if (!before) {
            grafts++;
            upstream.graft(layer, nowNanos);
        }
    }

    /** A child pruned {@code layer}; a prune of a layer the child does not hold changes nothing (counted). */
    public void childPrune(long child, int layer, long nowNanos) {
        if (!valid(layer)) {
            return;
        }
        BitSet set = children.get(child);
        if (set == null || !set.get(layer)) {
            ignored++;
            return;
        }
        set.clear(layer);
        if (set.isEmpty()) {
            children.remove(child);
        }
        childHolders[layer]--;
        afterRelease(layer, nowNanos);
    }

    /** The child is gone (link down, node crashed): everything it held is pruned. */
    public void childGone(long child, long nowNanos) {
        BitSet set = children.remove(child);
        if (set == null) {
            return;
        }
        for (int k = set.length() - 1; k >= 0; k = set.previousSetBit(k - 1)) {
            childHolders[k]--;
            afterRelease(k, nowNanos);
        }
    }

    /** A receiver on this node joined {@code layer}. */
    public void localJoin(int layer, long nowNanos) {
        if (!valid(layer)) {
            return;
        }
        boolean before = holds(layer);
        localHolders[layer]++;
        if (!before) {
            grafts++;
            upstream.graft(layer, nowNanos);
        }
    }

    /** A receiver on this node left {@code layer}. */
    public void localLeave(int layer, long nowNanos) {
        if (!valid(layer) || localHolders[layer] == 0) {
            ignored++;
            return;
        }
        localHolders[layer]--;
        afterRelease(layer, nowNanos);
    }

    private void afterRelease(int layer, long nowNanos) {
        if (!holds(layer)) {
            prunes++;
            upstream.prune(layer, nowNanos);
        }
    }

    private boolean valid(int layer) {
        if (layer < 0 || layer >= layers) {
            ignored++;
            return false;
        }
        return true;
    }

    /** Whether this node needs {@code layer} from upstream: a child or a local receiver holds it. */
    public boolean holds(int layer) {
        return layer >= 0 && layer < layers && (localHolders[layer] > 0 || childHolders[layer] > 0);
    }

    /** Whether a packet of {@code layer} goes to {@code child}. */
    public boolean forwards(long child, int layer) {
        BitSet set = children.get(child);
        return set != null && layer >= 0 && set.get(layer);
    }

    /** Whether a packet of {@code layer} is delivered to local receivers. */
    public boolean delivers(int layer) {
        return layer >= 0 && layer < layers && localHolders[layer] > 0;
    }

    /** The children {@code layer} goes to, into {@code out} (cleared first); returns how many. */
    public int childrenFor(int layer, long[] out) {
        int n = 0;
        for (LongObjectHashMap.PrimitiveEntry<BitSet> e : children.entries()) {
            if (e.value().get(layer)) {
                out[n++] = e.key();
            }
        }
        return n;
    }

    public int layers() {
        return layers;
    }

    /** Grafts and prunes sent upstream, and inputs that changed nothing. */
    public long graftsSent() {
        return grafts;
    }

    public long prunesSent() {
        return prunes;
    }

    public long ignoredInputs() {
        return ignored;
    }
}

package net.hopwise.multicast.layered;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;

/**
 * One node's part in one layered session: which layers go to which child ({@link LayerForwarding}),
 * the receivers on this node, and what the node has asked of its upstream neighbour on the
 * source's tree. Only on the node's thread.
 *
 * <p>The forwarding state changes on the children's subscriptions and the local receivers' joins
 * and leaves; after each such input {@link #sync} tells the upstream neighbour the node's whole set
 * when it changed (a graft or a prune at once), again {@link #REPEATS} times {@link #REPEAT_NANOS}
 * apart, and every refresh interval while it is not empty. A child not heard for the child timeout is
 * gone (it crashed, or its route moved and its prune was lost).
 *
 * <p>Why the repeats: subscriptions are plain datagrams, and a lost prune leaves its layers flowing
 * into a path that just said it cannot carry them until the next refresh, a second later, or, when
 * the set became empty and no refresh follows, until the child timeout; a leave latency of half a
 * second already takes the halving's worst second from under 1% to 14% (docs/benchmarks.md, "the
 * leave-latency sweep"). With two repeats a change is lost only when three datagrams are (0.1% on a
 * 10% lossy link), and it takes effect within 50 ms otherwise, for two more small datagrams a change.
 */
final class SessionRelay {
    record Key(NodeId source, int sessionId) {}

    /** How many times a changed set is sent again, {@link #REPEAT_NANOS} apart. */
    static final int REPEATS = 2;
    /** 25 ms: longer than a burst of loss on one link is likely to last, short against the 1 s refresh. */
    static final long REPEAT_NANOS = 25_000_000L;

    private final Key key;
    private final LayeredWire.Envelope envelope;
    private final int layers;
    private final LayerForwarding forwarding;
    private final Map<NodeId, Long> childHeard = new HashMap<>();
    private final List<LocalReceiver> locals = new ArrayList<>();
    /** Per child, per layer: packets and bytes handed to the child's link, for operators ({@link #view}). */
    private final Map<NodeId, long[][]> sentTo = new HashMap<>();
    /** The neighbour this node subscribed to, and what it last said there. */
    private NodeId upstream;
    private BitSet told = new BitSet();
    private long nextRefreshNanos = Long.MAX_VALUE;
    /** Copies of the last changed set still to send to the parent, empty set included. */
    private int repeatsLeft;
    /** A parent the tree moved away from, and the copies of the empty set still to send it. */
    private NodeId former;
    private int formerRepeatsLeft;
    private long formerNextNanos = Long.MAX_VALUE;

    SessionRelay(Key key, LayeredWire.Envelope envelope, int layers) {
        this.key = key;
        this.envelope = envelope;
        this.layers = layers;
        // Grafts and prunes are read back from the state by sync, which sends the set whole.
        this.forwarding = new LayerForwarding(layers, new LayerForwarding.Upstream() {
            @Override
            public void graft(int layer, long nowNanos) {
            }

            @Override
            public void prune(int layer, long nowNanos) {
            }
        });
    }

    Key key() {
        return key;
    }

    LayeredWire.Envelope envelope() {
        return envelope;
    }

    int layers() {
        return layers;
    }

    LayerForwarding forwarding() {
        return forwarding;
    }

    List<LocalReceiver> locals() {
        return locals;
    }

    /** Children holding anything: as many as the forwarding state has. */
    int childCount() {
        return childHeard.size();
    }

    NodeId upstream() {
        return upstream;
    }

    /** A child's whole set: grafts what it newly needs, prunes what it no longer does. */
    void onSubscription(NodeId child, BitSet held, long nowNanos) {
        long c = child.value();
        for (int k = 0; k < layers; k++) {
            boolean want = held.get(k);
            if (want != forwarding.forwards(c, k)) {
                if (want) {
                    forwarding.childGraft(c, k, nowNanos);
                } else {
                    forwarding.childPrune(c, k, nowNanos);
                }
            }
        }
        if (held.isEmpty()) {
            childHeard.remove(child);
            sentTo.remove(child);
        } else {
            childHeard.put(child, nowNanos);
        }
    }

    /** Children silent since before {@code nowNanos - timeout} are pruned of everything. */
    void expireChildren(long nowNanos, long timeoutNanos) {
        for (Iterator<Map.Entry<NodeId, Long>> it = childHeard.entrySet().iterator(); it.hasNext();) {
            Map.Entry<NodeId, Long> e = it.next();
            if (nowNanos - e.getValue() >= timeoutNanos) {
                it.remove();
                sentTo.remove(e.getKey());
                forwarding.childGone(e.getKey().value(), nowNanos);
            }
        }
    }

    /** A packet of {@code layer}, {@code bytes} long, went to {@code child}'s link. */
    void sent(NodeId child, int layer, int bytes) {
        long[][] c = sentTo.get(child);
        if (c == null) {
            c = new long[2][layers];
            sentTo.put(child, c);
        }
        c[0][layer]++;
        c[1][layer] += bytes;
    }

    /**
     * This node's part in the session now, for operators: upstream, and each child with the layers it
     * holds and what went to it per layer since it last subscribed from nothing.
     */
    LayeredRelayView view() {
        List<LayeredRelayView.Child> children = new ArrayList<>();
        for (NodeId child : childHeard.keySet()) {
            int level = -1;
            for (int k = 0; k < layers; k++) {
                if (forwarding.forwards(child.value(), k)) {
                    level = k;
                }
            }
            long[][] c = sentTo.get(child);
            List<LayeredRelayView.LayerTraffic> traffic = new ArrayList<>();
            for (int k = 0; c != null && k < layers; k++) {
                if (c[0][k] > 0) {
                    traffic.add(new LayeredRelayView.LayerTraffic(k, c[0][k], c[1][k]));
                }
            }
            children.add(new LayeredRelayView.Child(child, level, List.copyOf(traffic)));
        }
        children.sort(java.util.Comparator.comparing(ch -> ch.node().toString()));
        return new LayeredRelayView(envelope.group(), envelope.port(), key.source(), key.sessionId(), upstream,
                locals.size(), List.copyOf(children));
    }

    long nextDeadlineNanos(long childTimeoutNanos) {
        long next = told.isEmpty() && repeatsLeft == 0 ? Long.MAX_VALUE : nextRefreshNanos;
        if (formerRepeatsLeft > 0) {
            next = Math.min(next, formerNextNanos);
        }
        for (long heard : childHeard.values()) {
            next = Math.min(next, heard + childTimeoutNanos);
        }
        return next;
    }

    /** The layers this node needs now: a child or a local receiver holds them. */
    BitSet needed() {
        BitSet s = new BitSet(layers);
        for (int k = 0; k < layers; k++) {
            if (forwarding.holds(k)) {
                s.set(k);
            }
        }
        return s;
    }

    /** Where subscriptions go; the service implements it. */
    interface Signal {
        /** This node's parent on the session's tree now; null at the source or off every route. */
        NodeId parent(SessionRelay relay);

        void subscribe(SessionRelay relay, NodeId to, BitSet held);
    }

    /**
     * Tells upstream what changed: the whole set to the parent when it differs from what the parent
     * last heard, or the refresh is due; an empty set to a former parent when the tree moved.
     */
    void sync(Signal signal, long nowNanos, long refreshNanos) {
        NodeId parent = signal.parent(this);
        BitSet now = needed();
        if (upstream != null && !upstream.equals(parent)) {
            if (!told.isEmpty()) {
                signal.subscribe(this, upstream, new BitSet());
                former = upstream;
                formerRepeatsLeft = REPEATS;
                formerNextNanos = nowNanos + REPEAT_NANOS;
            }
            told = new BitSet();
            repeatsLeft = 0;
        }
        if (formerRepeatsLeft > 0 && former.equals(parent)) {
            // Back to the parent it left: what it is told now must not be followed by an empty set.
            formerRepeatsLeft = 0;
        }
        if (formerRepeatsLeft > 0 && nowNanos >= formerNextNanos) {
            signal.subscribe(this, former, new BitSet());
            formerRepeatsLeft--;
            formerNextNanos = nowNanos + REPEAT_NANOS;
        }
        upstream = parent;
        if (parent == null) {
            // The source asks nobody; a node off every route asks again once a route appears.
            told = new BitSet();
            repeatsLeft = 0;
            return;
        }
        if (!now.equals(told)) {
            signal.subscribe(this, parent, now);
            told = now;
            repeatsLeft = REPEATS;
            nextRefreshNanos = nowNanos + REPEAT_NANOS;
        } else if (nowNanos >= nextRefreshNanos && (repeatsLeft > 0 || !now.isEmpty())) {
            signal.subscribe(this, parent, now);
            if (repeatsLeft > 0) {
                repeatsLeft--;
            }
            nextRefreshNanos = nowNanos + (repeatsLeft > 0 ? REPEAT_NANOS : refreshNanos);
        }
    }

    /** Nothing held, nobody here, nothing asked of upstream: the state may go. */
    boolean idle() {
        return locals.isEmpty() && childHeard.isEmpty() && told.isEmpty() && repeatsLeft == 0 && formerRepeatsLeft == 0
                && needed().isEmpty();
    }
}

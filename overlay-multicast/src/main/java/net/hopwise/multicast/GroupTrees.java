package net.hopwise.multicast;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.RouteView;

/**
 * The forwarding state of one node: for each (source, group, metric) it has seen a datagram of, its
 * parent and its children on the source's shortest-path tree pruned to the group's member nodes.
 * Computed on the first datagram and cached; a membership change of a group forgets that group's
 * entries, a change of routes forgets everything. Only on the node's thread.
 */
final class GroupTrees {
    /**
     * Entries kept at most: a relay holds one per (source, group, metric) flowing through it, and the
     * bound keeps forged sources and groups from growing it; the least recently used goes first.
     */
    static final int MAX_ENTRIES = 4096;

    record Key(NodeId source, GroupId group, RoutingMetric metric) {}

    /**
     * A node's place on one tree.
     *
     * @param parent the neighbour datagrams of the tree come from; null at the source and off the tree
     * @param children the neighbours to forward to, in id order
     */
    record Entry(boolean onTree, NodeId parent, List<NodeId> children) {}

    private final NodeId self;
    private final RouteView routes;
    private final Map<Key, Entry> entries = new LinkedHashMap<>(64, 0.75f, true) {
        // Qualified: inside a subclass of LinkedHashMap the simple name Entry is the inherited
        // Map.Entry, not this class's record (javac 17 let it pass, later compilers do not).
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, GroupTrees.Entry> eldest) {
            if (size() <= MAX_ENTRIES) {
                return false;
            }
            if (eldest.getKey().equals(lastKey)) {
                lastKey = null;
                lastEntry = null;
            }
            return true;
        }
    };
    /** The links of the pruned trees, as (parent, child) pairs, per (source, group, metric). */
    private final Map<Key, List<NodeId[]>> links = new HashMap<>();
    /** The complete trees they are cut from, per (source, metric). */
    private final Map<Key, Map<NodeId, NodeId>> fullTrees = new HashMap<>();
    /**
     * Groups that may have entries or links: a burst of membership changes (a remote node's thousands
     * of groups) then costs a set lookup per group, not a scan of every entry. May name groups whose
     * entries were evicted since; rebuilt when it grows past what the two caches hold.
     */
    private final Set<GroupId> cachedGroups = new HashSet<>();
    /** The entry the last lookup found and its key; null once anything is forgotten. */
    private Key lastKey;
    private Entry lastEntry;

    GroupTrees(NodeId self, RouteView routes) {
        this.self = self;
        this.routes = routes;
    }

    Entry entry(NodeId source, GroupId group, RoutingMetric metric, Set<NodeId> members) {
        return entry(source, group, metric, g -> members);
    }

    /**
     * This node's place on the tree, {@code members} asked only when the entry is not cached: the
     * data path looks a tree up on every packet, and the membership view takes a lock to answer.
     */
    Entry entry(NodeId source, GroupId group, RoutingMetric metric, Function<GroupId, Set<NodeId>> members) {
        Key last = lastKey;
        // A stream's packets come in runs: the entry of the previous lookup answers most of them.
        if (last != null && last.metric() == metric && last.group().equals(group) && last.source().equals(source)) {
            return lastEntry;
        }
        Key key = new Key(source, group, metric);
        Entry e = entries.get(key);
        if (e == null) {
            Map<NodeId, NodeId> tree = fullTrees.computeIfAbsent(new Key(source, null, metric),
                    k -> routes.tree(source, metric));
            e = place(tree, source, self, members.apply(group));
            entries.put(key, e);
            noteCached(group);
        }
        lastKey = key;
        lastEntry = e;
        return e;
    }

    /** The links of the tree from {@code source} pruned to {@code members}, as (parent, child) pairs; cached. */
    List<NodeId[]> links(NodeId source, GroupId group, RoutingMetric metric, Set<NodeId> members) {
        Key key = new Key(source, group, metric);
        List<NodeId[]> l = links.get(key);
        if (l == null) {
            Map<NodeId, NodeId> tree = fullTrees.computeIfAbsent(new Key(source, null, metric),
                    k -> routes.tree(source, metric));
            l = pairs(tree, source, members);
            if (links.size() >= MAX_ENTRIES) {
                links.clear(); // senders of this node only: rebuilt on their next packet
            }
            links.put(key, l);
            noteCached(group);
        }
        return l;
    }

    void forgetGroup(GroupId group) {
        if (!cachedGroups.remove(group)) {
            return;
        }
        lastKey = null;
        lastEntry = null;
        entries.keySet().removeIf(k -> k.group().equals(group));
        links.keySet().removeIf(k -> k.group().equals(group));
    }

    void forgetAll() {
        lastKey = null;
        lastEntry = null;
        entries.clear();
        links.clear();
        fullTrees.clear();
        cachedGroups.clear();
    }

    private void noteCached(GroupId group) {
        if (cachedGroups.add(group) && cachedGroups.size() > 4 * MAX_ENTRIES) {
            cachedGroups.clear();
            entries.keySet().forEach(k -> cachedGroups.add(k.group()));
            links.keySet().forEach(k -> cachedGroups.add(k.group()));
        }
    }

    int size() {
        return entries.size();
    }

    /** The links of {@link #pruned} as (parent, child) pairs. */
    static List<NodeId[]> pairs(Map<NodeId, NodeId> tree, NodeId source, Set<NodeId> members) {
        List<NodeId[]> pairs = new ArrayList<>();
        pruned(tree, source, members).forEach((node, parent) -> {
            if (!node.equals(source)) {
                pairs.add(new NodeId[] {parent, node});
            }
        });
        return List.copyOf(pairs);
    }

    /**
     * The tree from {@code source} cut to the branches that lead to members: each kept node with its
     * parent (the source with itself). Members outside the tree (unreachable) are left out.
     */
    static Map<NodeId, NodeId> pruned(Map<NodeId, NodeId> tree, NodeId source, Set<NodeId> members) {
        Map<NodeId, NodeId> kept = new HashMap<>();
        if (!tree.containsKey(source)) {
            return kept;
        }
        kept.put(source, source);
        for (NodeId m : members) {
            NodeId at = m;
            // Up from the member until the walk meets a node already kept; the parent map has no
            // cycles, and the bound on steps keeps a malformed one from looping.
            for (int steps = 0; at != null && !kept.containsKey(at) && steps <= tree.size(); steps++) {
                NodeId parent = tree.get(at);
                if (parent == null) {
                    break;
                }
                kept.put(at, parent);
                at = parent;
            }
        }
        kept.values().retainAll(kept.keySet()); // drops nothing on a sound tree; guards a broken walk
        return kept;
    }

    /** Where {@code at} sits on the tree from {@code source} pruned to {@code members}. */
    static Entry place(Map<NodeId, NodeId> tree, NodeId source, NodeId at, Set<NodeId> members) {
        Map<NodeId, NodeId> kept = pruned(tree, source, members);
        if (!kept.containsKey(at)) {
            return new Entry(false, null, List.of());
        }
        List<NodeId> children = new ArrayList<>();
        Set<NodeId> seen = new HashSet<>();
        kept.forEach((node, parent) -> {
            if (!node.equals(source) && parent.equals(at) && seen.add(node)) {
                children.add(node);
            }
        });
        children.sort(null);
        return new Entry(true, at.equals(source) ? null : kept.get(at), List.copyOf(children));
    }
}

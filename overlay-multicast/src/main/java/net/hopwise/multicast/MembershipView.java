package net.hopwise.multicast;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import net.hopwise.overlay.NodeId;

/**
 * The node-level membership view: which nodes are members of which groups, from every origin's
 * records (this node's own from its local members). Written on the node's thread; read from any
 * thread through immutable member sets.
 */
final class MembershipView {
    /** Each origin's groups per bucket, as its records last said. */
    private final Map<NodeId, Map<Integer, List<GroupId>>> byOrigin = new HashMap<>();
    private final ConcurrentHashMap<GroupId, Set<NodeId>> members = new ConcurrentHashMap<>();

    /**
     * Sets what an origin's record of a bucket says (empty when it went).
     *
     * @return the groups whose member nodes changed
     */
    Set<GroupId> update(NodeId origin, int bucket, List<GroupId> groups) {
        Map<Integer, List<GroupId>> buckets = byOrigin.computeIfAbsent(origin, o -> new HashMap<>());
        List<GroupId> before = buckets.getOrDefault(bucket, List.of());
        if (groups.isEmpty()) {
            buckets.remove(bucket);
            if (buckets.isEmpty()) {
                byOrigin.remove(origin);
            }
        } else {
            buckets.put(bucket, List.copyOf(groups));
        }
        Set<GroupId> left = new HashSet<>(before);
        groups.forEach(left::remove);
        Set<GroupId> joined = new HashSet<>(groups);
        before.forEach(joined::remove);
        for (GroupId g : left) {
            members.computeIfPresent(g, (k, nodes) -> {
                Set<NodeId> rest = new HashSet<>(nodes);
                rest.remove(origin);
                return rest.isEmpty() ? null : Set.copyOf(rest);
            });
        }
        for (GroupId g : joined) {
            members.compute(g, (k, nodes) -> {
                Set<NodeId> more = nodes == null ? new HashSet<>() : new HashSet<>(nodes);
                more.add(origin);
                return Set.copyOf(more);
            });
        }
        joined.addAll(left);
        return joined;
    }

    /** The member nodes of a group: an immutable set, empty when none. */
    Set<NodeId> members(GroupId group) {
        return members.getOrDefault(group, Set.of());
    }

    /** Every group with a member node, sorted by id, with its member nodes. */
    Map<GroupId, Set<NodeId>> snapshot() {
        return new TreeMap<>(members);
    }
}

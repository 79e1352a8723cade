package net.hopwise.multicast;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;

/**
 * The membership view before the compact one (maps of boxed sets, rebuilt per change), kept as the
 * baseline of {@link MembershipScaleBenchmark}.
 */
final class LegacyMembershipView {
    private final Map<NodeId, Map<Integer, List<GroupId>>> byOrigin = new HashMap<>();
    final java.util.concurrent.ConcurrentHashMap<GroupId, java.util.Set<NodeId>> members =
            new java.util.concurrent.ConcurrentHashMap<>();

    java.util.Set<GroupId> update(NodeId origin, int bucket, List<GroupId> groups) {
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
        java.util.Set<GroupId> left = new java.util.HashSet<>(before);
        groups.forEach(left::remove);
        java.util.Set<GroupId> joined = new java.util.HashSet<>(groups);
        before.forEach(joined::remove);
        for (GroupId g : left) {
            members.computeIfPresent(g, (k, nodes) -> {
                java.util.Set<NodeId> rest = new java.util.HashSet<>(nodes);
                rest.remove(origin);
                return rest.isEmpty() ? null : java.util.Set.copyOf(rest);
            });
        }
        for (GroupId g : joined) {
            members.compute(g, (k, nodes) -> {
                java.util.Set<NodeId> more = nodes == null ? new java.util.HashSet<>() : new java.util.HashSet<>(nodes);
                more.add(origin);
                return java.util.Set.copyOf(more);
            });
        }
        joined.addAll(left);
        return joined;
    }
}

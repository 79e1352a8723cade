package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.hopwise.overlay.NodeId;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The compact view and local bucket sets against plain collections: after any sequence of record
 * updates (overlapping records of one origin included, as while a restarted node replaces its previous
 * life's), every group's member nodes, the changes reported and the counts are what a map of sets says.
 */
class MembershipViewProperties {
    private static final int ORIGINS = 6;
    private static final int BUCKETS = 3;

    @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
    void theViewIsWhatItsRecordsSay(@ForAll long seed) {
        Random r = new Random(seed);
        // Few distinct groups, so that records overlap and the one-origin and list forms both occur.
        long[] universe = new long[8 + r.nextInt(40)];
        for (int i = 0; i < universe.length; i++) {
            universe[i] = r.nextInt(4) == 0 ? i + 1 : r.nextLong() | 1;
        }
        MembershipView view = new MembershipView();
        Map<String, TreeSet<Long>> records = new HashMap<>();
        for (int step = 0; step < 300; step++) {
            String name = "n" + r.nextInt(ORIGINS);
            NodeId origin = NodeId.ofName(name);
            int bucket = r.nextInt(BUCKETS);
            TreeSet<Long> groups = new TreeSet<>(Long::compareUnsigned);
            for (int k = r.nextInt(3) == 0 ? 0 : r.nextInt(12); k > 0; k--) {
                groups.add(universe[r.nextInt(universe.length)]);
            }
            Map<Long, Set<NodeId>> before = model(records);
            for (Long g : before.keySet()) {
                view.members(new GroupId(g)); // fills the set cache, which a change must correct
            }
            long[] changed = view.update(origin, bucket, groups.stream().mapToLong(Long::longValue).toArray());
            records.put(name + "/" + bucket, groups);
            Map<Long, Set<NodeId>> after = model(records);

            Set<Long> expectedChanged = new TreeSet<>(Long::compareUnsigned);
            Set<Long> all = new HashSet<>(before.keySet());
            all.addAll(after.keySet());
            for (Long g : all) {
                if (!before.getOrDefault(g, Set.of()).equals(after.getOrDefault(g, Set.of()))) {
                    expectedChanged.add(g);
                }
            }
            assertThat(changed).as("step %d", step).containsExactly(expectedChanged.stream().mapToLong(Long::longValue).toArray());
            for (long g : universe) {
                assertThat(view.members(new GroupId(g))).as("group %d at step %d", g, step)
                        .isEqualTo(after.getOrDefault(g, Set.of()));
            }
            assertThat(view.groups()).isEqualTo(after.size());
            assertThat(view.memberships()).isEqualTo(records.values().stream().mapToLong(Set::size).sum());
            for (int o = 0; o < ORIGINS; o++) {
                String prefix = "n" + o + "/";
                assertThat(view.memberships(NodeId.ofName("n" + o))).isEqualTo(records.entrySet().stream()
                        .filter(e -> e.getKey().startsWith(prefix)).mapToLong(e -> e.getValue().size()).sum());
            }
            Map<GroupId, Set<NodeId>> snapshot = new TreeMap<>();
            after.forEach((g, nodes) -> snapshot.put(new GroupId(g), nodes));
            assertThat(view.snapshot()).isEqualTo(snapshot);
        }
    }

    @Property(tries = 40, edgeCases = EdgeCasesMode.NONE)
    void aBucketHoldsItsJoinedGroupsInUnsignedOrder(@ForAll long seed) {
        Random r = new Random(seed);
        int buckets = 1 + r.nextInt(5);
        LocalMembers local = new LocalMembers(() -> 1 + 8 * 40, buckets);
        List<LocalMember> joined = new ArrayList<>();
        Map<Long, Integer> count = new HashMap<>();
        Set<Integer> dirty = new HashSet<>();
        for (int step = 0; step < 400; step++) {
            if (joined.isEmpty() || r.nextInt(3) > 0) {
                GroupId g = new GroupId(r.nextInt(2) == 0 ? 1 + r.nextInt(30) : r.nextLong() | 1);
                LocalMember m = new LocalMember(g, "g", 1, msg -> {}, null);
                int bucket = MembershipRecords.bucket(g, buckets);
                long inBucket = count.keySet().stream().filter(id -> MembershipRecords.bucket(id, buckets) == bucket).count();
                if (!count.containsKey(g.value()) && inBucket == 40) {
                    continue; // a full bucket refuses; MembershipLimitTest covers the refusal
                }
                boolean first = local.add(m);
                assertThat(first).isEqualTo(!count.containsKey(g.value()));
                if (first) {
                    dirty.add(bucket);
                }
                count.merge(g.value(), 1, Integer::sum);
                joined.add(m);
            } else {
                LocalMember m = joined.remove(r.nextInt(joined.size()));
                boolean last = local.remove(m);
                assertThat(last).isEqualTo(count.get(m.group().value()) == 1);
                if (last) {
                    dirty.add(MembershipRecords.bucket(m.group(), buckets));
                }
                count.computeIfPresent(m.group().value(), (k, c) -> c == 1 ? null : c - 1);
            }
            if (r.nextInt(10) == 0) {
                assertThat(local.takeDirty()).containsExactlyInAnyOrder(dirty.stream().mapToInt(Integer::intValue).toArray());
                dirty.clear();
            }
        }
        for (int b = 0; b < buckets; b++) {
            int bucket = b;
            long[] expected = count.keySet().stream().filter(id -> MembershipRecords.bucket(id, buckets) == bucket)
                    .sorted(Long::compareUnsigned).mapToLong(Long::longValue).toArray();
            assertThat(local.groupsOfBucket(b)).containsExactly(expected);
        }
        assertThat(local.groups()).isEqualTo(count.size());
    }

    private static Map<Long, Set<NodeId>> model(Map<String, TreeSet<Long>> records) {
        Map<Long, Set<NodeId>> members = new HashMap<>();
        records.forEach((key, groups) -> {
            NodeId origin = NodeId.ofName(key.substring(0, key.indexOf('/')));
            for (Long g : groups) {
                members.computeIfAbsent(g, k -> new HashSet<>()).add(origin);
            }
        });
        return members;
    }
}

package net.hopwise.multicast;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import net.hopwise.overlay.NodeId;

/**
 * The node-level membership view: which nodes are members of which groups, from every origin's
 * records (this node's own from its local members). Written on the node's thread; read from any
 * thread (under the object's lock, which the node's thread alone takes but for the API's rare reads).
 *
 * <p>Sized for a million node memberships: each record's groups are kept as one sorted primitive
 * array (the previous version, against which a new one is diffed by a merge), and the groups' member
 * nodes in a {@link GroupMemberIndex} over small origin numbers. The member sets handed out are built
 * on demand and the most recently used kept, because the data path asks for a group's set on every
 * datagram.
 */
final class MembershipView {
    /** Member sets kept built: as many as the tree cache holds entries, which they serve. */
    static final int CACHED_SETS = GroupTrees.MAX_ENTRIES;

    private static final long[] NONE = new long[0];

    /** Each record's groups, as unsigned-ascending ids, per (origin number, bucket). */
    private final HashMap<Long, long[]> records = new HashMap<>();
    private final GroupMemberIndex index = new GroupMemberIndex();
    /** Per origin: its number, its records held and the listings they hold. */
    private final HashMap<NodeId, int[]> originNumbers = new HashMap<>();
    /** Origin per number; null where free. */
    private NodeId[] origins = new NodeId[16];
    private final ArrayDeque<Integer> freeNumbers = new ArrayDeque<>();
    private int nextNumber;
    private final Map<Long, Set<NodeId>> sets = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Set<NodeId>> eldest) {
            return size() > CACHED_SETS;
        }
    };

    /**
     * Sets what an origin's record of a bucket says (empty when it went).
     *
     * @param groups group ids in unsigned ascending order, without repeats (as records carry them)
     * @return the ids of the groups whose member nodes changed, in unsigned ascending order
     */
    synchronized long[] update(NodeId origin, int bucket, long[] groups) {
        int[] number = originNumbers.get(origin);
        if (number == null) {
            if (groups.length == 0) {
                return NONE;
            }
            number = new int[] {allocate(origin), 0, 0};
            originNumbers.put(origin, number);
        }
        int o = number[0];
        Long key = ((long) o << 32) | bucket;
        long[] before = records.getOrDefault(key, NONE);
        if (groups.length == 0) {
            if (records.remove(key) != null) {
                number[1]--;
            }
        } else if (records.put(key, groups) == null) {
            number[1]++;
        }
        long[] changed = new long[before.length + groups.length];
        int n = 0;
        int i = 0;
        int j = 0;
        // A merge of the two sorted lists: what only the old one has left, what only the new one has joined.
        while (i < before.length || j < groups.length) {
            int c = i == before.length ? 1 : j == groups.length ? -1 : Long.compareUnsigned(before[i], groups[j]);
            if (c < 0) {
                if (index.remove(before[i], o)) {
                    changed[n++] = before[i];
                }
                i++;
            } else if (c > 0) {
                if (index.add(groups[j], o)) {
                    changed[n++] = groups[j];
                }
                j++;
            } else {
                i++;
                j++;
            }
        }
        number[2] += groups.length - before.length;
        if (number[1] == 0) {
            originNumbers.remove(origin);
            origins[o] = null;
            freeNumbers.push(o);
        }
        for (int k = 0; k < n; k++) {
            sets.remove(changed[k]);
        }
        return n == changed.length ? changed : Arrays.copyOf(changed, n);
    }

    /** The member nodes of a group: an immutable set, empty when none. */
    synchronized Set<NodeId> members(GroupId group) {
        Set<NodeId> s = sets.get(group.value());
        if (s == null) {
            s = build(group.value());
            if (!s.isEmpty()) {
                sets.put(group.value(), s);
            }
        }
        return s;
    }

    private Set<NodeId> build(long group) {
        int[] numbers = index.origins(group);
        NodeId[] nodes = new NodeId[numbers.length];
        for (int k = 0; k < numbers.length; k++) {
            nodes[k] = origins[numbers[k]];
        }
        return Set.of(nodes);
    }

    /** Every group with a member node, sorted by id, with its member nodes. */
    synchronized Map<GroupId, Set<NodeId>> snapshot() {
        List<Long> groups = new ArrayList<>(index.groups());
        index.forEachGroup(groups::add);
        TreeMap<GroupId, Set<NodeId>> all = new TreeMap<>();
        for (long g : groups) {
            // Not through the cache: a snapshot of every group would evict what the data path uses.
            Set<NodeId> s = sets.get(g);
            all.put(new GroupId(g), s != null ? s : build(g));
        }
        return all;
    }

    /** Groups with a member node. */
    synchronized int groups() {
        return index.groups();
    }

    /** The groups an origin's records list now (each listing counted). */
    synchronized long memberships(NodeId origin) {
        int[] number = originNumbers.get(origin);
        return number == null ? 0 : number[2];
    }

    /** (node, group) memberships held, counted once per record that lists them. */
    synchronized long memberships() {
        return index.memberships();
    }

    private int allocate(NodeId origin) {
        Integer free = freeNumbers.poll();
        int o = free != null ? free : nextNumber++;
        if (o == origins.length) {
            origins = Arrays.copyOf(origins, o * 2);
        }
        origins[o] = origin;
        return o;
    }
}

package net.hopwise.multicast;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import net.hopwise.overlay.spi.DropCounter;

/**
 * The node's local members per group: changed from any thread under the object's lock, read by the
 * node's thread without one (a message's delivery never waits for a join). Beside them, each bucket's
 * joined groups as a sorted primitive array and the buckets changed since they were last published,
 * so that a join costs a re-encoding of its own bucket only, however many groups the node is in.
 */
final class LocalMembers {
    /** Each group's members as an array never changed once published (a delivery reads it without a lock). */
    private final ConcurrentHashMap<GroupId, LocalMember[]> byGroup = new ConcurrentHashMap<>();
    private final IntSupplier recordBytes;
    private final int buckets;
    /** Per bucket, its groups' ids with the sign bit flipped, so that signed order is the ids' unsigned order. */
    private final long[][] bucketGroups;
    private final int[] bucketSizes;
    private final BitSet dirty = new BitSet();
    /** Groups a record holds, asked of the node on the first join (it is known once the node is built). */
    private int bucketCapacity = -1;

    LocalMembers(IntSupplier recordBytes, int buckets) {
        this.recordBytes = recordBytes;
        this.buckets = buckets;
        this.bucketGroups = new long[buckets][];
        this.bucketSizes = new int[buckets];
    }

    int buckets() {
        return buckets;
    }

    /**
     * Adds a member.
     *
     * @return whether it is the group's first here (the node becomes a member node)
     * @throws IllegalStateException when the group would be one too many for its bucket's record
     */
    synchronized boolean add(LocalMember member) {
        LocalMember[] list = byGroup.get(member.group());
        if (list != null) {
            LocalMember[] more = Arrays.copyOf(list, list.length + 1);
            more[list.length] = member;
            byGroup.put(member.group(), more);
            return false;
        }
        int bucket = MembershipRecords.bucket(member.group(), buckets);
        if (bucketCapacity < 0) {
            bucketCapacity = MembershipRecords.capacity(recordBytes.getAsInt());
        }
        int n = bucketSizes[bucket];
        if (n >= bucketCapacity) {
            throw new IllegalStateException("this node is a member of " + n + " groups of membership record "
                    + bucket + " of " + buckets + ", as many as a record of maxExtensionBytes holds"
                    + " (see docs/multicast.md); cannot join " + member.groupName());
        }
        long key = member.group().value() ^ Long.MIN_VALUE;
        long[] groups = bucketGroups[bucket];
        if (groups == null || n == groups.length) {
            groups = Arrays.copyOf(groups == null ? new long[0] : groups, Math.min(bucketCapacity, Math.max(4, n * 2)));
            bucketGroups[bucket] = groups;
        }
        int at = -Arrays.binarySearch(groups, 0, n, key) - 1;
        System.arraycopy(groups, at, groups, at + 1, n - at);
        groups[at] = key;
        bucketSizes[bucket] = n + 1;
        dirty.set(bucket);
        byGroup.put(member.group(), new LocalMember[] {member});
        return true;
    }

    /** @return whether it was the group's last here (the node stops being a member node) */
    synchronized boolean remove(LocalMember member) {
        LocalMember[] list = byGroup.get(member.group());
        int i = list == null ? -1 : Arrays.asList(list).indexOf(member);
        if (i < 0) {
            return false;
        }
        if (list.length > 1) {
            LocalMember[] rest = new LocalMember[list.length - 1];
            System.arraycopy(list, 0, rest, 0, i);
            System.arraycopy(list, i + 1, rest, i, rest.length - i);
            byGroup.put(member.group(), rest);
            return false;
        }
        byGroup.remove(member.group());
        int bucket = MembershipRecords.bucket(member.group(), buckets);
        long[] groups = bucketGroups[bucket];
        int n = bucketSizes[bucket];
        int at = Arrays.binarySearch(groups, 0, n, member.group().value() ^ Long.MIN_VALUE);
        System.arraycopy(groups, at + 1, groups, at, n - at - 1);
        bucketSizes[bucket] = n - 1;
        if (n - 1 == 0) {
            bucketGroups[bucket] = null;
        }
        dirty.set(bucket);
        return true;
    }

    /** The buckets whose groups changed since the last call, and forgets them. */
    synchronized int[] takeDirty() {
        int[] taken = dirty.stream().toArray();
        dirty.clear();
        return taken;
    }

    /** The ids of one bucket's groups with a local member now, unsigned ascending. */
    synchronized long[] groupsOfBucket(int bucket) {
        int n = bucketSizes[bucket];
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = bucketGroups[bucket][i] ^ Long.MIN_VALUE;
        }
        return ids;
    }

    /** The members of a group, a snapshot; empty when none. */
    List<LocalMember> of(GroupId group) {
        LocalMember[] list = byGroup.get(group);
        return list == null ? List.of() : Collections.unmodifiableList(Arrays.asList(list));
    }

    boolean has(GroupId group) {
        return byGroup.containsKey(group);
    }

    /** Groups with a local member. */
    int groups() {
        return byGroup.size();
    }

    /** Tells the members of an event's group and port that they are dropped, and makes them leave. */
    void drop(MemberDropped event, DropCounter handlerError) {
        for (LocalMember m : of(event.group())) {
            if (m.port() != event.port() || m.left()) {
                continue;
            }
            try {
                m.handler().onDropped(event);
            } catch (RuntimeException e) {
                handlerError.increment();
            }
            m.leave();
        }
    }
}

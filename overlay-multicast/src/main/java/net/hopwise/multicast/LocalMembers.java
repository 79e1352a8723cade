package net.hopwise.multicast;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;
import net.hopwise.overlay.spi.DropCounter;

/**
 * The node's local members per group: changed from any thread under the object's lock, read by the
 * node's thread without one (a message's delivery never waits for a join).
 */
final class LocalMembers {
    private final ConcurrentHashMap<GroupId, CopyOnWriteArrayList<LocalMember>> byGroup = new ConcurrentHashMap<>();
    private final int[] groupsPerBucket = new int[MembershipRecords.BUCKETS];
    private final IntSupplier recordBytes;
    /** Groups a record holds, asked of the node on the first join (it is known once the node is built). */
    private int bucketCapacity = -1;

    LocalMembers(IntSupplier recordBytes) {
        this.recordBytes = recordBytes;
    }

    /**
     * Adds a member.
     *
     * @return whether it is the group's first here (the node becomes a member node)
     * @throws IllegalStateException when the group would be one too many for its bucket's record
     */
    synchronized boolean add(LocalMember member) {
        CopyOnWriteArrayList<LocalMember> list = byGroup.get(member.group());
        if (list != null) {
            list.add(member);
            return false;
        }
        int bucket = MembershipRecords.bucket(member.group());
        if (bucketCapacity < 0) {
            bucketCapacity = MembershipRecords.capacity(recordBytes.getAsInt());
        }
        if (groupsPerBucket[bucket] >= bucketCapacity) {
            throw new IllegalStateException("this node is a member of " + groupsPerBucket[bucket]
                    + " groups of membership record " + bucket + ", as many as a record of maxExtensionBytes holds"
                    + " (see docs/multicast.md); cannot join " + member.groupName());
        }
        groupsPerBucket[bucket]++;
        byGroup.put(member.group(), new CopyOnWriteArrayList<>(List.of(member)));
        return true;
    }

    /** @return whether it was the group's last here (the node stops being a member node) */
    synchronized boolean remove(LocalMember member) {
        CopyOnWriteArrayList<LocalMember> list = byGroup.get(member.group());
        if (list == null || !list.remove(member)) {
            return false;
        }
        if (!list.isEmpty()) {
            return false;
        }
        byGroup.remove(member.group());
        groupsPerBucket[MembershipRecords.bucket(member.group())]--;
        return true;
    }

    /** The groups of one bucket with a local member now. */
    synchronized List<GroupId> groupsOfBucket(int bucket) {
        List<GroupId> groups = new ArrayList<>();
        for (GroupId g : byGroup.keySet()) {
            if (MembershipRecords.bucket(g) == bucket) {
                groups.add(g);
            }
        }
        return groups;
    }

    /** The members of a group, a snapshot; empty when none. */
    List<LocalMember> of(GroupId group) {
        List<LocalMember> list = byGroup.get(group);
        return list == null ? List.of() : list;
    }

    boolean has(GroupId group) {
        return byGroup.containsKey(group);
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

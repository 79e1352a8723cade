package net.hopwise.multicast;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.LinkStateExtension;
import net.hopwise.overlay.spi.ModuleContext;

/**
 * A node's part in group membership: its local members, its records in link state (republished when
 * a group's first member joins or its last leaves) and its view of every node's records. Joins and
 * leaves come from any thread; records are published and heard on the node's.
 */
final class MembershipPlane {
    private final ModuleContext context;
    private final NodeId self;
    private final GroupTrees trees;
    private final BooleanSupplier closed;
    private final DropCounter badRecord;
    private final LinkStateExtension[] records = new LinkStateExtension[MembershipRecords.BUCKETS];
    private final MembershipView view = new MembershipView();
    private final LocalMembers local;

    MembershipPlane(ModuleContext context, GroupTrees trees, BooleanSupplier closed) {
        this.context = context;
        this.self = context.self();
        this.trees = trees;
        this.closed = closed;
        this.badRecord = context.dropReason("multicast_bad_record");
        // What a record may hold where it is published: less a signature's room when link state is signed.
        this.local = new LocalMembers(context::maxExtensionBytes);
        for (int b = 0; b < records.length; b++) {
            int bucket = b;
            records[b] = context.linkStateExtension(MembershipRecords.kind(b),
                    (origin, record) -> onRecord(bucket, origin, record));
        }
    }

    MembershipView view() {
        return view;
    }

    LocalMembers local() {
        return local;
    }

    /**
     * Adds a local member; the node republishes when it is the group's first.
     *
     * @throws IllegalStateException when the node is stopped or the group's record is full
     */
    void join(LocalMember member) {
        if (local.add(member)) {
            try {
                context.execute(() -> republish(MembershipRecords.bucket(member.group())));
            } catch (RejectedExecutionException e) {
                local.remove(member);
                throw new IllegalStateException("the node is stopped", e);
            }
        }
    }

    void leave(LocalMember member) {
        if (local.remove(member) && !closed.getAsBoolean()) {
            try {
                context.execute(() -> republish(MembershipRecords.bucket(member.group())));
            } catch (RejectedExecutionException e) {
                // Stopped: its records go with its link state.
            }
        }
    }

    /** Publishes what the local members of a bucket's groups are now (tasks may run out of order). */
    private void republish(int bucket) {
        if (closed.getAsBoolean()) {
            return;
        }
        List<GroupId> groups = local.groupsOfBucket(bucket);
        if (groups.isEmpty()) {
            records[bucket].withdraw();
        } else {
            records[bucket].publish(MembershipRecords.encode(groups));
        }
        view.update(self, bucket, groups).forEach(trees::forgetGroup);
    }

    private void onRecord(int bucket, NodeId origin, byte[] record) {
        if (origin.equals(self)) {
            return; // the view holds this node's membership from its local members
        }
        List<GroupId> groups = record == null ? List.of() : MembershipRecords.decode(bucket, record);
        if (groups == null) {
            badRecord.increment();
            groups = List.of();
        }
        view.update(origin, bucket, groups).forEach(trees::forgetGroup);
    }
}

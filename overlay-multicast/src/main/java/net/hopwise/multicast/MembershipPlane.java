package net.hopwise.multicast;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.LinkStateExtension;
import net.hopwise.overlay.spi.ModuleContext;

/**
 * A node's part in group membership: its local members, its records in link state (republished when
 * a group's first member joins or its last leaves) and its view of every node's records. Joins and
 * leaves come from any thread; records are published and heard on the node's. A join or leave marks
 * its bucket changed and asks the node for one publishing task if none is pending, so a burst of
 * joins (an application joining thousands of groups) costs each changed record one encoding and one
 * signature per task the node runs, not one per join.
 */
final class MembershipPlane {
    private final ModuleContext context;
    private final NodeId self;
    private final GroupTrees trees;
    private final BooleanSupplier closed;
    private final DropCounter badRecord;
    private final LinkStateExtension[] records;
    private final MembershipView view = new MembershipView();
    private final LocalMembers local;
    private final AtomicBoolean publishPending = new AtomicBoolean();

    MembershipPlane(ModuleContext context, GroupTrees trees, BooleanSupplier closed) {
        this.context = context;
        this.self = context.self();
        this.trees = trees;
        this.closed = closed;
        this.badRecord = context.dropReason("multicast_bad_record");
        int buckets = MembershipRecords.buckets(context.config().routing().maxExtensionsPerOrigin());
        // What a record may hold where it is published: less a signature's room when link state is signed.
        this.local = new LocalMembers(context::maxExtensionBytes, buckets);
        this.records = new LinkStateExtension[buckets];
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
                requestPublish();
            } catch (RejectedExecutionException e) {
                local.remove(member);
                throw new IllegalStateException("the node is stopped", e);
            }
        }
    }

    void leave(LocalMember member) {
        if (local.remove(member) && !closed.getAsBoolean()) {
            try {
                requestPublish();
            } catch (RejectedExecutionException e) {
                // Stopped: its records go with its link state.
            }
        }
    }

    private void requestPublish() {
        if (publishPending.compareAndSet(false, true)) {
            try {
                context.execute(this::publishChanged);
            } catch (RejectedExecutionException e) {
                publishPending.set(false);
                throw e;
            }
        }
    }

    /** Publishes what the local members of every changed bucket's groups are now. */
    private void publishChanged() {
        // Cleared before the buckets are taken: a join marking its bucket after this asks for a new task.
        publishPending.set(false);
        if (closed.getAsBoolean()) {
            return;
        }
        for (int bucket : local.takeDirty()) {
            long[] groups = local.groupsOfBucket(bucket);
            if (groups.length == 0) {
                records[bucket].withdraw();
            } else {
                records[bucket].publish(MembershipRecords.encode(groups));
            }
            forget(view.update(self, bucket, groups));
        }
    }

    private void onRecord(int bucket, NodeId origin, byte[] record) {
        if (origin.equals(self)) {
            return; // the view holds this node's membership from its local members
        }
        long[] groups = record == null ? new long[0] : MembershipRecords.decodeIds(record);
        if (groups == null) {
            badRecord.increment();
            groups = new long[0];
        }
        forget(view.update(origin, bucket, groups));
    }

    private void forget(long[] changedGroups) {
        for (long g : changedGroups) {
            trees.forgetGroup(new GroupId(g));
        }
    }
}

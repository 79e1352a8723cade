package net.hopwise.multicast;

/**
 * What a reliable group does with a member node that cannot keep up with its sender (its path is
 * slower than the sender, or it stays cut off longer than the sender keeps packets for repair).
 * Chosen by the sender for its stream, so per group when a group's senders agree.
 */
public enum SlowMemberPolicy {
    /**
     * The sender waits for the slowest member: it keeps at most a window of packets that some member
     * has not yet received, and past that its sender is not writable and sends return {@code BLOCKED}
     * until the member catches up (or leaves, or stops answering for the member timeout).
     */
    SLOW_GROUP,
    /**
     * The sender never waits: it keeps the latest packets for repair, and a member node that needs one
     * it no longer keeps drops its local members of the group, each told with {@link
     * MessageHandler#onDropped}, instead of delivering with a hole.
     */
    DROP_MEMBER
}

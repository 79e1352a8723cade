package net.hopwise.multicast;

/** One local member of a group, on a port: {@link #leave} ends it (closing it does the same). */
public interface Membership extends AutoCloseable {
    GroupId group();

    String groupName();

    int port();

    /** Stops delivery to this member; the node leaves the group when its last local member leaves. Idempotent. */
    void leave();

    @Override
    default void close() {
        leave();
    }
}

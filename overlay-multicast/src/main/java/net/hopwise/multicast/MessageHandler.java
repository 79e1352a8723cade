package net.hopwise.multicast;

/**
 * Receives a group's messages for one local member. Called on the node's thread: hand slow work to
 * another executor. An exception it throws is counted ({@code multicast_handler_error}) and the other
 * members still get the message.
 */
@FunctionalInterface
public interface MessageHandler {
    void onMessage(MulticastMessage message);

    /**
     * The member was dropped from the group: its node could not keep up with a reliable stream and
     * the stream's policy is {@link SlowMemberPolicy#DROP_MEMBER} (or the packets it lacked are gone
     * from every cache). Called once, on the node's thread, after which the member has left.
     */
    default void onDropped(MemberDropped event) {}
}

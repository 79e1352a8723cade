package net.hopwise.multicast;

/**
 * Receives a group's messages for one local member. Called on the node's thread: hand slow work to
 * another executor. An exception it throws is counted ({@code multicast_handler_error}) and the other
 * members still get the message.
 */
@FunctionalInterface
public interface MessageHandler {
    void onMessage(MulticastMessage message);
}

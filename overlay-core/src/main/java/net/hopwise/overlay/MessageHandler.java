package net.hopwise.overlay;

/** Receives the messages addressed to an open port, on the node's event loop: do not block in it. */
@FunctionalInterface
public interface MessageHandler {
    void onMessage(ReceivedMessage message);
}

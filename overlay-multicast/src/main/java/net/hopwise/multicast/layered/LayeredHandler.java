package net.hopwise.multicast.layered;

/** Receives the application bytes of a layered session, on the node's thread; keep it short. */
@FunctionalInterface
public interface LayeredHandler {
    void onMessage(LayeredMessage message);
}

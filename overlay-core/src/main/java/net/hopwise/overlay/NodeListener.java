package net.hopwise.overlay;

/** Observes a node's events, called on its event loop: hand long work elsewhere. */
@FunctionalInterface
public interface NodeListener {
    void onEvent(NodeEvent event);
}

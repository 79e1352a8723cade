package net.hopwise.multicast.layered;

/** What a layered receiver asks of the tree: graft or prune one layer towards its upstream neighbour. */
public interface LayerSubscriber {
    void join(int layer, long nowNanos);

    void leave(int layer, long nowNanos);
}

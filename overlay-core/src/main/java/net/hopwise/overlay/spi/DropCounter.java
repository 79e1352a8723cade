package net.hopwise.overlay.spi;

/**
 * A drop reason a module registered: counted with the node's own drops (in
 * {@code NodeCounters.drops()} and the meter {@code hopwise.node.drops{reason=...}}).
 */
public interface DropCounter {
    /** The reason's name as counters and meters show it. */
    String reason();

    void increment();

    long count();
}

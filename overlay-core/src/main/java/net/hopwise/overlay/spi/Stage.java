package net.hopwise.overlay.spi;

/**
 * One layer of a node: a sans-IO machine in the node's chain of stages. It takes inbound frames and
 * the passing of time, emits through what it was handed (its {@link ModuleContext}, or the node's
 * own services for the core stages), and reports when it next wants to be woken. It never reads a
 * clock, sleeps, starts threads or touches Netty: the live node runs it as a named handler of the
 * channel pipeline, the simulator and the virtual-time tests call it directly, in the same order.
 *
 * <p>All methods are called on the node's one thread.
 */
public interface Stage {
    /**
     * Takes an inbound frame: handles it, or passes it on with {@code next.accept(frame)}. A frame a
     * stage neither handles nor passes on is gone; the stage counts why. The frame is a reused holder:
     * keep nothing of it after returning (retain its datagram to keep the bytes).
     */
    default void onFrame(Frame frame, FrameSink next) {
        next.accept(frame);
    }

    /**
     * Whether the stage wants frames of a packet type. A stage that does not is skipped for them, so a
     * frame goes straight to the next stage that takes it. The default takes every frame, as a stage
     * that watches all traffic must; a stage that handles only its own types says so and costs the
     * others nothing.
     */
    default boolean takes(int type) {
        return true;
    }

    /**
     * The end of a batch of inbound datagrams, or of a timer pass: send what was held for it (for
     * example acknowledgements covering the batch). Called on every stage, from the top of the chain
     * down, so that what upper layers send is there for lower layers to ride on.
     */
    default void flush(long nowNanos) {}

    /** The next instant at which {@link #onTimer} has work, or {@link Long#MAX_VALUE}. */
    default long nextDeadlineNanos() {
        return Long.MAX_VALUE;
    }

    /** Time has passed: run what is due at {@code nowNanos}. */
    default void onTimer(long nowNanos) {}

    /** The node stops: release what the stage holds. */
    default void close() {}
}

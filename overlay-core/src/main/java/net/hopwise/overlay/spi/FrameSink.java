package net.hopwise.overlay.spi;

/** Where a stage passes a frame it does not consume: the next stage of the chain. */
@FunctionalInterface
public interface FrameSink {
    void accept(Frame frame);
}

package net.hopwise.overlay.node;

import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.wire.DropReason;

/**
 * The end of the chain: a frame that reaches it was claimed by no stage (a module registered its
 * type but handles it nowhere), and is counted as a drop rather than lost silently.
 */
final class UnclaimedStage implements Stage {
    static final String NAME = "unclaimed";

    private final NodeCounters counters;

    UnclaimedStage(NodeCounters counters) {
        this.counters = counters;
    }

    @Override
    public void onFrame(Frame frame, FrameSink next) {
        counters.drop(DropReason.UNKNOWN_TYPE);
    }
}

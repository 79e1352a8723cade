package net.hopwise.overlay.spi;

import java.util.Objects;

/**
 * Where a module's stage goes in a node's chain: just before or just after a named stage. The core
 * stages, in traffic order, are {@code frame}, {@code link}, {@code routing}, {@code reliable-link},
 * {@code real-time}, {@code forwarding}, {@code session} and {@code delivery}; a module may also name
 * a stage another module added before it.
 */
public record StagePosition(String anchor, boolean before) {
    public StagePosition {
        Objects.requireNonNull(anchor, "anchor");
    }

    public static StagePosition before(String stage) {
        return new StagePosition(stage, true);
    }

    public static StagePosition after(String stage) {
        return new StagePosition(stage, false);
    }

    /** After every core stage: where a module that only takes its own packet types belongs. */
    public static StagePosition last() {
        return after("delivery");
    }
}

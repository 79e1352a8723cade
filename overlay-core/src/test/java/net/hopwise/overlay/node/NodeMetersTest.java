package net.hopwise.overlay.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The node's meters keep reading what they measure for as long as the node runs. */
class NodeMetersTest {
    @Test
    void theImpairmentDropMeterSurvivesGarbageCollection() {
        try (TwoNodeWire wire = new TwoNodeWire()) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            AtomicLong dropped = new AtomicLong();
            // As the node passes it: a lambda that nothing but the node's counters refers to.
            wire.a.counters().countDropsElsewhere(net.hopwise.overlay.wire.DropReason.IMPAIRMENT, () -> dropped.get());
            NodeMeters meters = new NodeMeters(wire.a, registry);
            dropped.set(46);
            for (int i = 0; i < 3; i++) {
                // Micrometer holds a function counter's object weakly: a collection clears it unless the
                // node holds it too.
                System.gc();
            }
            assertThat(registry.get("hopwise.node.drops").tag("reason", "impairment").functionCounter().count())
                    .isEqualTo(46.0);
            assertThat(meters).isNotNull();
        }
    }
}

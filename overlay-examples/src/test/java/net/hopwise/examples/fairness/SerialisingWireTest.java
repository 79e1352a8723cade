package net.hopwise.examples.fairness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The wire behind the live bottleneck delivers as the simulator's link does after its queue. */
class SerialisingWireTest {
    @Test
    void aPacketArrivesItsTransmissionTimeAndThePropagationDelayAfterItIsHandedOver() {
        SerialisingWire wire = new SerialisingWire(2_000_000, 100_000);
        // 1042 bytes (an ERA packet's frame) at 2 Mbit/s: 4.168 ms, then 0.1 ms.
        assertThat(wire.deliverAt(1_000_000_000L, 1042)).isEqualTo(1_000_000_000L + 4_168_000 + 100_000);
    }

    @Test
    void packetsHandedOverBackToBackLeaveOneTransmissionApart() {
        // Two frames the bucket released at once (its burst): the second waits for the first's
        // transmission, as behind the simulator's link, so a pair arrives spaced at the link's rate.
        SerialisingWire wire = new SerialisingWire(2_000_000, 100_000);
        long first = wire.deliverAt(0, 1000);
        long second = wire.deliverAt(0, 1000);
        assertThat(second - first).isEqualTo(4_000_000);
        // A packet handed over after the wire went idle starts at once.
        assertThat(wire.deliverAt(100_000_000, 1000)).isEqualTo(100_000_000 + 4_000_000 + 100_000);
    }

    @Test
    void aPacketHandedOverWhileAnotherIsOnTheWireStartsWhenThatOneEnds() {
        SerialisingWire wire = new SerialisingWire(8_000_000, 0);
        assertThat(wire.deliverAt(0, 1000)).isEqualTo(1_000_000);
        assertThat(wire.deliverAt(400_000, 500)).isEqualTo(1_500_000);
    }

    @Test
    void refusesARateOfNothingAndANegativeDelay() {
        assertThatThrownBy(() -> new SerialisingWire(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SerialisingWire(1000, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}

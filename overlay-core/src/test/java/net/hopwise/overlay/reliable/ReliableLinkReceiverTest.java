package net.hopwise.overlay.reliable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When the receiving side of a reliable link owes an acknowledgement, by when, and what it names. */
class ReliableLinkReceiverTest {
    private final ReliableLinkReceiver rx = new ReliableLinkReceiver(ReliableLinkConfig.defaults());

    private void receive(int sequence, long ackBy) {
        assertThat(rx.classify(5, sequence, 0)).isEqualTo(ReliableLinkReceiver.Arrival.NEW);
        rx.accept(ackBy);
    }

    private void writeAck() {
        ByteBuf out = Unpooled.buffer();
        try {
            rx.writeAck(out);
        } finally {
            out.release();
        }
    }

    @Test
    void aHeldAcknowledgementIsDueAtItsDeadline() {
        assertThat(rx.ackPending()).isFalse();
        receive(0, 1_000);
        assertThat(rx.ackPending()).isTrue();
        assertThat(rx.ackDue(999)).isFalse();
        assertThat(rx.ackDue(1_000)).isTrue();
        assertThat(rx.ackDeadline()).isEqualTo(1_000);
    }

    @Test
    void aDataPacketMakesTheAcknowledgementDueAtOnce() {
        receive(0, 1_000);
        rx.classify(5, 1, 0);
        rx.accept();
        assertThat(rx.ackDue(0)).isTrue();
        // A later held packet does not push the debt back.
        receive(2, 5_000);
        assertThat(rx.ackDue(0)).isTrue();
    }

    @Test
    void theEarlierOfTwoDeadlinesHolds() {
        receive(0, 3_000);
        receive(1, 2_000);
        assertThat(rx.ackDeadline()).isEqualTo(2_000);
    }

    @Test
    void anyAcknowledgementWrittenSettlesTheDebt() {
        receive(0, 1_000);
        writeAck();
        assertThat(rx.ackPending()).isFalse();
        assertThat(rx.ackDue(Long.MAX_VALUE - 1)).isFalse();
    }

    @Test
    void aDuplicateIsAcknowledgedAtOnce() {
        receive(0, 1_000);
        writeAck();
        assertThat(rx.classify(5, 0, 0)).isEqualTo(ReliableLinkReceiver.Arrival.DUPLICATE);
        assertThat(rx.ackDue(0)).isTrue();
    }

    @Test
    void theHoldMustEndBeforeTheOtherSideProbesOrTimesOut() {
        assertThat(ReliableLinkConfig.builder().ackDelay(Duration.ZERO).build().ackDelay()).isZero();
        assertThatThrownBy(() -> ReliableLinkConfig.builder().ackDelay(Duration.ofMillis(2)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minProbeDelay");
        assertThat(ReliableLinkConfig.builder().ackDelay(Duration.ofMillis(3)).tailProbe(false).build().ackDelay())
                .isEqualTo(Duration.ofMillis(3));
        assertThatThrownBy(() -> ReliableLinkConfig.builder().ackDelay(Duration.ofMillis(10)).tailProbe(false).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minTimeout");
        assertThatThrownBy(() -> ReliableLinkConfig.builder().ackDelay(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ackDelay");
    }

    private int[] ackBlocks() {
        ByteBuf out = Unpooled.buffer();
        try {
            rx.writeAck(out);
            return ReliableLinkCodec.decodeAck(out).blocks();
        } finally {
            out.release();
        }
    }

    /**
     * More runs than SACK blocks: the lowest runs are named, and the run of the latest arrival, new or
     * again, takes the place of the highest one kept when it is not among them (RFC 2018's first block).
     */
    @Test
    void theLatestArrivalsRunIsNamedEvenBeyondTheBlocksLowestRuns() {
        assertThat(ReliableLinkConfig.defaults().sackBlocks()).isEqualTo(4);
        for (int seq = 0; seq <= 12; seq += 2) {
            receive(seq, 0); // runs 2, 4, 6, 8, 10, 12 above the cumulative point 1
        }
        assertThat(ackBlocks()).containsExactly(12, 13, 2, 3, 4, 5, 6, 7);
        assertThat(rx.classify(5, 10, 0)).isEqualTo(ReliableLinkReceiver.Arrival.DUPLICATE);
        assertThat(ackBlocks()).containsExactly(10, 11, 2, 3, 4, 5, 6, 7);
        assertThat(rx.classify(5, 4, 0)).isEqualTo(ReliableLinkReceiver.Arrival.DUPLICATE);
        assertThat(ackBlocks()).containsExactly(2, 3, 4, 5, 6, 7, 8, 9);
        receive(11, 0); // joins 10 and 12 into one run
        assertThat(ackBlocks()).containsExactly(10, 13, 2, 3, 4, 5, 6, 7);
        receive(1, 0); // the cumulative point moves to 3; four runs remain and all are named
        assertThat(ackBlocks()).containsExactly(4, 5, 6, 7, 8, 9, 10, 13);
    }
}

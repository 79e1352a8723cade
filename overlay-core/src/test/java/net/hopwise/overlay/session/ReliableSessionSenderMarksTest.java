package net.hopwise.overlay.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sending edge's answer to congestion marks echoed by the receiving edge (the three levels of
 * the hop-by-hop paper's overlay ECN): level 1 holds the window, level 2 halves it, level 3 takes it
 * back to one packet; at most once per window of data, and never with a retransmission.
 */
class ReliableSessionSenderMarksTest {
    private static final long MS = 1_000_000L;
    private static final int ADVERTISED = 1000;

    private ReliableSessionSender sender;
    private int transmissions;
    private long now;

    @BeforeEach
    void start() {
        sender = new ReliableSessionSender(SessionConfig.defaults(), 1,
                new ReliableSessionSender.Output() {
                    @Override
                    public boolean transmit(long incarnation, int sequence, ByteBuf payload, boolean endOfMessage,
                            int ackInterval, boolean retransmission) {
                        transmissions++;
                        return true;
                    }

                    @Override
                    public void acknowledged(int packets) {}
                });
        for (int k = 0; k < 500; k++) {
            assertThat(sender.offerPrepared(Unpooled.buffer(8).writeLong(k), now)).isTrue();
        }
    }

    @AfterEach
    void close() {
        sender.close();
    }

    /** Acknowledges everything sent so far, echoing {@code mark}. */
    private void ackAll(int mark) {
        now += 20 * MS;
        sender.onAck(1, (int) sender.packetsSent(), ADVERTISED, mark, now);
    }

    private int grownWindow() {
        ackAll(0);
        ackAll(0);
        ackAll(0); // slow start: 10, 20, 40, 80
        int w = sender.congestionWindow();
        assertThat(w).isGreaterThanOrEqualTo(40);
        return w;
    }

    @Test
    void levelTwoHalvesTheWindowWithoutResending() {
        int w = grownWindow();
        ackAll(2);
        assertThat(sender.congestionWindow()).isEqualTo(w / 2);
        assertThat(sender.marks()).isEqualTo(1);
        assertThat(sender.retransmissions()).isZero();
    }

    @Test
    void levelThreeTakesTheWindowBackToOnePacket() {
        grownWindow();
        ackAll(3);
        assertThat(sender.congestionWindow()).isEqualTo(1);
        assertThat(sender.retransmissions()).isZero();
    }

    @Test
    void levelOneHoldsTheWindow() {
        int w = grownWindow();
        ackAll(1);
        assertThat(sender.congestionWindow()).isEqualTo(w);
        ackAll(0);
        assertThat(sender.congestionWindow()).isGreaterThan(w); // growth resumes without marks
    }

    @Test
    void oneReactionPerWindowOfData() {
        int w = grownWindow();
        long sentBefore = sender.packetsSent();
        now += 20 * MS;
        sender.onAck(1, (int) (sentBefore - 10), ADVERTISED, 2, now); // part of the window, marked
        assertThat(sender.congestionWindow()).isEqualTo(w / 2);
        now += MS;
        sender.onAck(1, (int) (sentBefore - 5), ADVERTISED, 2, now); // the same window, marked again
        assertThat(sender.congestionWindow()).isEqualTo(w / 2);
        assertThat(sender.marks()).isEqualTo(1);
    }
}

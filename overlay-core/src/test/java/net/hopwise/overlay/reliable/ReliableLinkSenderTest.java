package net.hopwise.overlay.reliable;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When the sender's timers fire, on virtual time: a lost tail packet is sent again one timeout after
 * its own transmission while acknowledgements still flow (a loss, not a timeout), and silence for a
 * whole timeout is still RFC 6298's timeout with the window back to one packet.
 */
class ReliableLinkSenderTest {
    private static final long MS = 1_000_000L;
    private static final long RTT = 20 * MS;

    private record Transmission(long at, int sequence, boolean again) {}

    private final List<Transmission> sent = new ArrayList<>();
    private long now;
    private ReliableLinkSender sender;

    @AfterAll
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    @BeforeEach
    void start() {
        sender = new ReliableLinkSender(ReliableLinkConfig.defaults(), 7,
                (epoch, sequence, base, packet, again) -> sent.add(new Transmission(now, sequence, again)));
        sender.seedRtt(RTT);
    }

    @AfterEach
    void close() {
        sender.close();
    }

    private void offer() {
        ByteBuf packet = PooledByteBufAllocator.DEFAULT.buffer(8).writeLong(now);
        assertThat(sender.offer(packet, now)).isTrue();
    }

    private void ack(int cumulative, int... blocks) {
        sender.onAck(new LinkAck(7, cumulative, blocks), now);
    }

    /** Runs the timer at every deadline up to {@code until}. */
    private void advanceTo(long until) {
        while (sender.nextDeadlineNanos() <= until) {
            now = Math.max(now, sender.nextDeadlineNanos());
            sender.onTimer(now);
        }
        now = until;
    }

    /** One packet per round trip, each acknowledged after exactly RTT: the variation decays to nothing. */
    private int warmUp() {
        int seq = 0;
        for (; seq < 30; seq++) {
            offer();
            advanceTo(now + RTT);
            ack(seq + 1);
        }
        assertThat(sender.srttNanos()).isEqualTo(RTT);
        assertThat(sender.timeoutNanos()).isEqualTo(RTT + 2 * MS); // srtt + the granularity term G
        return seq;
    }

    @Test
    void aLostTailPacketIsSentAgainOneTimeoutAfterItsOwnTransmission() {
        int seq = warmUp();
        long timeout = sender.timeoutNanos();
        offer(); // acknowledged in time
        long lostAt = now + 4 * MS;
        advanceTo(lostAt);
        offer(); // lost: nothing after it can reveal that
        int lost = seq + 1;
        advanceTo(lostAt - 4 * MS + RTT);
        ack(seq + 1); // the acknowledgement clock still runs
        sent.clear();

        advanceTo(lostAt + timeout - 1);
        assertThat(sent).isEmpty();
        advanceTo(lostAt + timeout);
        assertThat(sent).containsExactly(new Transmission(lostAt + timeout, lost, true));
        assertThat(sender.tailLosses()).isEqualTo(1);
        assertThat(sender.timeouts()).isZero();
        assertThat(sender.lossEvents()).isEqualTo(1);
        assertThat(sender.congestionWindow()).isGreaterThanOrEqualTo(2); // halved, not back to one

        advanceTo(now + RTT);
        ack(lost + 1);
        assertThat(sender.unacknowledged()).isZero();
        assertThat(sender.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void silenceForAWholeTimeoutIsATimeout() {
        warmUp();
        long timeout = sender.timeoutNanos();
        long flight = now;
        offer();
        offer();
        offer();
        sent.clear();

        advanceTo(flight + timeout);
        assertThat(sender.timeouts()).isEqualTo(1);
        assertThat(sender.tailLosses()).isZero();
        assertThat(sender.congestionWindow()).isEqualTo(1);
        assertThat(sent).hasSize(1).allMatch(Transmission::again);
        assertThat(sender.nextDeadlineNanos()).isEqualTo(flight + 3 * timeout); // backed off: doubled
    }

    @Test
    void aPacketAcknowledgedInTimeIsNeverSentAgain() {
        int seq = warmUp();
        for (int k = 0; k < 50; k++) {
            offer(); // one packet every 16 ms, each acknowledged after the 20 ms round trip
            advanceTo(now + 4 * MS);
            if (k > 0) {
                ack(seq + k);
            }
            advanceTo(now + 12 * MS);
        }
        advanceTo(now + 4 * MS);
        ack(seq + 50);
        assertThat(sent).noneMatch(Transmission::again);
        assertThat(sender.tailLosses()).isZero();
        assertThat(sender.timeouts()).isZero();
    }
}

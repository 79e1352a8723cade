package net.hopwise.overlay.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.SessionAdmission;
import net.hopwise.overlay.wire.DataHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The session layer's hook for a module that meters sessions: each new packet is bought before it
 * goes, resends are not, a refused session asks again at the instant named or when woken, and a
 * session end finds its node's admission (and only its node's).
 */
class SessionAdmissionTest {
    private static final long MS = 1_000_000L;

    private final List<Integer> sent = new ArrayList<>();
    private final List<Boolean> resent = new ArrayList<>();
    private ReliableSessionSender sender;
    private long now = 1_000 * MS;

    /** Admits {@code credit} packets, then refuses until {@code retry}; counts what it was asked. */
    private static final class Purse implements SessionAdmission.Meter {
        int credit;
        long retry = Long.MAX_VALUE;
        int asked;
        boolean closed;

        @Override
        public long admit(long nowNanos) {
            asked++;
            if (credit > 0) {
                credit--;
                return SessionAdmission.ADMITTED;
            }
            return retry;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private ReliableSessionSender newSender(boolean linkTakes) {
        return new ReliableSessionSender(SessionConfig.defaults(), 1, new ReliableSessionSender.Output() {
            @Override
            public boolean transmit(long incarnation, int sequence, ByteBuf payload, boolean endOfMessage,
                    int ackInterval, boolean retransmission) {
                if (!linkTakes) {
                    return false;
                }
                sent.add(sequence);
                resent.add(retransmission);
                return true;
            }

            @Override
            public void acknowledged(int packets) {}
        });
    }

    private void offer(int messages) {
        for (int k = 0; k < messages; k++) {
            assertThat(sender.offerPrepared(Unpooled.buffer(8).writeLong(k), now)).isTrue();
        }
    }

    @AfterEach
    void close() {
        if (sender != null) {
            sender.close();
        }
    }

    @Test
    void withoutAMeterTheWindowAloneDecides() {
        sender = newSender(true);
        offer(5);
        assertThat(sent).containsExactly(0, 1, 2, 3, 4);
        assertThat(sender.gated()).isFalse();
    }

    @Test
    void aRefusedPacketWaitsForTheInstantTheMeterNamed() {
        sender = newSender(true);
        Purse purse = new Purse();
        purse.credit = 2;
        purse.retry = now + 30 * MS;
        sender.meter(purse);
        offer(5);
        assertThat(sent).containsExactly(0, 1);
        assertThat(sender.gated()).isTrue();
        assertThat(sender.nextDeadlineNanos()).isEqualTo(now + 30 * MS);

        sender.onTimer(now + 29 * MS);
        assertThat(sent).hasSize(2);
        purse.credit = 1;
        sender.onTimer(now + 30 * MS);
        assertThat(sent).containsExactly(0, 1, 2);
        assertThat(purse.asked).isEqualTo(5); // 2 bought, 1 refused (offers meanwhile do not ask), then 1 and 1
    }

    @Test
    void aWakeMakesTheSenderAskAtItsNextTimer() {
        sender = newSender(true);
        Purse purse = new Purse();
        sender.meter(purse);
        offer(3);
        assertThat(sent).isEmpty();
        assertThat(sender.nextDeadlineNanos()).isGreaterThan(now); // only the end-to-end timer
        purse.credit = 3;
        sender.wake();
        assertThat(sender.nextDeadlineNanos()).isLessThanOrEqualTo(now);
        sender.onTimer(now);
        assertThat(sent).containsExactly(0, 1, 2);
        assertThat(sender.gated()).isFalse();
    }

    @Test
    void resendsAreNotBoughtAgain() {
        sender = newSender(true);
        Purse purse = new Purse();
        purse.credit = 3;
        sender.meter(purse);
        offer(3);
        assertThat(purse.asked).isEqualTo(3);
        // Nothing acknowledged: the end-to-end timer resends all three without asking.
        sender.onTimer(sender.nextDeadlineNanos());
        assertThat(resent).contains(true);
        assertThat(purse.asked).isEqualTo(3);
    }

    @Test
    void aPacketTheFirstLinkRefusedIsNotPaidTwice() {
        sender = newSender(false);
        Purse purse = new Purse();
        purse.credit = 10;
        sender.meter(purse);
        offer(1);
        assertThat(sender.blocked()).isTrue();
        sender.pump(now);
        sender.pump(now);
        assertThat(purse.asked).isEqualTo(1);
        assertThat(purse.credit).isEqualTo(9);
    }

    @Test
    void aSessionEndOpensOneMeterOnItsAdmissionAndClosesIt() {
        SessionConfig config = SessionConfig.builder().build();
        long self = NodeId.ofName("a").value();
        long other = NodeId.ofName("b").value();
        List<NodeId> opened = new ArrayList<>();
        Purse purse = new Purse();
        SessionAdmission admission = (remote, metric, wake) -> {
            opened.add(remote);
            return purse;
        };
        SessionEndpoint mine = endpoint(config, self, other);
        SessionEndpoint unmetered = endpoint(config, self, other);
        assertThat(mine.metered()).isFalse();
        mine.admit(admission);
        mine.admit(admission); // once per session: a second admission opens no second meter
        unmetered.admit(null);
        assertThat(mine.metered()).isTrue();
        assertThat(unmetered.metered()).isFalse();
        assertThat(opened).containsExactly(new NodeId(other));
        mine.close();
        unmetered.close();
        assertThat(purse.closed).isTrue();
        SessionEndpoint closed = endpoint(config, self, other);
        closed.close();
        closed.admit(admission);
        assertThat(closed.metered()).as("a closed session end takes no meter").isFalse();
        assertThat(opened).hasSize(1);
    }

    private static SessionEndpoint endpoint(SessionConfig config, long self, long remote) {
        SessionEndpoint s = new SessionEndpoint(new SessionEndpoint.Key(7, remote, 7), RoutingMetric.HOPS, config, 1,
                UnpooledByteBufAllocator.DEFAULT, m -> { }, null, new SessionEndpoint.Output() {
                    @Override
                    public boolean transmit(SessionEndpoint session, long incarnation, int sequence, ByteBuf payload,
                            boolean endOfMessage, int ackInterval, boolean retransmission) {
                        return true;
                    }

                    @Override
                    public void deliver(SessionEndpoint session, ByteBuf message) {}
                });
        ByteBuf header = Unpooled.buffer(DataHeader.LENGTH);
        DataHeader.write(header, self, remote, 7, 7, 16, RoutingMetric.HOPS.ordinal(), 0, 1, 0);
        s.routeHeader(io.netty.buffer.ByteBufUtil.getBytes(header));
        return s;
    }
}

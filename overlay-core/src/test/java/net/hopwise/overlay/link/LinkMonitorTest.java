package net.hopwise.overlay.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import org.junit.jupiter.api.Test;

/** One monitor driven call by call by a scripted peer, to pin down each rule. */
class LinkMonitorTest {
    private static final long MS = 1_000_000L;
    private static final long T0 = 5_000 * MS;
    private static final HelloConfig CONFIG = HelloConfig.defaults();
    private static final long INTERVAL = CONFIG.interval().toNanos();
    private static final long DEAD = CONFIG.deadInterval().toNanos();
    private static final long PEER_INCARNATION = 42;

    private final Recorder out = new Recorder();
    private LinkMonitor monitor =
            new LinkMonitor(NodeId.ofName("self"), "self", NodeId.ofName("peer"), CONFIG, out, T0);

    /** Everything the monitor emitted, in order. */
    static final class Recorder implements LinkMonitorOutput {
        final List<String> events = new ArrayList<>();
        final List<HelloPacket> hellos = new ArrayList<>();

        @Override
        public void sendHello(HelloPacket hello) {
            hellos.add(hello);
            events.add("hello");
        }

        @Override
        public void linkUp(long nowNanos) {
            events.add("up");
        }

        @Override
        public void linkDown(long nowNanos) {
            events.add("down");
        }

        @Override
        public void qualityChanged(long nowNanos) {
            events.add("quality");
        }

        HelloPacket lastHello() {
            return hellos.get(hellos.size() - 1);
        }

        List<String> drain() {
            List<String> copy = new ArrayList<>(events);
            events.clear();
            return copy;
        }
    }

    private static HelloPacket peerHello(long seq, long sendTime, HelloPacket echoed, long hold) {
        return peerHello(seq, sendTime, echoed, hold, PEER_INCARNATION);
    }

    private static HelloPacket peerHello(long seq, long sendTime, HelloPacket echoed, long hold, long incarnation) {
        return echoed == null
                ? new HelloPacket(seq, sendTime, 0, 0, 0, 0, "peer", incarnation)
                : new HelloPacket(seq, sendTime, echoed.seq(), echoed.sendTimeNanos(), hold, 0, "peer", incarnation);
    }

    /** Brings the link up with a 20 ms RTT; the peer's clock reads 1,000,000 ms ahead of ours. */
    private void bringUp() {
        monitor.onTimer(T0);
        HelloPacket ours = out.lastHello();
        monitor.onHello(peerHello(1, 1_000_000 * MS + T0 + 20 * MS, ours, 2 * MS), T0 + 22 * MS);
        assertThat(monitor.status()).isEqualTo(LinkStatus.UP);
        out.drain();
    }

    @Test
    void constructorEmitsNothingAndTheFirstHelloIsDueAtCreation() {
        assertThat(out.events).isEmpty();
        assertThat(monitor.status()).isEqualTo(LinkStatus.CONNECTING);
        assertThat(monitor.nextDeadlineNanos()).isEqualTo(T0);

        monitor.onTimer(T0 - 1);
        assertThat(out.events).isEmpty();
        monitor.onTimer(T0);
        assertThat(out.hellos).containsExactly(new HelloPacket(1, T0, 0, 0, 0, 0, "self", monitor.incarnation()));
        // Nobody heard yet: probe at the slow rate.
        assertThat(monitor.nextDeadlineNanos()).isEqualTo(T0 + CONFIG.downInterval().toNanos());
    }

    @Test
    void aHelloWithoutOurEchoIsAnsweredAtOnceButDoesNotBringTheLinkUp() {
        monitor.onTimer(T0);
        out.drain();
        monitor.onHello(peerHello(7, 123, null, 0), T0 + 5 * MS);

        assertThat(monitor.status()).isEqualTo(LinkStatus.CONNECTING);
        assertThat(out.drain()).containsExactly("hello");
        assertThat(out.lastHello().echoSeq()).isEqualTo(7);
        assertThat(out.lastHello().echoSendTimeNanos()).isEqualTo(123);
        assertThat(out.lastHello().echoHoldNanos()).isZero();
        assertThat(monitor.nextDeadlineNanos()).isEqualTo(T0 + 5 * MS + INTERVAL);
        assertThat(monitor.peerName()).isEqualTo("peer");
    }

    @Test
    void aFreshEchoBringsTheLinkUpMeasuresRttAndIsAnswered() {
        monitor.onTimer(T0);
        HelloPacket ours = out.lastHello();
        out.drain();

        monitor.onHello(peerHello(1, 777, ours, 3 * MS), T0 + 33 * MS);

        assertThat(out.drain()).containsExactly("up", "quality", "hello");
        LinkStatistics s = monitor.statistics();
        assertThat(s.lastRttNanos()).isEqualTo(30 * MS);
        assertThat(s.srttNanos()).isEqualTo(30 * MS);
        assertThat(s.rttVarNanos()).isEqualTo(15 * MS);
        assertThat(s.minRttNanos()).isEqualTo(30 * MS);
        assertThat(monitor.oneWayLatencyNanos()).isEqualTo(15 * MS);
        assertThat(s.upTransitions()).isEqualTo(1);
    }

    @Test
    void echoesWeDidNotSendAreNotEvidence() {
        monitor.onTimer(T0);
        HelloPacket ours = out.lastHello();
        out.drain();

        monitor.onHello(new HelloPacket(1, 0, ours.seq(), ours.sendTimeNanos() + 1, 0, 0, "peer", 9), T0 + MS);
        monitor.onHello(new HelloPacket(2, 1, ours.seq() + 1, ours.sendTimeNanos(), 0, 0, "peer", 9), T0 + MS);

        assertThat(monitor.status()).isEqualTo(LinkStatus.CONNECTING);
        assertThat(monitor.statistics().srttNanos()).isZero();
        assertThat(monitor.oneWayLatencyNanos()).isZero();
    }

    @Test
    void negativeSamplesAreRejectedAndCounted() {
        monitor.onTimer(T0);
        HelloPacket ours = out.lastHello();

        // Held longer than the time since we sent it: a sample below zero.
        monitor.onHello(peerHello(1, 0, ours, 11 * MS), T0 + 10 * MS);
        // A negative hold is nonsense whatever the result.
        monitor.onHello(peerHello(2, 1, ours, -5 * MS), T0 + 10 * MS);

        assertThat(monitor.rejectedRttSamples()).isEqualTo(2);
        assertThat(monitor.statistics().srttNanos()).isZero();
        assertThat(monitor.statistics().minRttNanos()).isZero();
    }

    @Test
    void upCountRequiresThatManyFreshEchoesInARow() {
        HelloConfig three = HelloConfig.builder().upCount(3).build();
        monitor = new LinkMonitor(NodeId.ofName("self"), "self", NodeId.ofName("peer"), three, out, T0);
        monitor.onTimer(T0);
        HelloPacket ours = out.lastHello();
        monitor.onHello(peerHello(1, 0, ours, 0), T0 + MS);
        monitor.onHello(peerHello(2, 1, ours, MS), T0 + 2 * MS);
        // A stale echo in between starts the count again.
        monitor.onHello(peerHello(3, 2, null, 0), T0 + 3 * MS);
        monitor.onHello(peerHello(4, 3, ours, 0), T0 + 4 * MS);
        monitor.onHello(peerHello(5, 4, ours, 0), T0 + 5 * MS);
        assertThat(monitor.status()).isEqualTo(LinkStatus.CONNECTING);
        monitor.onHello(peerHello(6, 5, ours, 0), T0 + 6 * MS);
        assertThat(monitor.status()).isEqualTo(LinkStatus.UP);
    }

    @Test
    void silenceTakesTheLinkDownExactlyAfterTheDeadInterval() {
        bringUp();
        long last = T0 + 500 * MS;
        monitor.onPacketReceived(1, last);
        assertThat(monitor.nextDeadlineNanos()).isLessThanOrEqualTo(last + DEAD);

        for (long t = monitor.nextDeadlineNanos(); t < last + DEAD; t = monitor.nextDeadlineNanos()) {
            monitor.onTimer(t);
        }
        assertThat(monitor.status()).isEqualTo(LinkStatus.UP);
        assertThat(monitor.nextDeadlineNanos()).isEqualTo(last + DEAD);
        monitor.onTimer(last + DEAD - 1);
        assertThat(monitor.status()).isEqualTo(LinkStatus.UP);
        monitor.onTimer(last + DEAD);
        assertThat(monitor.status()).isEqualTo(LinkStatus.DOWN);
        assertThat(out.events).containsOnlyOnce("down");
        assertThat(monitor.statistics().downTransitions()).isEqualTo(1);
    }

    @Test
    void aPeerThatNoLongerHearsUsTakesTheLinkDownAtOnce() {
        bringUp();
        HelloPacket ours = out.hellos.get(0);
        // The echo is ours, but the peer has held it for a whole dead interval.
        monitor.onHello(peerHello(2, 1_000_000 * MS + T0 + DEAD, ours, DEAD), T0 + DEAD + 30 * MS);

        assertThat(monitor.status()).isEqualTo(LinkStatus.DOWN);
        assertThat(out.drain()).containsSubsequence("down", "hello");
        assertThat(monitor.peerRestarts()).isZero();
    }

    @Test
    void aNewIncarnationBouncesTheLinkAndForgetsThePeer() {
        bringUp();
        monitor.onTimer(monitor.nextDeadlineNanos());
        HelloPacket ours = out.lastHello();
        out.drain();
        long now = ours.sendTimeNanos() + 10 * MS;

        // The restarted peer already heard our latest hello: down and straight up again.
        monitor.onHello(peerHello(1, 5, ours, MS, PEER_INCARNATION + 1), now);

        assertThat(monitor.peerRestarts()).isEqualTo(1);
        assertThat(out.drain()).containsExactly("down", "up", "quality", "hello");
        assertThat(monitor.statistics().lastRttNanos()).isEqualTo(9 * MS);
        assertThat(out.lastHello().echoSeq()).isEqualTo(1);
    }

    @Test
    void staleHellosKeepTheLinkAliveButAreNotMeasured() {
        bringUp();
        long now = T0 + 200 * MS;
        monitor.onHello(peerHello(5, 1_000_000 * MS + now, out.hellos.get(0), 0), now);
        monitor.onHello(peerHello(6, 1_000_000 * MS + now + 100 * MS, out.hellos.get(0), 0), now + 100 * MS);
        out.drain();
        long jitter = monitor.statistics().jitterNanos();

        // A duplicate and a reordered older hello, the older one even without an echo.
        monitor.onHello(peerHello(6, 1_000_000 * MS + now + 100 * MS, out.hellos.get(0), 0), now + 150 * MS);
        monitor.onHello(peerHello(4, 3, null, 0), now + 160 * MS);

        assertThat(out.events).isEmpty();
        assertThat(monitor.staleHellos()).isEqualTo(2);
        assertThat(monitor.statistics().jitterNanos()).isEqualTo(jitter);
        assertThat(monitor.statistics().hellosReceived()).isEqualTo(5);
        monitor.onTimer(now + 160 * MS + DEAD - 1);
        assertThat(monitor.status()).isEqualTo(LinkStatus.UP);
    }

    @Test
    void peerHelloSequenceWrapsWithoutLookingStaleOrRestarted() {
        monitor.onTimer(T0);
        HelloPacket ours = out.lastHello();
        long max = HelloPacket.MAX_SEQ;
        long t = T0 + 10 * MS;
        for (long seq : new long[] {max - 1, max, 1, 2}) {
            monitor.onHello(peerHello(seq, t + 7, ours, 0), t);
            t += 100 * MS;
        }
        assertThat(monitor.staleHellos()).isZero();
        assertThat(monitor.peerRestarts()).isZero();
        assertThat(monitor.status()).isEqualTo(LinkStatus.UP);
        // In serial order, max is now behind 2.
        monitor.onHello(peerHello(max, t, ours, 0), t);
        assertThat(monitor.staleHellos()).isEqualTo(1);
    }

    @Test
    void ourHelloSequenceSkipsZeroWhenItWraps() {
        assertThat(LinkMonitor.nextSeq(1)).isEqualTo(2);
        assertThat(LinkMonitor.nextSeq(HelloPacket.MAX_SEQ - 1)).isEqualTo(HelloPacket.MAX_SEQ);
        assertThat(LinkMonitor.nextSeq(HelloPacket.MAX_SEQ)).isEqualTo(1);
    }

    @Test
    void outboundLossIsWhatThePeerReports() {
        bringUp();
        HelloPacket ours = out.hellos.get(0);
        monitor.onHello(new HelloPacket(2, 1_000_000 * MS + T0 + 120 * MS, ours.seq(), ours.sendTimeNanos(), 0,
                25_000, "peer", PEER_INCARNATION), T0 + 130 * MS);

        assertThat(monitor.outboundLossRate()).isEqualTo(0.025);
        assertThat(monitor.statistics().outboundLossRate()).isEqualTo(0.025);
        assertThat(out.events).contains("quality");
    }

    @Test
    void ourHellosCarryTheInboundLossWeMeasure() {
        bringUp();
        long t = T0 + 50 * MS;
        for (long seq = 1; seq <= 100; seq++) {
            if (seq != 50) {
                monitor.onPacketReceived(seq, t);
            }
        }
        assertThat(monitor.inboundLossRate()).isEqualTo(1.0 / 100);
        monitor.onTimer(monitor.nextDeadlineNanos());
        assertThat(out.lastHello().lossPpm()).isEqualTo(10_000);
    }

    @Test
    void resetReturnsToConnectingAndReportsTheLinkDown() {
        bringUp();
        long incarnation = monitor.incarnation();
        long now = T0 + 300 * MS;
        monitor.reset(now);

        assertThat(out.drain()).containsExactly("down");
        assertThat(monitor.status()).isEqualTo(LinkStatus.CONNECTING);
        assertThat(monitor.incarnation()).isNotEqualTo(incarnation);
        LinkStatistics s = monitor.statistics();
        assertThat(s.srttNanos()).isZero();
        assertThat(s.hellosSent()).isEqualTo(2);
        assertThat(s.downTransitions()).isEqualTo(1);
        assertThat(monitor.peerName()).isNull();
        assertThat(monitor.nextDeadlineNanos()).isEqualTo(now);

        // An echo of a hello from before the reset proves nothing any more.
        monitor.onHello(peerHello(9, 1, out.hellos.get(0), 0), now + MS);
        assertThat(monitor.status()).isEqualTo(LinkStatus.CONNECTING);
        // The sequence carries on across the reset, for the same reason.
        assertThat(out.lastHello().seq()).isEqualTo(3);
    }

    @Test
    void misuseIsRejectedWhenTheMonitorIsBuilt() {
        NodeId a = NodeId.ofName("a");
        assertThatThrownBy(() -> new LinkMonitor(a, "a", a, CONFIG, out, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LinkMonitor(a, "not a name", NodeId.ofName("b"), CONFIG, out, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LinkMonitor(a, "a", NodeId.ofName("b"), CONFIG, null, 0))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void incarnationIsNeverZeroEvenOnAClockThatStartsAtZero() {
        LinkMonitor m = new LinkMonitor(NodeId.ofName("a"), "a", NodeId.ofName("b"), CONFIG, out, 0);
        assertThat(m.incarnation()).isNotZero();
        m.reset(0);
        assertThat(m.incarnation()).isNotZero();
    }

    @Test
    void aSlowDownIntervalIsLeftAsSoonAsThePeerIsHeard() {
        HelloConfig config = HelloConfig.builder().downInterval(Duration.ofSeconds(5)).build();
        monitor = new LinkMonitor(NodeId.ofName("self"), "self", NodeId.ofName("peer"), config, out, T0);
        monitor.onTimer(T0);
        assertThat(monitor.nextDeadlineNanos()).isEqualTo(T0 + 5_000 * MS);
        monitor.onPacketReceived(0, T0 + MS);
        assertThat(monitor.nextDeadlineNanos()).isEqualTo(T0 + MS + INTERVAL);
    }
}

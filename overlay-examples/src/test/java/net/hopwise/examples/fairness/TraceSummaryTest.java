package net.hopwise.examples.fairness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A traced run of the layered-beside-TCP benchmark reduced to the simulator trace's quantities. */
class TraceSummaryTest {
    private static final List<String> DECISIONS = List.of(
            // Before the span: not counted, its level neither.
            "t=9.000 kind=INTERVAL samples=5 lowest=1900000 rpp=1900000 pkts=900 losses=0 l=0.00000 rtt=0.0900"
                    + " rtcp=Infinity target=1900000 from=3 to=18",
            // Padhye's rate under the estimate: the equation binds.
            "t=20.000 kind=INTERVAL samples=4 lowest=1800000 rpp=1800000 pkts=400 losses=10 l=0.02439 rtt=0.0900"
                    + " rtcp=500000 target=500000 from=6 to=4",
            // A split pair (under three quarters of 2 Mbit/s) sets the target.
            "t=21.000 kind=INTERVAL samples=4 lowest=900000 rpp=900000 pkts=400 losses=5 l=0.01235 rtt=0.1100"
                    + " rtcp=1200000 target=900000 from=4 to=8",
            "t=21.400 kind=STABILITY_DROP samples=1 lowest=300000 rpp=NaN pkts=0 losses=0 l=NaN rtt=NaN rtcp=NaN"
                    + " target=NaN from=8 to=2",
            // Too few samples and loss: the equation alone.
            "t=22.000 kind=INTERVAL samples=1 lowest=1500000 rpp=-1 pkts=300 losses=0 l=0.00000 rtt=0.1000"
                    + " rtcp=Infinity target=1500000 from=2 to=14");

    private static final List<String> QUEUE = List.of(
            "t=19.000 sent=1 drops=0 backlog=0 qlen=0 tcp_rtt=1.0 tcp_cwnd=99 tcp_mss=1000 tcp_retrans=0 tcp_segs=0",
            "t=20.000 sent=1 drops=100 backlog=30000 qlen=30 tcp_rtt=100.0 tcp_cwnd=20 tcp_mss=1000 tcp_retrans=10"
                    + " tcp_segs=1000",
            "t=20.200 sent=1 drops=104 backlog=15000 qlen=15 tcp_rtt=120.0 tcp_cwnd=14 tcp_mss=1000 tcp_retrans=12"
                    + " tcp_segs=1050",
            "t=20.400 sent=1 drops=110 backlog=0 qlen=0 tcp_rtt=80.0 tcp_cwnd=15 tcp_mss=1000 tcp_retrans=- tcp_segs=-",
            "t=21.000 sent=1 drops=120 backlog=15000 qlen=15 tcp_rtt=90.0 tcp_cwnd=15 tcp_mss=1000 tcp_retrans=20"
                    + " tcp_segs=1400");

    @Test
    void readsTheSpanOnly() {
        TraceSummary s = TraceSummary.of(DECISIONS, QUEUE, 20, 22, 2_000_000, 5);
        assertThat(s.intervals()).isEqualTo(3);
        assertThat(s.meanLossRate()).isCloseTo((0.02439 + 0.01235) / 3, within(1e-9));
        // 15 losses in three windows of 5 s.
        assertThat(s.eraEventsPerSecond()).isCloseTo(1.0, within(1e-9));
        assertThat(s.meanRttSeconds()).isCloseTo(0.1, within(1e-9));
        assertThat(s.equationBound()).isEqualTo(1);
        assertThat(s.splitPairs()).isEqualTo(1);
        assertThat(s.lowestLevel()).isEqualTo(2);
        assertThat(s.highestLevel()).isEqualTo(14);
    }

    @Test
    void aReceiverThatDecidedNothingInTheSpanSaysSo() {
        // The thesis's rules can leave the session before the span, and then the trace has nothing in it.
        TraceSummary s = TraceSummary.of(DECISIONS.subList(0, 1), QUEUE, 20, 22, 2_000_000, 5);
        assertThat(s.intervals()).isZero();
        assertThat(s.line()).contains("equation binds 0 of 0 intervals, split pair in 0, levels none decided; TCP");
    }

    @Test
    void readsTcpAndTheQueueOverTheSameSpan() {
        TraceSummary s = TraceSummary.of(DECISIONS, QUEUE, 20, 22, 2_000_000, 5);
        assertThat(s.tcpRttSeconds()).isCloseTo(0.095, within(1e-9));
        assertThat(s.tcpMeanCwnd()).isCloseTo(16, within(1e-9));
        // 20 to 14 is a cut; 14 to 15 and 15 to 15 are not.
        assertThat(s.tcpCutsPerSecond()).isCloseTo(0.5, within(1e-9));
        assertThat(s.tcpRetransmitShare()).isCloseTo(10.0 / 400, within(1e-9));
        // 15 000 bytes on average is 60 ms at 2 Mbit/s.
        assertThat(s.queueSeconds()).isCloseTo(0.06, within(1e-9));
        assertThat(s.dropsPerSecond()).isCloseTo(10, within(1e-9));
        assertThat(s.eraEventsPerTcpRtt()).isCloseTo(0.095, within(1e-9));
        assertThat(s.line()).startsWith("ERA: l 1.22%, 1.00 loss events/s (0.10 per TCP RTT), RTT used 100 ms,"
                + " equation binds 1 of 3 intervals, split pair in 1, levels 2 to 14; TCP: RTT 95 ms, cwnd 16.0");
    }
}

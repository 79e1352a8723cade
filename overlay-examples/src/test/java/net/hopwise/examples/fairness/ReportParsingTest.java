package net.hopwise.examples.fairness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.hopwise.examples.fairness.Dumbbell.QueueCounters;
import org.junit.jupiter.api.Test;

/** The text the benchmark reads from its peers, tc and ss. */
class ReportParsingTest {
    @Test
    void peerAnswersAreANameAndFields() {
        assertThat(PeerProcess.parse("@sample t=12 overlayBytes=3000 junk"))
                .containsEntry("@", "sample").containsEntry("t", "12").containsEntry("overlayBytes", "3000")
                .hasSize(3);
    }

    @Test
    void tcJsonGivesTheQdiscCounters() {
        String json = "[{\"kind\":\"tbf\",\"handle\":\"8002:\",\"root\":true,\"refcnt\":3,\"options\":{\"rate\":2500000,"
                + "\"burst\":15140,\"lat\":43944},\"bytes\":1234567,\"packets\":1000,\"drops\":7,\"overlimits\":50,"
                + "\"requeues\":0,\"backlog\":30280,\"qlen\":20}]";
        assertThat(QueueCounters.parse(json)).isEqualTo(new QueueCounters(1234567, 1000, 7, 30280, 20));
    }

    @Test
    void tcWithoutCountersIsAnError() {
        assertThatThrownBy(() -> QueueCounters.parse("[]")).hasMessageContaining("bytes");
    }

    @Test
    void ssGivesRttMinimumRttAndWindow() {
        String ss = "State Recv-Q Send-Q Local Address:Port Peer Address:Port Process\n"
                + "ESTAB 0 2893440 10.201.1.1:45678 10.201.2.2:5001\n"
                + "\t bbr wscale:7,7 rto:240 rtt:37.612/1.2 ato:40 mss:1448 pmtu:1500 rcvmss:536 advmss:1448 cwnd:20"
                + " bytes_sent:1 minrtt:0.052 snd_wnd:65535\n";
        assertThat(FairnessBenchmark.tcpInfo(ss)).containsExactly(37.612, 0.052, 20.0);
        assertThat(FairnessBenchmark.tcpInfo("State Recv-Q Send-Q\n")).isNull();
    }
}

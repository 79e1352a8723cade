package net.hopwise.examples.fairness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.hopwise.examples.fairness.LayeredTcpBenchmark.Outcome;
import net.hopwise.examples.fairness.LayeredTcpBenchmark.Setup;
import net.hopwise.multicast.layered.EraConfig;
import net.hopwise.multicast.layered.EraDecision;
import org.junit.jupiter.api.Test;

/** What the layered-beside-TCP benchmark sets up and how it reads its runs (no namespaces needed). */
class LayeredTcpSetupTest {
    private static final Bottleneck TWO_MBIT = Bottleneck.of(2, 120, 2 * Bottleneck.FRAME_BYTES);

    @Test
    void theTcpReceiverAdvertisesTheLayeredPacketSizeAsItsMss() {
        // Padhye's rate is proportional to the packet size: without this TCP ran 1448-byte segments
        // beside ERA's 1000-byte packets, and ERA aimed at 0.69 of TCP's rate.
        Setup setup = new Setup(TWO_MBIT, LayeredTcpPeer.PACKET, 2, 0, "", true);
        assertThat(setup.commands()).containsExactly(List.of("ip", "-n", Dumbbell.RIGHT, "route", "replace", "default",
                "via", "10.201.2.1", "advmss", "1000"));
    }

    @Test
    void theExteriorLinkGivesEachFlowAClassOfItsOwn() {
        List<List<String>> c = new Setup(TWO_MBIT, 1000, 2, 10, "", true).commands();
        assertThat(c).hasSize(5);
        assertThat(String.join(" ", c.get(1))).isEqualTo(
                "tc -n hwf-left qdisc replace dev hwf-l0 root handle 1: htb default 20");
        assertThat(String.join(" ", c.get(2))).isEqualTo("tc -n hwf-left class add dev hwf-l0 parent 1: classid 1:10"
                + " htb rate 10000000bit ceil 10000000bit burst 1514 cburst 1514");
        assertThat(String.join(" ", c.get(3))).contains("classid 1:20");
        // UDP, the overlay's datagrams, apart from the default class that TCP takes.
        assertThat(String.join(" ", c.get(4))).endsWith("u32 match ip protocol 17 0xff flowid 1:10");
    }

    @Test
    void bothNamespacesTakeTheAskedCongestionControlBeforeTheFlowConnects() {
        // The simulator's TCP is Reno; the kernel's default (BBR here, cubic on many) does not halve its
        // window on a loss. Set in the sender's namespace only, the receiver's end still showed bbr.
        List<List<String>> c = new Setup(TWO_MBIT, 1000, 2, 0, "reno", true).commands();
        assertThat(c).hasSize(3);
        assertThat(c.subList(1, 3).stream().map(x -> String.join(" ", x))).containsExactly(
                "ip netns exec hwf-left sysctl -q -w net.ipv4.tcp_congestion_control=reno",
                "ip netns exec hwf-right sysctl -q -w net.ipv4.tcp_congestion_control=reno");
        assertThat(new Setup(TWO_MBIT, 1000, 2, 0, "", true).commands()).hasSize(1);
    }

    @Test
    void theCongestionControlIsReadFromSs() {
        // As ss -tin printed them on this kernel, sender (reno asked) and receiver (the default).
        String sender = "State Recv-Q Send-Q Local Address:Port  Peer Address:PortProcess\n"
                + "ESTAB 0      32768     10.250.0.1:52636   10.250.0.2:5001\n"
                + "\t reno wscale:10,10 rto:204 rtt:0.048/0.055 mss:1448 pmtu:1500 cwnd:6149 retrans:0/1\n";
        String receiver = "ESTAB 0      0         10.250.0.2:5001   10.250.0.1:52636\n"
                + "\t bbr wscale:10,10 rto:204 rtt:0.019/0.009 ato:40 mss:1448 bbr:(bw:0bps,mrtt:0.019) cwnd:10\n";
        assertThat(LayeredTcpBenchmark.field(LayeredTcpBenchmark.SS_CC, sender)).isEqualTo("reno");
        assertThat(LayeredTcpBenchmark.field(LayeredTcpBenchmark.SS_CC, receiver)).isEqualTo("bbr");
        // Option words come before the name, and without window scaling rto: follows it.
        assertThat(LayeredTcpBenchmark.field(LayeredTcpBenchmark.SS_CC, "\t ts sack cubic rto:204 mss:1000"))
                .isEqualTo("cubic");
        assertThat(LayeredTcpBenchmark.field(LayeredTcpBenchmark.SS_CC, "State Recv-Q Send-Q\n")).isEqualTo("-");
    }

    @Test
    void theMonitorReadsRetransmissionsAndSegmentsFromSs() {
        String ss = "ESTAB 0 1 10.201.1.1:40000 10.201.2.2:5001 cubic wscale:7,7 rto:300 rtt:98.5/3.1 mss:1000"
                + " cwnd:17 ssthresh:12 bytes_retrans:52000 segs_out:4010 data_segs_out:4000 retrans:0/52 lost:0";
        assertThat(LayeredTcpBenchmark.field(LayeredTcpBenchmark.SS_RETRANS, ss)).isEqualTo("52");
        assertThat(LayeredTcpBenchmark.field(LayeredTcpBenchmark.SS_DATA_SEGS, ss)).isEqualTo("4000");
        assertThat(LayeredTcpBenchmark.field(LayeredTcpBenchmark.SS_MSS, ss)).isEqualTo("1000");
        assertThat(LayeredTcpBenchmark.field(LayeredTcpBenchmark.SS_RETRANS, "ESTAB cwnd:10 mss:1000")).isEqualTo("-");
    }

    @Test
    void withoutGsoTheSendersInterfacePassesOneSegmentPerPacket() {
        // An htb class spaces packets; a GSO burst is one packet to it, and its segments would reach the
        // bottleneck back to back.
        List<List<String>> c = new Setup(TWO_MBIT, 1000, 2, 10, "", false).commands();
        assertThat(c).hasSize(6);
        assertThat(String.join(" ", c.get(1))).isEqualTo("ip -n hwf-left link set dev hwf-l0 gso_max_segs 1");
        assertThat(new Setup(TWO_MBIT, 1000, 2, 10, "", true).commands()).hasSize(5);
    }

    @Test
    void theReportSaysHowTheRunWasSetUp() {
        assertThat(new Setup(TWO_MBIT, 1000, 2, 10, "reno", false).describe()).endsWith("; exterior link 10 Mbit/s;"
                + " TCP reno, MSS at most 1000 bytes, one segment per packet (gso_max_segs 1); bunches of 2");
        assertThat(new Setup(TWO_MBIT, 1000, 4, 0, "", true).describe()).endsWith("; exterior link none (veth);"
                + " TCP with the namespace's default congestion control, MSS at most 1000 bytes, segments in GSO"
                + " bursts; bunches of 4");
    }

    @Test
    void theWireLeadsTheBottlenecksTrafficThroughTheRelayAtTheBucketsRate() {
        Setup setup = new Setup(TWO_MBIT, 1000, 2, 10, "reno", false, true, 0.1);
        List<String> c = setup.wireCommands().stream().map(x -> String.join(" ", x)).toList();
        // The middle namespace's tunnel sends each frame to the relay, which hands it to the receivers' end.
        assertThat(c).contains("ip -n hwf-mid link add hwf-x0 mtu 1500 type vxlan id 201 local 10.201.4.1"
                + " remote 10.201.4.2 dstport 4790 nolearning",
                "ip -n hwf-right link add hwf-x1 address 02:00:0a:c9:03:02 mtu 1500 type vxlan id 201"
                + " local 10.201.4.2 dstport 4789 nolearning",
                "ip -n hwf-mid route replace 10.201.2.2/32 via 10.201.3.2 dev hwf-x0",
                "ip -n hwf-mid neigh replace 10.201.3.2 lladdr 02:00:0a:c9:03:02 dev hwf-x0 nud permanent",
                "ip netns exec hwf-mid sysctl -q -w net.ipv4.conf.all.rp_filter=0");
        // The tunnel's datagrams are 50 bytes longer than the frames they carry.
        assertThat(c).contains("ip -n hwf-mid link set hwf-m1 mtu 1600", "ip -n hwf-right link set hwf-r0 mtu 1600");
        assertThat(Setup.WIRE_DEVICE).isEqualTo("hwf-x0");
        assertThat(setup.relayArguments()).containsExactly("--listen", "10.201.4.2:4790", "--to", "10.201.4.2:4789",
                "--rate-bps", "2000000", "--propagation-ms", "0.1");
        assertThat(setup.describe()).contains("a wire behind it (transmission time at its rate, then 0.1 ms)");
        assertThat(new Setup(TWO_MBIT, 1000, 2, 10, "reno", false).wire()).isFalse();
        assertThat(new Setup(TWO_MBIT, 1000, 2, 10, "reno", false).describe())
                .contains("no wire (the veth delivers at release)");
    }

    @Test
    void anExteriorBucketOfOneByteSpacesEveryPacket() {
        List<List<String>> c = new Setup(TWO_MBIT, 1000, 2, 10, "", true, true, 0.1, Setup.SPACING_BUCKET_BYTES)
                .commands();
        assertThat(String.join(" ", c.get(2))).isEqualTo("tc -n hwf-left class add dev hwf-l0 parent 1: classid 1:10"
                + " htb rate 10000000bit ceil 10000000bit burst 1 cburst 1");
        assertThat(new Setup(TWO_MBIT, 1000, 2, 10, "", true, true, 0.1, 1).describe())
                .contains("exterior link 10 Mbit/s (bucket 1 B);");
        assertThat(new Setup(TWO_MBIT, 1000, 2, 10, "", true, true, 0.1).edgeBurstBytes()).isEqualTo(1514);
    }

    @Test
    void refusesWhatCannotBeSetUp() {
        assertThatThrownBy(() -> new Setup(TWO_MBIT, 1000, 2, 10, "", true, true, 0.1, -1))
                .hasMessageContaining("--edge-burst");
        // tc would put its default bucket in place of 0, which passes a pair back to back.
        assertThatThrownBy(() -> new Setup(TWO_MBIT, 1000, 2, 10, "", true, true, 0.1, 0))
                .hasMessageContaining("--edge-burst");
        assertThatThrownBy(() -> new Setup(TWO_MBIT, 1000, 2, 0, "", true, true, -1))
                .hasMessageContaining("--propagation-ms");
        assertThatThrownBy(() -> new Setup(TWO_MBIT, 1448 + 100, 2, 0, "", true)).hasMessageContaining("--tcp-mss");
        assertThatThrownBy(() -> new Setup(TWO_MBIT, 1000, 1, 0, "", true)).hasMessageContaining("--bunch");
        assertThatThrownBy(() -> new Setup(TWO_MBIT, 1000, 2, 1.5, "", true)).hasMessageContaining("faster than the bottleneck");
        assertThatThrownBy(() -> LayeredTcpPeer.rules("era")).hasMessageContaining("unknown rules");
        assertThatThrownBy(() -> new Setup(TWO_MBIT, 1000, 2, 0, "reno; reboot", true)).hasMessageContaining("--tcp-cc");
    }

    @Test
    void rulesByName() {
        assertThat(LayeredTcpPeer.rules("thesis").lossEvents()).isFalse();
        assertThat(LayeredTcpPeer.rules("fair").estimateIntervals()).isEqualTo(3);
        EraConfig slow = LayeredTcpPeer.rules("fair-slow");
        assertThat(slow.estimateIntervals()).isEqualTo(6);
        assertThat(slow.lossWindowNanos()).isEqualTo(10_000_000_000L);
        assertThat(slow.lossEvents()).isTrue();
        assertThat(LayeredTcpPeer.rules("prompt").riseCap()).isEqualTo(EraConfig.prompt().riseCap());
        assertThat(LayeredTcpPeer.rules("prompt").lossHistory()).isFalse();
        assertThat(LayeredTcpPeer.rules("tfrc").lossHistory()).isTrue();
        assertThat(LayeredTcpPeer.rules("tfrc").queueDrain()).isFalse();
        EraConfig friendly = LayeredTcpPeer.rules("friendly");
        assertThat(friendly.lossEpisodeRtts()).isEqualTo(EraConfig.friendly().lossEpisodeRtts()).isPositive();
        assertThat(friendly.pacedLoss()).isTrue();
        assertThat(friendly.lossHistory()).isTrue();
        EraConfig drain = LayeredTcpPeer.rules("drain");
        assertThat(drain.queueDrain()).isTrue();
        assertThat(drain.riseCap()).isEqualTo(EraConfig.prompt().riseCap());
        assertThat(drain.queueRiseNanos()).isEqualTo(EraConfig.prompt().queueRiseNanos()).isPositive();
    }

    @Test
    void theOutcomeIsTheSecondHalfOfTheRun() {
        List<Map<String, String>> samples = new ArrayList<>();
        for (int t = 1; t <= 40; t++) {
            // 1000 bytes a second of layered packets in the first half, 125 000 after; TCP 250 000 throughout.
            long layered = t <= 20 ? 1000L * t : 20_000L + 125_000L * (t - 20);
            samples.add(Map.of("t", String.valueOf(t), "layered", String.valueOf(layered), "tcp",
                    String.valueOf(250_000L * t), "level", String.valueOf(t)));
        }
        Outcome o = LayeredTcpBenchmark.outcome(samples, 40, "reno");
        assertThat(o.layered()).isCloseTo(1_000_000, within(1e-6));
        assertThat(o.tcp()).isCloseTo(2_000_000, within(1e-6));
        assertThat(o.f()).isCloseTo(0.5, within(1e-9));
        assertThat(o.jain()).isCloseTo(0.9, within(1e-9));
        assertThat(o.level()).isEqualTo(40);
        assertThat(o.tcpCc()).isEqualTo("reno");
        assertThatThrownBy(() -> LayeredTcpBenchmark.outcome(samples.subList(0, 39), 40, "reno"))
                .hasMessageContaining("39 samples of 40");
    }

    @Test
    void aDecisionIsOneLineOfItsFields() {
        EraDecision d = new EraDecision(3_500_000_000L, EraDecision.Kind.INTERVAL, new double[] {950_000, 1_900_000},
                950_000, 400, 8, 0.02, 0.09, 640_000, 640_000, 8, 5);
        assertThat(LayeredTcpPeer.decisionLine(d, 1_000_000_000L)).isEqualTo("t=2.500 kind=INTERVAL samples=2"
                + " lowest=950000 rpp=950000 pkts=400 losses=8 l=0.02000 rtt=0.0900 rtcp=640000 target=640000 from=8 to=5"
                + " all=950,1900");
        EraDecision none = new EraDecision(3_500_000_000L, EraDecision.Kind.START, new double[0], Double.NaN, 0, 0,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, -1, 0);
        assertThat(LayeredTcpPeer.decisionLine(none, 1_000_000_000L)).endsWith(" all=-");
    }

    @Test
    void mediansOfOddAndEvenCounts() {
        assertThat(LayeredTcpBenchmark.median(new double[] {0.9, 0.3, 1.2})).isEqualTo(0.9);
        assertThat(LayeredTcpBenchmark.median(new double[] {0.4, 0.2})).isCloseTo(0.3, within(1e-12));
    }
}

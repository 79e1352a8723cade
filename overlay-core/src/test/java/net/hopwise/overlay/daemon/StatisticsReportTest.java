package net.hopwise.overlay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.Map;
import net.hopwise.overlay.link.LinkStatus;
import org.junit.jupiter.api.Test;

class StatisticsReportTest {
    @Test
    void dropsAreCountedSinceThePreviousReportLargestFirst() {
        Map<String, Long> before = Map.of("impairment", 10L, "no_route", 3L, "duplicate", 4L);
        Map<String, Long> now = Map.of("impairment", 40L, "no_route", 3L, "duplicate", 9L, "truncated", 5L);
        assertThat(StatisticsReport.dropLine(before, now)).isEqualTo(
                "drops since the last report: impairment 30, duplicate 5, truncated 5 (40 in all, 57 since start)");
    }

    @Test
    void noNewDropsSaysSoWithTheTotal() {
        Map<String, Long> drops = Map.of("impairment", 7L, "no_route", 0L);
        assertThat(StatisticsReport.dropLine(drops, drops)).isEqualTo("drops: none since the last report (7 since start)");
        assertThat(StatisticsReport.dropLine(Map.of(), Map.of())).isEqualTo(
                "drops: none since the last report (0 since start)");
    }

    @Test
    void aLinkLineShowsStateAddressRttJitterLossAndTheReliableChannel() {
        var row = new StatisticsReport.LinkRow("b", LinkStatus.UP, new InetSocketAddress("127.0.0.1", 8101),
                1_234_000, 900_000, 50_000, 0.1, 0.025, 17, 3);
        assertThat(StatisticsReport.linkLine(row)).isEqualTo("link b UP at 127.0.0.1:8101: rtt 1.23 ms (min 0.90 ms),"
                + " jitter 0.05 ms, loss in 10.0% out 2.5%, reliable retransmissions 17 queue 3");
    }

    @Test
    void aLinkWithoutMeasurementsSaysSo() {
        var row = new StatisticsReport.LinkRow("c", LinkStatus.CONNECTING, new InetSocketAddress("::1", 8102),
                0, 0, 0, 0, 0, 0, 0);
        assertThat(StatisticsReport.linkLine(row)).isEqualTo(
                "link c CONNECTING at [0:0:0:0:0:0:0:1]:8102: no rtt yet, loss in 0.0% out 0.0%,"
                        + " reliable retransmissions 0 queue 0");
    }
}

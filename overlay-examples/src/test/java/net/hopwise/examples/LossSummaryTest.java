package net.hopwise.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LossSummaryTest {
    private static final List<LossSummary.Direction> CHORD = List.of(
            new LossSummary.Direction("a", "c", 1000, 899, 0.095),
            new LossSummary.Direction("c", "a", 2000, 1800, 0.11));
    private static final LossSummary.Recovery RECOVERY = new LossSummary.Recovery(12, 150, 0, 75, 70);

    private static List<String> lines(LossSummary.Tally across, LossSummary.Tally reliable, long refused) {
        return LossSummary.lines("a-c", 0.10, CHORD, across, new LossSummary.Tally(3587, 3587, 0), refused, reliable,
                new LossSummary.Tally(973, 961, 2), RECOVERY);
    }

    @Test
    void eachKindHasItsCountsAndItsReason() {
        List<String> lines = lines(new LossSummary.Tally(293, 268, 0), new LossSummary.Tally(195, 195, 0), 20);
        assertThat(lines).containsExactly(
                "Lossy link a-c: configured 10.0% loss each way",
                "  a -> c: 101 of 1000 packets lost (10.1%); hello estimate 9.5%",
                "  c -> a: 200 of 2000 packets lost (10.0%); hello estimate 11.0%",
                "  messages                               sent  delivered   late     lost    loss",
                "  best effort, route across a-c           293        268      0       25    8.5%",
                "    why: best effort is never resent, by design: what the link drops stays lost (expect about 10.0%)",
                "  best effort, other routes              3587       3587      0        0    0.0%",
                "    why: routes without the lossy link lose nothing",
                "    (20 best-effort sends refused before routes existed: never sent, not counted)",
                "  reliable session over a-c               195        195      0        0    0.0%",
                "    why: none lost: the link repaired its losses hop by hop (12 packets resent, 150 lone last"
                        + " packets sent twice at once)",
                "  real-time flow over a-c                 973        961      2       12    1.2%",
                "    why: residual after recovery: 70 losses repaired in time after 75 requests (one per gap); a packet"
                        + " whose request or repair is lost too stays lost (expect about 1.9%)");
    }

    @Test
    void reliableMessagesNotYetDeliveredAreOnTheirWayNotLost() {
        List<String> lines = lines(new LossSummary.Tally(0, 0, 0), new LossSummary.Tally(200, 197, 0), 0);
        assertThat(lines).contains("    why: no route crossed the lossy link",
                "    why: 3 still on their way when the demo stopped: reliable messages are resent until they arrive");
        assertThat(lines).noneMatch(l -> l.contains("refused"));
        assertThat(lines).anyMatch(l -> l.matches("  best effort, route across a-c +0 +0 +0 +0 +-"));
    }

    @Test
    void theResidualOfOneRepairAcrossTheSameLossyLinkIsAboutTwiceTheLossSquared() {
        assertThat(LossSummary.residual(0.10)).isCloseTo(0.019, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(LossSummary.residual(0)).isZero();
        assertThat(LossSummary.residual(1)).isEqualTo(1);
    }
}

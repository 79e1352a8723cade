package net.hopwise.admin.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The charts' history of a link, driven by samples with their own times: no clock, no waiting. */
class LinkSeriesTest {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private static LinkHistory.Sample sample(long second, double rtt) {
        return new LinkHistory.Sample(START.plusSeconds(second), LinkState.UP, rtt, 1.0, 0.0, 8000.0);
    }

    private static Instant at(long second) {
        return START.plusSeconds(second);
    }

    @Test
    void fifteenMinutesOfOneSecondSamplesOutliveTheFullResolutionCapacity() {
        // The service's defaults: 600 samples at one a second is ten minutes at full resolution.
        LinkSeries series = LinkHistory.newSeries(600);
        for (int s = 0; s < 20 * 60; s++) {
            series.add(sample(s, s < 10 * 60 ? 10 : 50));
        }
        List<LinkHistory.Sample> window = series.window(at(20 * 60 - 15 * 60), at(20 * 60), 10_000);

        assertThat(window.get(0).time()).isBefore(at(20 * 60 - 14 * 60));
        assertThat(window.get(window.size() - 1).time()).isEqualTo(at(20 * 60 - 1));
        // The five minutes before the full-resolution samples come as 10-second means: 30 of them.
        assertThat(window).hasSize(600 + 30);
        assertThat(window.subList(0, 30)).allSatisfy(p -> assertThat(p.rttMs()).isEqualTo(10.0));
        assertThat(window.subList(30, window.size())).allSatisfy(p -> assertThat(p.rttMs()).isEqualTo(50.0));
        assertThat(window.get(0).time()).isEqualTo(at(300 + 4).plusMillis(500));
        // The latest samples are still there sample by sample.
        assertThat(series.latest(3)).extracting(LinkHistory.Sample::time).containsExactly(at(1197), at(1198), at(1199));
    }

    @Test
    void anHourIsKeptInABoundedNumberOfPoints() {
        LinkSeries series = LinkHistory.newSeries(600);
        for (int s = 0; s < 5 * 3600; s++) {
            series.add(sample(s, s % 100));
        }
        List<LinkHistory.Sample> all = series.all();
        // 600 full-resolution samples and the hour of 10-second means before them, less what they overlap.
        assertThat(all.size()).isLessThanOrEqualTo(600 + 360);
        assertThat(Duration.between(all.get(0).time(), all.get(all.size() - 1).time()))
                .isGreaterThan(Duration.ofMinutes(59));
    }

    @Test
    void aLongWindowIsThinnedToTheRequestedPointsByMeansOfEqualSlices() {
        LinkSeries series = LinkHistory.newSeries(600);
        for (int s = 0; s < 900; s++) {
            series.add(sample(s, s < 450 ? 10 : 30));
        }
        List<LinkHistory.Sample> thin = series.window(at(0), at(900), 90);

        assertThat(thin).hasSizeLessThanOrEqualTo(90).hasSizeGreaterThan(80);
        assertThat(thin.get(0).rttMs()).isEqualTo(10.0);
        assertThat(thin.get(thin.size() - 1).rttMs()).isEqualTo(30.0);
        assertThat(thin).extracting(LinkHistory.Sample::time).isSorted();
    }

    @Test
    void aMeanKeepsTheWorstStateAndLeavesOutMissingFigures() {
        LinkSeries series = new LinkSeries(1, Duration.ofSeconds(10), 10);
        series.add(new LinkHistory.Sample(at(0), LinkState.UP, 10.0, null, 0.0, null));
        series.add(new LinkHistory.Sample(at(1), LinkState.DOWN, null, null, 1.0, null));
        series.add(new LinkHistory.Sample(at(2), LinkState.UP, 20.0, null, 0.5, null));
        series.add(new LinkHistory.Sample(at(10), LinkState.UP, 5.0, null, 0.0, null));

        LinkHistory.Sample bucket = series.all().get(0);
        assertThat(bucket.state()).isEqualTo(LinkState.DOWN);
        assertThat(bucket.rttMs()).isEqualTo(15.0);
        assertThat(bucket.lossRate()).isEqualTo(0.5);
        assertThat(bucket.jitterMs()).isNull();
        assertThat(bucket.time()).isEqualTo(at(1));
    }
}

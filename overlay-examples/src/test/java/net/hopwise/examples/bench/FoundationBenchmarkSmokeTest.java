package net.hopwise.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import net.hopwise.examples.bench.BenchmarkSettings.Scenario;
import org.junit.jupiter.api.Test;

/**
 * Runs each scenario for a moment and checks that the table is well formed: the rows are there and
 * their numbers are positive. Nothing here judges speed: benchmarks are not timed tests.
 */
class FoundationBenchmarkSmokeTest {
    private static final BenchmarkSettings TINY = BenchmarkSettings.full()
            .withRoundTrips(20, 100)
            .withThroughput(Duration.ofMillis(50), Duration.ofMillis(200), 2)
            .withOverlay(5, Duration.ofMillis(100));

    @Test
    void roundTripRowsAreWellFormed() {
        List<String[]> rows = run(EnumSet.of(Scenario.RTT));
        // 16 rows with the published loop spin, and 2 with loops that sleep at once.
        assertThat(TINY.spinBeforeSleep()).isPositive();
        assertThat(rows).hasSize(18);
        assertThat(rows.get(16)[1]).contains("sleep at once");
        assertThat(rows).extracting(r -> r[2]).containsOnly("p50 (µs)", "p90 (µs)", "p99 (µs)", "mean (µs)");
        for (String[] r : rows) {
            assertThat(number(r[3])).as(String.join("|", r)).isPositive();
            assertThat(number(r[4])).as(String.join("|", r)).isPositive();
            assertThat(r[5]).endsWith("x");
        }
        String[] threeHopP50 = rows.get(4);
        assertThat(threeHopP50[1]).contains("3 overlay hops").contains("one loop per core");
        assertThat(rows.get(10)[1]).contains("a thread per node");
        assertThat(threeHopP50[6]).isEqualTo("≤ 4.00x");
        assertThat(threeHopP50[7]).isIn("yes", "**no**");
    }

    @Test
    void throughputRowsAreWellFormed() {
        List<String[]> rows = run(EnumSet.of(Scenario.THROUGHPUT));
        boolean offload = io.netty.channel.epoll.EpollDatagramChannel.isSegmentedDatagramPacketSupported();
        List<String> metrics = new ArrayList<>(List.of("sent (msg/s)", "received (msg/s)",
                "received payload (Mbit/s)", "loss (%)"));
        if (offload) {
            // Informational: the same overlay against raw UDP with GSO and GRO.
            metrics.addAll(List.of("received (msg/s)", "loss (%)"));
        }
        assertThat(rows).extracting(r -> r[2]).containsExactlyElementsOf(metrics);
        if (offload) {
            assertThat(rows.get(4)[1]).contains("GSO and GRO");
            assertThat(number(rows.get(4)[4])).isPositive();
        }
        for (int i = 0; i < 3; i++) {
            assertThat(number(rows.get(i)[3])).as(String.join("|", rows.get(i))).isPositive();
            assertThat(number(rows.get(i)[4])).as(String.join("|", rows.get(i))).isPositive();
        }
        assertThat(number(rows.get(3)[3])).isBetween(0.0, 100.0);
        assertThat(rows.get(1)[6]).isEqualTo("≥ 0.80x");
        assertThat(rows.get(1)[7]).isIn("yes", "**no**");
    }

    @Test
    void memoryRowsAreWellFormed() {
        List<String[]> rows = run(EnumSet.of(Scenario.MEMORY));
        assertThat(rows).hasSize(4);
        assertThat(rows.get(1)[2]).startsWith("5-node overlay");
        for (String[] r : rows) {
            assertThat(number(r[3])).as(String.join("|", r)).isPositive();
            assertThat(r[4]).isEqualTo("—");
        }
    }

    /** Runs the scenarios and returns the table's body rows split into cells (cell 0 is empty). */
    private static List<String[]> run(Set<Scenario> scenarios) {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        FoundationBenchmark.Report report = FoundationBenchmark.run(TINY.withScenarios(scenarios), "test",
                new PrintStream(progress, true, StandardCharsets.UTF_8));
        String markdown = report.toMarkdown();
        assertThat(markdown).contains(ResultTable.HEADER).contains("Machine: ").contains("Date: ");
        List<String[]> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : markdown.split("\n")) {
            if (line.equals(ResultTable.HEADER)) {
                inTable = true;
            } else if (inTable && line.startsWith("|---")) {
                continue;
            } else if (inTable && line.startsWith("| ")) {
                String[] cells = line.split("\\|", -1);
                for (int i = 0; i < cells.length; i++) {
                    cells[i] = cells[i].trim();
                }
                assertThat(cells).as(line).hasSize(9);
                rows.add(cells);
            } else if (inTable) {
                break;
            }
        }
        return rows;
    }

    private static double number(String cell) {
        return Double.parseDouble(cell);
    }
}

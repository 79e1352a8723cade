package net.hopwise.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scenario files: parsed, run, reported, and reproducible. */
class ScenarioFileTest {
    private static final List<String> SCENARIO = List.of(
            "# a diamond with a failure",
            "seed 9",
            "node a b c d",
            "link a b delay=5ms bandwidth=10Mbps queue=droptail:50 loss=1%",
            "link b d delay=5ms bandwidth=10Mbps queue=red:60",
            "link a c delay=8ms bandwidth=10Mbps queue=fq:50:1500 loss=ge:0.01,0.3,0,0.8 jitter=1ms",
            "link c d delay=8ms",
            "cbr a d rate=200kbps size=500 from=3s to=12s",
            "tcp newreno a,b,d rate=400kbps size=1000 from=0s to=12s",
            "at 6s fail b d",
            "at 8s restore b d",
            "at 9s change a b delay=20ms loss=0.5%",
            "run 15s");

    private static String run(List<String> lines, StringBuilder report) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String digest = ScenarioFile.run(lines, new PrintStream(out, true, StandardCharsets.UTF_8));
        report.append(out.toString(StandardCharsets.UTF_8));
        return digest;
    }

    @Test
    void aScenarioRunsReportsItsFlowsAndReproduces() {
        StringBuilder report = new StringBuilder();
        String first = run(SCENARIO, report);
        String again = run(SCENARIO, new StringBuilder());
        List<String> reseeded = new java.util.ArrayList<>(SCENARIO);
        reseeded.set(1, "seed 10");
        String other = run(reseeded, new StringBuilder());
        assertThat(again).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
        assertThat(report.toString()).contains("| cbr a->d | 450 |").contains("| tcp NewReno a,b,d | 600 |")
                .contains("b->d").contains("trace " + first);
    }

    @Test
    void valuesAndMistakesAreReadStrictly() {
        assertThat(ScenarioFile.duration("250ms")).isEqualTo(250_000_000L);
        assertThat(ScenarioFile.duration("2s")).isEqualTo(2_000_000_000L);
        assertThat(ScenarioFile.duration("5us")).isEqualTo(5_000L);
        assertThat(ScenarioFile.bits("10Mbps")).isEqualTo(10_000_000L);
        assertThat(ScenarioFile.bits("500kbps")).isEqualTo(500_000L);
        assertThatThrownBy(() -> ScenarioFile.duration("10")).hasMessageContaining("unit");
        assertThatThrownBy(() -> ScenarioFile.run(List.of("node a", "lnk a b"), System.out))
                .hasMessageContaining("unknown statement");
        assertThatThrownBy(() -> ScenarioFile.run(List.of("node a b", "link a b delay=1ms"), System.out))
                .hasMessageContaining("run <duration>");
    }
}

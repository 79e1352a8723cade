package net.hopwise.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

class DemoOverlayTest {
    private static List<NodeId> path(String... names) {
        return java.util.Arrays.stream(names).map(NodeId::ofName).toList();
    }

    @Test
    void onlyARouteWithTheChordAsOneOfItsHopsCrossesIt() {
        assertThat(DemoOverlay.crossesChord(path("a", "c"))).isTrue();
        assertThat(DemoOverlay.crossesChord(path("d", "c", "a", "e"))).isTrue();
        assertThat(DemoOverlay.crossesChord(path("a", "b", "c"))).isFalse();
        assertThat(DemoOverlay.crossesChord(path("c", "d", "e", "a"))).isFalse();
        assertThat(DemoOverlay.crossesChord(List.of())).isFalse();
    }

    /** A short run of the real demo: every kind of message is counted and accounted for in the summary. */
    @Test
    void theSummaryAccountsForEveryKindOfMessage() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DemoOverlay demo = new DemoOverlay()) {
            Random random = new Random(7);
            Eventually.await("messages of every kind delivered", () -> {
                demo.sendRound(random);
                demo.sendReliable();
                demo.sendRealTime();
                String summary = String.join("\n", demo.summary());
                return delivered(summary, "best effort, route across a-c") > 0
                        && delivered(summary, "best effort, other routes") > 0
                        && delivered(summary, "reliable session over a-c") >= 10
                        && delivered(summary, "real-time flow over a-c") >= 10;
            });
            demo.finish(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        }
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("Summary", "Lossy link a-c: configured 10.0% loss each way", "a -> c: ", "c -> a: ");
        for (String kind : List.of("best effort, route across a-c", "best effort, other routes",
                "reliable session over a-c", "real-time flow over a-c")) {
            Matcher m = row(out, kind);
            long sent = Long.parseLong(m.group(1));
            long delivered = Long.parseLong(m.group(2));
            long lost = Long.parseLong(m.group(4));
            assertThat(delivered).as(kind).isPositive().isLessThanOrEqualTo(sent);
            assertThat(lost).as(kind).isEqualTo(sent - delivered);
        }
        assertThat(out).contains("why: best effort is never resent, by design", "why: residual after recovery: ");
    }

    private static long delivered(String summary, String kind) {
        return Long.parseLong(row(summary, kind).group(2));
    }

    private static Matcher row(String text, String kind) {
        Matcher m = Pattern.compile("(?m)^  " + Pattern.quote(kind) + " +(\\d+) +(\\d+) +(\\d+) +(\\d+) ").matcher(text);
        assertThat(m.find()).as("a row for " + kind + " in\n" + text).isTrue();
        return m;
    }
}

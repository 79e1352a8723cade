package net.hopwise.overlay.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The trace module is the proof that a module needs only the public SPI: its sources may name the
 * SPI package and a few public value types of the node, never the node's internals.
 */
class TraceModuleBoundaryTest {
    private static final Path SOURCES = Path.of("src/main/java/net/hopwise/overlay/trace");
    /** The project's packages and types a module may use besides its own. */
    private static final Set<String> ALLOWED = Set.of(
            "net.hopwise.overlay.spi",
            "net.hopwise.overlay.NodeId",
            "net.hopwise.overlay.NodeConfig",
            "net.hopwise.overlay.NodeListener",
            "net.hopwise.overlay.NodeEvent",
            "net.hopwise.overlay.routing.RoutingMetric",
            "net.hopwise.overlay.link.LinkStatistics",
            "net.hopwise.overlay.link.LinkStatus");
    private static final Pattern PROJECT_NAME = Pattern.compile("\\bnet\\.hopwise\\.overlay\\.[A-Za-z0-9_.]+");

    @Test
    void theTraceModuleUsesOnlyThePublicSpi() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(SOURCES)) {
            files = s.filter(p -> p.toString().endsWith(".java")).toList();
        }
        assertThat(files).as("the module's sources, read from " + SOURCES.toAbsolutePath())
                .extracting(p -> p.getFileName().toString()).contains("TraceModule.java", "TraceStage.java");
        for (Path file : files) {
            assertThat(violations(Files.readString(file))).as(file.getFileName().toString()).isEmpty();
        }
    }

    @Test
    void theScanCatchesImportsAndQualifiedNamesOfTheNode() {
        String source = """
                package net.hopwise.overlay.trace;
                import net.hopwise.overlay.spi.Stage;
                import net.hopwise.overlay.NodeId;
                import net.hopwise.overlay.node.NodeStack;
                import static net.hopwise.overlay.node.NodeCounters.drop;
                class X { net.hopwise.overlay.node.Neighbour n; net.hopwise.overlay.wire.WireHeader h; }
                """;
        assertThat(violations(source)).containsExactly("net.hopwise.overlay.node.NodeStack",
                "net.hopwise.overlay.node.NodeCounters.drop", "net.hopwise.overlay.node.Neighbour",
                "net.hopwise.overlay.wire.WireHeader");
    }

    /** Every name of the project's that is neither the module's own package nor allowed. */
    static List<String> violations(String source) {
        List<String> found = new ArrayList<>();
        Matcher m = PROJECT_NAME.matcher(source);
        while (m.find()) {
            String name = m.group();
            boolean own = name.startsWith("net.hopwise.overlay.trace");
            boolean allowed = ALLOWED.stream().anyMatch(a -> a.endsWith(".") ? name.startsWith(a)
                    : name.equals(a) || name.startsWith(a + "."));
            if (!own && !allowed) {
                found.add(name);
            }
        }
        return found;
    }
}

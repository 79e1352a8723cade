package net.hopwise.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writing one experiment's block keeps the other blocks and the other sections of the file. */
class SimDocsTest {
    @TempDir
    Path root;

    @Test
    void blocksAreReplacedInPlaceAndOtherSectionsKept() throws Exception {
        Path file = root.resolve("docs/benchmarks.md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "# Hopwise benchmarks\n\n## Foundation\n\nround trips\n\n## Later\n\nkeep me\n");
        SimDocs docs = new SimDocs(root);
        docs.writeBlock("table1", "### Table 1\n\nfirst", List.of("| Table 1 | 1 | 2 | cmd |"));
        docs.writeBlock("chain", "### Chain\n\nsweep", List.of("| Fig. 6 | 27% | 26% | cmd |"));
        docs.writeBlock("table1", "### Table 1\n\nsecond", List.of("| Table 1 | 1 | 3 | cmd |"));
        String text = Files.readString(file);
        assertThat(text).contains("## Foundation\n\nround trips").contains("## Later\n\nkeep me");
        assertThat(text).contains("second").doesNotContain("first").contains("sweep");
        assertThat(text.indexOf("### Reproducing the papers")).isLessThan(text.indexOf("### Chain"));
        assertThat(text.indexOf("### Chain")).isLessThan(text.indexOf("### Table 1"));
        assertThat(text).contains("| Fig. 6 | 27% | 26% | cmd |\n| Table 1 | 1 | 3 | cmd |");
        assertThat(text.split("## Simulator", -1)).hasSize(2);
    }

    @Test
    void aHandWrittenNotesBlockSurvivesRunsThatRewriteOthers() throws Exception {
        SimDocs docs = new SimDocs(root);
        docs.writeBlock("chain", "### Chain\n\nsweep", List.of("| Fig. 6 | 27% | 26% | cmd |"));
        Path file = root.resolve("docs/benchmarks.md");
        String text = Files.readString(file).replace("<!-- sim:chain begin -->",
                "<!-- sim:notes begin -->\nmeasured before the change\n<!-- sim:notes end -->\n\n<!-- sim:chain begin -->");
        Files.writeString(file, text);
        docs.writeBlock("table1", "### Table 1\n\nfirst", List.of("| Table 1 | 1 | 2 | cmd |"));
        String after = Files.readString(file);
        assertThat(after).contains("measured before the change");
        assertThat(after.indexOf("measured before the change")).isGreaterThan(after.indexOf("### Reproducing the papers"))
                .isLessThan(after.indexOf("### Chain"));
    }

    @Test
    void theNextSectionsOwnMarkerBeforeItsHeadingIsKept() throws Exception {
        Path file = root.resolve("docs/benchmarks.md");
        Files.createDirectories(file.getParent());
        SimDocs docs = new SimDocs(root);
        docs.writeBlock("speed", "### Speed\n\nfast", List.of());
        Files.writeString(file, Files.readString(file) + "<!-- hostile:start -->\n## Hostile\n\nbody\n<!-- hostile:end -->\n");
        docs.writeBlock("speed", "### Speed\n\nfaster", List.of());
        String text = Files.readString(file);
        assertThat(text).contains("faster").contains("<!-- hostile:start -->\n## Hostile\n\nbody\n<!-- hostile:end -->");
    }

    @Test
    void theSpeedNotesBlockSurvivesARunOfTheSpeedExperiment() throws Exception {
        SimDocs docs = new SimDocs(root);
        docs.writeBlock("speed", "### Speed\n\nfast", List.of());
        docs.writeBlock("padhye", "### Padhye\n\nmodel", List.of());
        Path file = root.resolve("docs/benchmarks.md");
        Files.writeString(file, Files.readString(file).replace("<!-- sim:speed end -->\n",
                "<!-- sim:speed end -->\n\n<!-- sim:speednotes begin -->\nthree runs\n<!-- sim:speednotes end -->\n"));
        docs.writeBlock("speed", "### Speed\n\nfaster", List.of());
        String after = Files.readString(file);
        assertThat(after).contains("three runs");
        // right under the table it reads, not moved to the end of the section
        assertThat(after.indexOf("three runs")).isGreaterThan(after.indexOf("faster"))
                .isLessThan(after.indexOf("### Padhye"));
    }
}

package net.hopwise.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BenchmarksDocumentTest {
    @Test
    void aMissingFileGetsTheIntroAndTheSection() {
        String doc = BenchmarksDocument.withSection(null, "Foundation", "table");
        assertThat(doc).startsWith("# Hopwise benchmarks").endsWith("## Foundation\n\ntable\n");
    }

    @Test
    void writingASectionReplacesItAndKeepsTheOthers() {
        String before = "# Title\n\nintro\n\n## Other\n\nkeep me\n\n## Foundation\n\nold\nold\n\n"
                + "## Later\n\nkeep me too\n";
        String after = BenchmarksDocument.withSection(before, "Foundation", "new\n");
        assertThat(after).isEqualTo("# Title\n\nintro\n\n## Other\n\nkeep me\n\n## Foundation\n\nnew\n\n"
                + "## Later\n\nkeep me too\n");
    }

    @Test
    void aNewSectionIsAppended() {
        String after = BenchmarksDocument.withSection("# Title\n\n## Other\n\nx", "Foundation", "t");
        assertThat(after).isEqualTo("# Title\n\n## Other\n\nx\n\n## Foundation\n\nt\n");
    }

    @Test
    void tableRowsShowRatioTargetAndVerdict() {
        ResultTable t = new ResultTable();
        t.add("s", "p50 (µs)", 40, 10, ResultTable.Target.atMost(4));
        t.add("s", "rate", 70, 100, ResultTable.Target.atLeast(0.8));
        t.addSideBySide("s", "loss (%)", 0.5, 2);
        t.add("m", "heap (KiB)", 123.4);
        assertThat(t.toMarkdown()).contains(
                "| s | p50 (µs) | 40.0 | 10.0 | 4.00x | ≤ 4.00x | yes |",
                "| s | rate | 70.0 | 100 | 0.70x | ≥ 0.80x | **no** |",
                "| s | loss (%) | 0.500 | 2.00 | — | — | — |",
                "| m | heap (KiB) | 123 | — | — | — | — |");
        assertThat(t.allTargetsMet()).isFalse();
    }
}

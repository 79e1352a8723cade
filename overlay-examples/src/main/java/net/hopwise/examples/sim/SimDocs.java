package net.hopwise.examples.sim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulator's section of {@code docs/benchmarks.md} and its files under {@code docs/sim/}.
 *
 * <p>The section is a fixed sequence of blocks, one per experiment, each between HTML-comment markers
 * so that one experiment's run rewrites its own block and keeps the others. The table "Reproducing
 * the papers" is assembled from per-experiment row files in {@code docs/sim/repro/}, so every row
 * stays next to the command that measured it; other sections of the file are left as they are.
 */
final class SimDocs {
    static final String TITLE = "Simulator";
    /**
     * Block order in the section. "notes" is written by hand (what changed since a block was
     * measured) and, like every block, kept as it is by runs that rewrite other blocks; text outside
     * the blocks would be lost.
     */
    static final List<String> BLOCKS = List.of("intro", "repro", "notes", "chain", "table1", "hops", "realtime",
            "scale", "speed", "speednotes", "padhye");
    private static final Pattern BLOCK = Pattern.compile(
            "<!-- sim:([a-z0-9]+) begin -->\\n(.*?)<!-- sim:\\1 end -->", Pattern.DOTALL);

    /** A comment marker line that is not one of this section's blocks. */
    private static final Pattern FOREIGN_MARKER = Pattern.compile("\n<!-- (?!sim:)");

    private final Path root;

    SimDocs(Path root) {
        this.root = root;
    }

    Path benchmarks() {
        return root.resolve("docs/benchmarks.md");
    }

    Path dataDir() {
        return root.resolve("docs/sim");
    }

    void writeFile(String name, String content) throws IOException {
        Path file = dataDir().resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    /** Replaces one experiment's block and its rows of the reproduction table. */
    void writeBlock(String block, String body, List<String> reproRows) throws IOException {
        if (!BLOCKS.contains(block)) {
            throw new IllegalArgumentException("unknown block " + block);
        }
        if (reproRows != null) {
            writeFile("repro/" + block + ".md", String.join("\n", reproRows) + (reproRows.isEmpty() ? "" : "\n"));
        }
        String document = Files.exists(benchmarks()) ? Files.readString(benchmarks(), StandardCharsets.UTF_8) : "";
        Map<String, String> blocks = new LinkedHashMap<>();
        for (String b : BLOCKS) {
            blocks.put(b, "");
        }
        String existing = section(document);
        if (existing != null) {
            Matcher m = BLOCK.matcher(existing);
            while (m.find()) {
                blocks.put(m.group(1), m.group(2));
            }
        }
        blocks.put("intro", INTRO);
        blocks.put(block, body.strip() + "\n");
        blocks.put("repro", reproTable());
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : blocks.entrySet()) {
            if (e.getValue().isBlank()) {
                continue;
            }
            sb.append("<!-- sim:").append(e.getKey()).append(" begin -->\n").append(e.getValue())
                    .append("<!-- sim:").append(e.getKey()).append(" end -->\n\n");
        }
        Files.createDirectories(benchmarks().getParent());
        Files.writeString(benchmarks(), withSection(document, sb.toString()), StandardCharsets.UTF_8);
    }

    private String reproTable() throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("### Reproducing the papers\n\n");
        sb.append("Every number in the \"ours\" column was measured by the command beside it (run from the top of "
                + "the checkout; see each experiment's block below for the date, machine and full table).\n\n");
        sb.append("| figure or table | the paper's value | ours | command |\n|---|---|---|---|\n");
        for (String b : BLOCKS) {
            Path rows = dataDir().resolve("repro/" + b + ".md");
            if (Files.exists(rows)) {
                sb.append(Files.readString(rows, StandardCharsets.UTF_8));
            }
        }
        return sb.toString();
    }

    private static String section(String document) {
        int start = document.indexOf("\n## " + TITLE + "\n");
        if (start < 0 && document.startsWith("## " + TITLE + "\n")) {
            start = -1;
            return sectionFrom(document, 0);
        }
        return start < 0 ? null : sectionFrom(document, start + 1);
    }

    private static String sectionFrom(String document, int start) {
        int end = document.indexOf("\n## ", start + 3);
        // The next section may open with a marker of its own (another generator's block) before its
        // heading: that line belongs to it, not to this section.
        Matcher foreign = FOREIGN_MARKER.matcher(document);
        if (foreign.find(start + 3) && (end < 0 || foreign.start() < end)) {
            end = foreign.start();
        }
        return document.substring(start, end < 0 ? document.length() : end + 1);
    }

    private static String withSection(String document, String body) {
        String section = "## " + TITLE + "\n\n" + body.strip() + "\n";
        if (document.isBlank()) {
            return "# Hopwise benchmarks\n\n" + section;
        }
        String existing = section(document);
        if (existing == null) {
            return (document.endsWith("\n") ? document : document + "\n") + "\n" + section;
        }
        int at = document.indexOf(existing);
        String after = document.substring(at + existing.length());
        return document.substring(0, at) + section + (after.isEmpty() ? "" : "\n" + after);
    }

    static final String INTRO = """
            A deterministic discrete-event simulator (`net.hopwise.overlay.sim` in overlay-core) runs the
            production protocol machines (`NodeStack`: hello, link-state flooding, routing, forwarding, the
            hop-by-hop reliable links and end-to-end sessions, the real-time links) on virtual time, over simulated links with propagation delay, serialisation at a bandwidth, DropTail,
            RED or deficit-round-robin queues, Bernoulli or Gilbert-Elliott loss and scheduled failures. The
            end-to-end baselines are simulator-only sans-IO TCP agents (`net.hopwise.overlay.sim.tcp`: Tahoe,
            Reno, NewReno, SACK, with ns-2's defaults: 20-segment window, 200 ms minimum RTO, no delayed
            ACKs), whose segments route themselves over the same simulated links without passing through
            overlay nodes, as the papers' kernel TCP did. The same scenario and seed give a bit-identical
            event trace (SHA-256 over every packet and timer event; `ReproducibilityTest`). "Hopwise
            hop-by-hop" is a reliable session (`NodeStack.openSession`/`sessionSend`) between the chain's
            end nodes with a Hopwise node at every chain node, so every hop runs the reliable link protocol;
            "Hopwise link protocol e2e" has nodes only at the two ends, joined by one overlay link carrying
            the whole path's delay and loss.

            Every experiment is one command of the CLI `net.hopwise.examples.sim.SimulatorCli`:

                ./mvnw -q -pl overlay-examples -am test-compile exec:exec -Dexec.executable=java \\
                  -Dexec.args="-cp %classpath net.hopwise.examples.sim.SimulatorCli <experiment> [options]"

            (`--help` lists experiments and options). CSV tables and SVG plots go to `docs/sim/`.

            Choices the papers leave open: chain links of 10 Mbit/s (Emulab's per-link TCP reached
            9.59 Mbit/s) with ns-2's DropTail queue of 50 packets; loss on the data direction of the lossy
            link; delay measured from the message's generation by the constant-rate source to its in-order
            delivery, so time spent in the sender's buffer counts, as in the papers; 30 s of settling after
            the source stops, and messages never delivered are reported, not averaged.
            """;
}

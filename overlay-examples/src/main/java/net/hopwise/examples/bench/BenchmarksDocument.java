package net.hopwise.examples.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code docs/benchmarks.md}: one level-2 section per benchmark suite. Writing a section replaces
 * that section only and keeps every other one as it was.
 */
final class BenchmarksDocument {
    static final String INTRO = """
            # Hopwise benchmarks

            Runnable scenarios in `overlay-examples` (package `net.hopwise.examples.bench`), never timed
            tests. Each section is written by the run it reports, with the exact command, the date and
            the machine, and compares Hopwise side by side, in the same process run, with the baseline
            that matters. Ratios are Hopwise / baseline.
            """;

    private BenchmarksDocument() {}

    /** Replaces (or appends) the section whose heading is {@code ## title} with {@code body}. */
    static String withSection(String document, String title, String body) {
        String heading = "## " + title;
        String section = heading + "\n\n" + body.strip() + "\n";
        if (document == null || document.isBlank()) {
            return INTRO + "\n" + section;
        }
        String[] lines = document.split("\n", -1);
        int start = -1;
        int end = lines.length;
        for (int i = 0; i < lines.length; i++) {
            if (start < 0 && lines[i].strip().equals(heading)) {
                start = i;
            } else if (start >= 0 && lines[i].startsWith("## ")) {
                end = i;
                break;
            }
        }
        if (start < 0) {
            String base = document.endsWith("\n") ? document : document + "\n";
            return base + "\n" + section;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < start; i++) {
            sb.append(lines[i]).append('\n');
        }
        sb.append(section);
        if (end < lines.length) {
            sb.append('\n');
            for (int i = end; i < lines.length; i++) {
                sb.append(lines[i]);
                if (i < lines.length - 1) {
                    sb.append('\n');
                }
            }
        }
        return sb.toString();
    }

    static void writeSection(Path file, String title, String body) throws IOException {
        String existing = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, withSection(existing, title, body), StandardCharsets.UTF_8);
    }
}

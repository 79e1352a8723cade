package net.hopwise.examples.reliable;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Writes one benchmark's section into a markdown file, between markers of its own, leaving the
 * rest of the file alone so that scenarios can be re-run one at a time.
 */
public final class BenchmarkSection {
    private BenchmarkSection() {}

    /**
     * Where a relative path given to a benchmark resolves: the top of the build (the nearest folder
     * up from the working directory that holds overlay-core and a pom.xml), since exec:exec runs in
     * the module's folder.
     */
    public static Path topOfBuild() {
        Path cwd = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path p = cwd; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isDirectory(p.resolve("overlay-core"))) {
                return p;
            }
        }
        return cwd;
    }

    /** Date, machine and JVM: what a figure needs beside it to mean anything. */
    public static String provenance(String command) {
        String cpu = "unknown CPU";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux: the processor count and OS name below still say something.
        }
        return "Command: `" + command + "`  \n"
                + "Date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + "  \n"
                + "Machine: " + cpu + ", " + Runtime.getRuntime().availableProcessors() + " CPUs visible, "
                + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", Java "
                + System.getProperty("java.version") + " (" + ManagementFactory.getRuntimeMXBean().getVmName() + ")\n";
    }

    public static void write(Path file, String id, String body) throws IOException {
        String start = "<!-- " + id + ":start -->";
        String end = "<!-- " + id + ":end -->";
        String block = start + "\n" + body.strip() + "\n" + end;
        String text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "# Benchmarks\n";
        int a = text.indexOf(start);
        int b = text.indexOf(end);
        if (a >= 0 && b > a) {
            text = text.substring(0, a) + block + text.substring(b + end.length());
        } else {
            text = text.stripTrailing() + "\n\n" + block + "\n";
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    public static String argument(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }
}

package net.hopwise.examples.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.ObjectName;

/**
 * The live heap by class, as the JVM's own {@code GC.class_histogram} diagnostic command gives it
 * (after a full collection): a memory figure is only reproducible when it is clear which objects make
 * it up, so the memory scenario reports the classes that grew most.
 */
final class HeapHistogram {
    private final Map<String, Long> bytesByClass;
    private final long totalBytes;

    private HeapHistogram(Map<String, Long> bytesByClass, long totalBytes) {
        this.bytesByClass = bytesByClass;
        this.totalBytes = totalBytes;
    }

    /** Bytes of all live objects; -1 where the JVM has no histogram command. */
    long totalBytes() {
        return totalBytes;
    }

    /**
     * Takes a histogram of the live heap (the command runs a full collection first, and counts only
     * reachable objects, so garbage that running threads allocate meanwhile is not in it); an empty
     * one where the JVM has no such command.
     */
    static HeapHistogram take() {
        Map<String, Long> bytes = new HashMap<>();
        long total = -1;
        try {
            Object text = ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            for (String line : text.toString().split("\n")) {
                // "   1:        12345        678901  java.lang.String (java.base@17)"
                String[] f = line.trim().split("\\s+");
                if (f.length >= 4 && f[0].endsWith(":")) {
                    bytes.merge(f[3], Long.parseLong(f[2]), Long::sum);
                } else if (f.length == 3 && f[0].equals("Total")) {
                    total = Long.parseLong(f[2]);
                }
            }
        } catch (Exception | LinkageError e) {
            return new HeapHistogram(Map.of(), -1);
        }
        return new HeapHistogram(bytes, total);
    }

    /** The {@code top} classes that grew most from {@code before} to this, as "class +N KiB". */
    List<String> growthSince(HeapHistogram before, int top) {
        List<Map.Entry<String, Long>> growth = new ArrayList<>();
        for (Map.Entry<String, Long> e : bytesByClass.entrySet()) {
            long delta = e.getValue() - before.bytesByClass.getOrDefault(e.getKey(), 0L);
            if (delta > 0) {
                growth.add(Map.entry(e.getKey(), delta));
            }
        }
        growth.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()));
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, Long> e : growth.subList(0, Math.min(top, growth.size()))) {
            lines.add(String.format(Locale.ROOT, "%s +%d KiB", e.getKey(), e.getValue() / 1024));
        }
        return lines;
    }
}

package net.hopwise.examples.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CPU time of every live thread at one instant; the difference of two snapshots shows which threads
 * were busy in a window, which is the first thing to know when a throughput run falls short.
 */
public final class ThreadCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long atNanos;
    private final Map<Long, Long> cpuNanos = new HashMap<>();
    private final Map<Long, String> names = new HashMap<>();

    private ThreadCpu() {
        atNanos = System.nanoTime();
        if (!THREADS.isThreadCpuTimeSupported()) {
            return;
        }
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            long cpu = THREADS.getThreadCpuTime(ids[i]);
            if (cpu >= 0 && infos[i] != null) {
                cpuNanos.put(ids[i], cpu);
                names.put(ids[i], infos[i].getThreadName());
            }
        }
    }

    public static ThreadCpu snapshot() {
        return new ThreadCpu();
    }

    /**
     * The threads that used at least 5% of one core between {@code earlier} and this snapshot,
     * busiest first, as {@code name 97%}.
     */
    public String busiestSince(ThreadCpu earlier) {
        return busiestSince(earlier, Map.of());
    }

    /** As {@link #busiestSince(ThreadCpu)}, naming the threads in {@code labels} by their label. */
    public String busiestSince(ThreadCpu earlier, Map<Long, String> labels) {
        double window = atNanos - earlier.atNanos;
        List<Map.Entry<Long, Long>> deltas = new ArrayList<>();
        cpuNanos.forEach((id, cpu) -> {
            Long before = earlier.cpuNanos.get(id);
            if (before != null) {
                deltas.add(Map.entry(id, cpu - before));
            }
        });
        deltas.sort((x, y) -> Long.compare(y.getValue(), x.getValue()));
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Long, Long> d : deltas) {
            double share = d.getValue() / window;
            if (share < 0.05) {
                break;
            }
            String name = labels.getOrDefault(d.getKey(), names.get(d.getKey()));
            parts.add(String.format(Locale.ROOT, "%s %.0f%%", name, share * 100));
        }
        return parts.isEmpty() ? "no busy thread" : String.join(", ", parts);
    }
}

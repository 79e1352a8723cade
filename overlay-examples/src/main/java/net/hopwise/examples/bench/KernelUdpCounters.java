package net.hopwise.examples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel's UDP counters from {@code /proc/net/snmp} (Linux): receive-buffer overflows there are
 * datagrams a receiver was too slow to take. Empty on other systems.
 */
public final class KernelUdpCounters {
    private static final Path SNMP = Path.of("/proc/net/snmp");

    private final Map<String, Long> values;

    private KernelUdpCounters(Map<String, Long> values) {
        this.values = values;
    }

    public static KernelUdpCounters read() {
        Map<String, Long> values = new HashMap<>();
        try {
            List<String> lines = Files.readAllLines(SNMP);
            for (int i = 0; i + 1 < lines.size(); i++) {
                if (lines.get(i).startsWith("Udp:") && lines.get(i + 1).startsWith("Udp:")) {
                    String[] keys = lines.get(i).split("\\s+");
                    String[] nums = lines.get(i + 1).split("\\s+");
                    for (int k = 1; k < Math.min(keys.length, nums.length); k++) {
                        values.put(keys[k], Long.parseLong(nums[k]));
                    }
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            values.clear();
        }
        return new KernelUdpCounters(values);
    }

    public boolean available() {
        return !values.isEmpty();
    }

    /** How much a counter grew since {@code earlier}; 0 when unknown. */
    public long since(KernelUdpCounters earlier, String name) {
        return values.getOrDefault(name, 0L) - earlier.values.getOrDefault(name, 0L);
    }
}

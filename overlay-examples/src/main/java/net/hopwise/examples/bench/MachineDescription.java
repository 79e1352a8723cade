package net.hopwise.examples.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import net.hopwise.overlay.NodeRuntime;

/** What a benchmark ran on, in one line: cores, CPU, memory, JVM, OS, transport. */
final class MachineDescription {
    private MachineDescription() {}

    static String describe() {
        Runtime rt = Runtime.getRuntime();
        String transport;
        try (NodeRuntime probe = NodeRuntime.create(1)) {
            transport = probe.transport().toString();
        }
        return String.format(Locale.ROOT, "%d cores%s, %s %s (%s), max heap %d MiB, %s %s %s, Netty transport %s",
                rt.availableProcessors(), cpuModel(),
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.vendor"), rt.maxMemory() / (1024 * 1024),
                System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("os.arch"),
                transport);
    }

    /** The JVM's options, which change what a benchmark measures (GC, heap, leak detection). */
    static String jvmOptions() {
        var args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        return args.isEmpty() ? "none" : String.join(" ", args);
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return " (" + line.substring(line.indexOf(':') + 1).trim() + ")";
                }
            }
        } catch (Exception e) {
            // not Linux: the core count says enough
        }
        return "";
    }
}

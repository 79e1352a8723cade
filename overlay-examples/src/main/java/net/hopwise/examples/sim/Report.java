package net.hopwise.examples.sim;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/** Shared pieces of every experiment's output: header lines, the command, the machine, docs writing. */
final class Report {
    private Report() {
    }

    static String command(Options o) {
        return "./mvnw -q -pl overlay-examples -am test-compile exec:exec -Dexec.executable=java "
                + "-Dexec.args=\"-cp %classpath net.hopwise.examples.sim.SimulatorCli " + o.command + "\"";
    }

    static String header(Options o, String what) {
        return String.format(Locale.ROOT, "%s%n%nCommand: `%s`  %nDate: %s; machine: %s.%n", what, command(o),
                LocalDate.now(ZoneOffset.UTC), machine());
    }

    static String machine() {
        Runtime rt = Runtime.getRuntime();
        String cpu = "";
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = " (" + line.substring(line.indexOf(':') + 1).trim() + ")";
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the core count says enough
        }
        return String.format(Locale.ROOT, "%d cores%s, %s %s, max heap %d MiB, JVM options: %s",
                rt.availableProcessors(), cpu, System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), rt.maxMemory() / (1024 * 1024),
                String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    }

    static void publish(Options o, String block, String markdown, List<String> reproRows) throws IOException {
        System.out.println(markdown);
        if (o.writeDocs) {
            new SimDocs(o.root).writeBlock(block, markdown, reproRows);
            System.err.println("wrote block '" + block + "' of " + new SimDocs(o.root).benchmarks());
        }
    }

    static void file(Options o, String name, String content) throws IOException {
        if (o.writeDocs) {
            new SimDocs(o.root).writeFile(name, content);
        }
    }

    static String f(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}

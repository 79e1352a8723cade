package net.hopwise.examples.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.hopwise.examples.bench.BenchmarkSettings.Scenario;
import net.hopwise.examples.bench.ResultTable.Target;
import net.hopwise.examples.reliable.BenchmarkSection;

/**
 * The foundation benchmarks: round trip over 1 and 3 overlay hops against direct UDP,
 * best-effort throughput over one overlay link against a raw UDP blast, and the heap of an idle node
 * and of a converged 50-node overlay. Prints a Markdown table and, with {@code --write}, puts it in
 * the "Foundation" section of {@code docs/benchmarks.md}.
 *
 * <pre>
 * ./mvnw -q -pl overlay-examples -am test-compile exec:exec -Dexec.executable=java \
 *     -Dexec.args="-cp %classpath net.hopwise.examples.bench.FoundationBenchmark --write"
 * </pre>
 *
 * (exec:exec, not exec:java: the benchmark gets a JVM of its own, without Maven's threads and heap,
 * and the module's exec:java configuration names the demo's main class.)
 *
 * Options: {@code --quick} (shorter, noisier), {@code --only rtt,throughput,memory},
 * {@code --round-trips N}, {@code --warmup N}, {@code --rtt-rounds N},
 * {@code --duration SECONDS} and {@code --rounds N} (throughput),
 * {@code --spin MICROS} (event loops poll this long after activity before sleeping, in every runtime of
 * the round-trip and throughput scenarios, overlay and Netty baselines alike), {@code --nodes N},
 * {@code --write [FILE]} (default {@code docs/benchmarks.md}, relative to the top of the build).
 */
public final class FoundationBenchmark {
    /** The section of docs/benchmarks.md this benchmark owns. */
    public static final String SECTION = "Foundation";
    static final String DEFAULT_FILE = "docs/benchmarks.md";

    /** Target: the 3-hop round-trip median at most this many times direct UDP's. */
    static final double ROUND_TRIP_3_HOP_TARGET = 4.0;
    /** Target: the overlay delivers at least this fraction of the raw UDP packet rate. */
    static final double THROUGHPUT_TARGET = 0.80;

    private FoundationBenchmark() {}

    /** A finished run: what ran, where, when, and the table. */
    public record Report(String command, String date, String machine, String jvmOptions, ResultTable table) {
        /** The section body: command, date, machine, table and notes. */
        public String toMarkdown() {
            return "Command (from the top of the checkout):\n\n```\n" + command + "\n```\n\n"
                    + "Run it with nothing else busy on the machine: a build beside it shares the CPU.\n\n"
                    + "- Date: " + date + "\n"
                    + "- Machine: " + machine + "\n"
                    + "- JVM options: `" + jvmOptions + "`\n\n"
                    + table.toMarkdown() + "\n" + FoundationFindings.MARKDOWN;
        }
    }

    public static void main(String[] args) {
        BenchmarkSettings settings = BenchmarkSettings.full();
        Path write = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> settings = BenchmarkSettings.quick().withScenarios(settings.scenarios());
                case "--only" -> settings = settings.withScenarios(scenarios(value(args, ++i, a)));
                case "--round-trips" -> settings = settings.withRoundTrips(settings.roundTripWarmup(),
                        Integer.parseInt(value(args, ++i, a)));
                case "--warmup" -> settings = settings.withRoundTrips(Integer.parseInt(value(args, ++i, a)),
                        settings.roundTripCount());
                case "--duration" -> settings = settings.withThroughput(settings.throughputWarmup(),
                        Duration.ofMillis(Math.round(Double.parseDouble(value(args, ++i, a)) * 1000)),
                        settings.throughputRounds());
                case "--rtt-rounds" -> settings = settings.withRoundTripRounds(Integer.parseInt(value(args, ++i, a)));
                case "--rounds" -> settings = settings.withThroughput(settings.throughputWarmup(),
                        settings.throughputDuration(), Integer.parseInt(value(args, ++i, a)));
                case "--spin" -> settings = settings.withSpinBeforeSleep(
                        Duration.ofNanos(Math.round(Double.parseDouble(value(args, ++i, a)) * 1000)));
                case "--nodes" -> settings = settings.withOverlay(Integer.parseInt(value(args, ++i, a)),
                        settings.settle());
                case "--write" -> {
                    String file = i + 1 < args.length && !args[i + 1].startsWith("--") ? args[++i] : DEFAULT_FILE;
                    write = BenchmarkSection.topOfBuild().resolve(file);
                }
                case "--help", "-h" -> {
                    System.out.println(usage());
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + a + "\n" + usage());
            }
        }
        Report report = run(settings, command(args), System.err);
        System.out.println();
        System.out.println(report.toMarkdown());
        if (write != null) {
            try {
                BenchmarksDocument.writeSection(write, SECTION, report.toMarkdown());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + write, e);
            }
            System.out.println("Wrote section \"" + SECTION + "\" of " + write);
        }
    }

    /** Runs the chosen scenarios, reporting progress on {@code progress}. */
    public static Report run(BenchmarkSettings s, String command, PrintStream progress) {
        String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        ResultTable table = new ResultTable();
        if (s.scenarios().contains(Scenario.RTT)) {
            roundTrips(s, table, progress);
        }
        if (s.scenarios().contains(Scenario.THROUGHPUT)) {
            throughput(s, table, progress);
        }
        if (s.scenarios().contains(Scenario.MEMORY)) {
            memory(s, table, progress);
        }
        return new Report(command, date, MachineDescription.describe(), MachineDescription.jvmOptions(), table);
    }

    private static void roundTrips(BenchmarkSettings s, ResultTable table, PrintStream progress) {
        int w = s.roundTripWarmup();
        int n = s.roundTripCount();
        // The first scenarios of a JVM run slower than the same ones later (the JIT is still at work):
        // one throw-away pass over both kinds of path first, so that no side is measured cold.
        progress.printf("round trip: throw-away pass (direct UDP, 3 overlay hops) to warm the JVM%n");
        RoundTripScenario.directNetty(w, n, s);
        RoundTripScenario.overlay(3, w, n, s);
        List<LatencySamples> directs = new ArrayList<>();
        List<LatencySamples> oneHops = new ArrayList<>();
        List<LatencySamples> threeHopsByRound = new ArrayList<>();
        List<LatencySamples> relays = new ArrayList<>();
        List<LatencySamples> oneThreads = new ArrayList<>();
        List<LatencySamples> perCores = new ArrayList<>();
        List<LatencySamples> relaysPerCore = new ArrayList<>();
        int rounds = s.roundTripRounds();
        for (int round = 1; round <= rounds; round++) {
            progress.printf("round trip %d/%d: direct UDP (Netty), %d + %d warm-up%n", round, rounds, n, w);
            directs.add(RoundTripScenario.directNetty(w, n, s));
            progress.printf("round trip %d/%d: 1 overlay hop%n", round, rounds);
            oneHops.add(RoundTripScenario.overlay(1, w, n, s));
            progress.printf("round trip %d/%d: 3 overlay hops%n", round, rounds);
            threeHopsByRound.add(RoundTripScenario.overlay(3, w, n, s));
            progress.printf("round trip %d/%d: 3-hop UDP relay chain (Netty)%n", round, rounds);
            relays.add(RoundTripScenario.relayChain(3, w, n, s));
            progress.printf("round trip %d/%d: 3 overlay hops, all nodes on one thread%n", round, rounds);
            oneThreads.add(RoundTripScenario.overlay(3, w, n, RoundTripScenario.Layout.ONE_THREAD, s));
            progress.printf("round trip %d/%d: 3 overlay hops, one loop per core%n", round, rounds);
            perCores.add(RoundTripScenario.overlay(3, w, n, RoundTripScenario.Layout.LOOP_PER_CORE, s));
            progress.printf("round trip %d/%d: 3-hop UDP relay chain, one loop per core%n", round, rounds);
            relaysPerCore.add(RoundTripScenario.relayChain(3, w, n, RoundTripScenario.Layout.LOOP_PER_CORE, s));
        }
        LatencySamples direct = LatencySamples.pooled(directs);
        LatencySamples oneHop = LatencySamples.pooled(oneHops);
        LatencySamples threeHops = LatencySamples.pooled(threeHopsByRound);
        LatencySamples relay = LatencySamples.pooled(relays);
        LatencySamples oneThread = LatencySamples.pooled(oneThreads);
        LatencySamples perCore = LatencySamples.pooled(perCores);
        LatencySamples relayPerCore = LatencySamples.pooled(relaysPerCore);
        progress.printf("round trip: direct UDP (blocking java.nio)%n");
        LatencySamples blocking = RoundTripScenario.directBlocking(w, n);
        boolean spinning = !s.spinBeforeSleep().isZero();
        LatencySamples directAsleep = null;
        LatencySamples threeHopsAsleep = null;
        if (spinning) {
            BenchmarkSettings asleep = s.withSpinBeforeSleep(Duration.ZERO);
            progress.printf("round trip: direct UDP (Netty), loops that sleep at once%n");
            directAsleep = RoundTripScenario.directNetty(w, n, asleep);
            progress.printf("round trip: 3 overlay hops, loops that sleep at once%n");
            threeHopsAsleep = RoundTripScenario.overlay(3, w, n, RoundTripScenario.Layout.LOOP_PER_CORE, asleep);
        }
        String one = "round trip 64 B, 1 overlay hop vs direct UDP";
        addLatencyRows(table, one, oneHop, direct, null);
        String three = "round trip 64 B, 3 overlay hops vs direct UDP, one loop per core";
        addLatencyRows(table, three, perCore, direct, Target.atMost(ROUND_TRIP_3_HOP_TARGET));
        String threeRelay = "round trip 64 B, 3 overlay hops vs 3-hop UDP relay, one loop per core (informational)";
        table.add(threeRelay, "p50 (µs)", perCore.percentileMicros(50), relayPerCore.percentileMicros(50));
        table.add(threeRelay, "p99 (µs)", perCore.percentileMicros(99), relayPerCore.percentileMicros(99));
        String perNode = "round trip 64 B, 3 overlay hops vs direct UDP, a thread per node: 4 loops on 2 cores"
                + " (informational)";
        table.add(perNode, "p50 (µs)", threeHops.percentileMicros(50), direct.percentileMicros(50));
        table.add(perNode, "p99 (µs)", threeHops.percentileMicros(99), direct.percentileMicros(99));
        String vsRelay = "round trip 64 B, 3 overlay hops vs 3-hop UDP relay, a thread per node (informational)";
        table.add(vsRelay, "p50 (µs)", threeHops.percentileMicros(50), relay.percentileMicros(50));
        table.add(vsRelay, "p99 (µs)", threeHops.percentileMicros(99), relay.percentileMicros(99));
        String shared = "round trip 64 B, 3 overlay hops on one thread vs direct UDP (informational)";
        table.add(shared, "p50 (µs)", oneThread.percentileMicros(50), direct.percentileMicros(50));
        table.add(shared, "p99 (µs)", oneThread.percentileMicros(99), direct.percentileMicros(99));
        if (spinning) {
            String asleep = "round trip 64 B, 3 overlay hops vs direct UDP, one loop per core, loops that sleep at"
                    + " once (library default, informational)";
            table.add(asleep, "p50 (µs)", threeHopsAsleep.percentileMicros(50), directAsleep.percentileMicros(50));
            table.add(asleep, "p99 (µs)", threeHopsAsleep.percentileMicros(99), directAsleep.percentileMicros(99));
        }
        if (rounds > 1) {
            table.note("3-hop / direct UDP p50 by round, one loop per core: " + byRound(perCores, directs)
                    + "; a thread per node: " + byRound(threeHopsByRound, directs) + ".");
        }
        table.note(String.format(Locale.ROOT, "Round trip: %d round(s) of N = %d measured after %d warm-up each,"
                + " pooled per configuration; one 64-byte message outstanding, routed by hop count; the"
                + " ping-pong is driven from the event-loop callbacks on both sides. Thread layouts: direct UDP"
                + " and the 1-hop overlay have two endpoints, each on a single-thread runtime of its own: one"
                + " loop per core. 'One loop per core' places the 3-hop chain's 4 nodes alternately on two"
                + " single-thread runtimes (a and c on one, b and d on the other), so every hop still hands"
                + " over to another thread, as between machines, and each thread has a core, as direct UDP's"
                + " two do: the target is read on this row. 'A thread per node' gives each of the 4 nodes a"
                + " runtime of its own, as 4 processes on this 2-core machine would: 4 loops that spin share"
                + " 2 cores, and the plain relay on that layout is itself about 4x direct UDP, so that row"
                + " measures the oversubscription more than the overlay. The 3-hop UDP relay is the same"
                + " chain of sockets and threads with plain Netty channels copying datagrams along (no overlay"
                + " protocol): the difference is the overlay's own work. 'On one thread' runs the 4 nodes on one"
                + " shared runtime: no hand-overs, only the nodes' processing and socket calls."
                + " Direct UDP = two Netty datagram channels on the same transport, socket buffers and receive"
                + " allocator as the nodes. Before anything"
                + " is measured one throw-away pass of the direct and the 3-hop ping-pong warms the JVM: the first"
                + " scenario of a JVM is measured slower than the same one later (direct UDP about 19 µs against"
                + " 12 µs with spinning loops), which would flatter whichever side runs first.", rounds, n, w));
        table.note(spinning
                ? String.format(Locale.ROOT, "Event loops: every runtime above, overlay and Netty baselines alike,"
                        + " is built with NodeRuntime.builder().spinBeforeSleep(%d µs): after handling anything a"
                        + " loop keeps polling its socket (yielding its CPU on every turn) for up to that long before"
                        + " it sleeps, so a reply that comes back within that time finds its thread awake. The"
                        + " library's default is to sleep at once; the last two rows are that setting, for overlay"
                        + " and direct UDP alike.", s.spinBeforeSleep().toNanos() / 1000)
                : "Event loops: every runtime sleeps as soon as it has nothing to do (the library's default).");
        table.note(String.format(Locale.ROOT, "For reference, direct UDP between two blocking java.nio channels"
                + " served by plain threads: p50 %s µs, p99 %s µs, mean %s µs. Max round trip: direct %s µs,"
                + " 1 hop %s µs, 3 hops %s µs.",
                ResultTable.number(blocking.percentileMicros(50)), ResultTable.number(blocking.percentileMicros(99)),
                ResultTable.number(blocking.meanMicros()), ResultTable.number(direct.maxMicros()),
                ResultTable.number(oneHop.maxMicros()), ResultTable.number(threeHops.maxMicros())));
    }

    private static void addLatencyRows(ResultTable table, String scenario, LatencySamples overlay,
            LatencySamples baseline, Target p50Target) {
        table.add(scenario, "p50 (µs)", overlay.percentileMicros(50), baseline.percentileMicros(50), p50Target);
        table.add(scenario, "p90 (µs)", overlay.percentileMicros(90), baseline.percentileMicros(90));
        table.add(scenario, "p99 (µs)", overlay.percentileMicros(99), baseline.percentileMicros(99));
        table.add(scenario, "mean (µs)", overlay.meanMicros(), baseline.meanMicros());
    }

    private static String byRound(List<LatencySamples> overlay, List<LatencySamples> baseline) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < overlay.size(); i++) {
            parts.add(String.format(Locale.ROOT, "%s/%s µs (%.2fx)",
                    ResultTable.number(overlay.get(i).percentileMicros(50)),
                    ResultTable.number(baseline.get(i).percentileMicros(50)),
                    overlay.get(i).percentileMicros(50) / baseline.get(i).percentileMicros(50)));
        }
        return String.join(", ", parts);
    }

    private static void throughput(BenchmarkSettings s, ResultTable table, PrintStream progress) {
        Duration w = s.throughputWarmup();
        Duration d = s.throughputDuration();
        List<ThroughputScenario.Result> raws = new ArrayList<>();
        List<ThroughputScenario.Result> overlays = new ArrayList<>();
        List<ThroughputScenario.Result> offloads = new ArrayList<>();
        boolean offload = io.netty.channel.epoll.EpollDatagramChannel.isSegmentedDatagramPacketSupported();
        for (int round = 1; round <= s.throughputRounds(); round++) {
            progress.printf("throughput round %d/%d: raw UDP, %s + %s warm-up%n", round, s.throughputRounds(), d, w);
            raws.add(ThroughputScenario.rawUdp(w, d));
            progress.printf("throughput round %d/%d: overlay link%n", round, s.throughputRounds());
            overlays.add(ThroughputScenario.overlay(w, d, s));
            if (offload) {
                progress.printf("throughput round %d/%d: raw UDP with GSO and GRO%n", round, s.throughputRounds());
                offloads.add(ThroughputScenario.rawUdpOffload(w, d, s));
            }
        }
        ThroughputScenario.Result raw = median(raws);
        ThroughputScenario.Result overlay = median(overlays);
        String scenario = "best-effort 1000 B, 1 overlay link vs raw UDP";
        table.add(scenario, "sent (msg/s)", overlay.sentPerSecond(), raw.sentPerSecond());
        table.add(scenario, "received (msg/s)", overlay.receivedPerSecond(), raw.receivedPerSecond(),
                Target.atLeast(THROUGHPUT_TARGET));
        table.add(scenario, "received payload (Mbit/s)", overlay.receivedMbitPerSecond(),
                raw.receivedMbitPerSecond());
        table.addSideBySide(scenario, "loss (%)", overlay.lossPercent(), raw.lossPercent());
        ThroughputScenario.Result rawOffload = offload ? median(offloads) : null;
        if (offload) {
            String vsOffload = "best-effort 1000 B, 1 overlay link vs raw UDP with GSO and GRO (informational)";
            table.add(vsOffload, "received (msg/s)", overlay.receivedPerSecond(), rawOffload.receivedPerSecond());
            table.addSideBySide(vsOffload, "loss (%)", overlay.lossPercent(), rawOffload.lossPercent());
        }
        table.note(String.format(Locale.ROOT, "Throughput: %d round(s) of raw, overlay%s, each %.1f s measured"
                + " after %.1f s warm-up, all in this process, same 1000-byte payload and %d-byte socket buffers"
                + " requested; the table shows each side's median round by received rate. Overlay: nodes a and b"
                + " each on a single-thread runtime of its own (loop settings as for the round trips), one"
                + " application thread calling OverlayPort.send(NodeId, ...) in a loop and yielding when"
                + " back-pressured. Raw: one thread writing to a connected blocking java.nio DatagramChannel, one"
                + " thread reading another. Rates count the measured window; loss is over the whole run after the"
                + " receiver drained.",
                s.throughputRounds(), offload ? ", raw with GSO and GRO" : "", d.toMillis() / 1000.0,
                w.toMillis() / 1000.0, net.hopwise.overlay.NodeConfig.DEFAULT_SOCKET_BUFFER_BYTES));
        table.note(String.format(Locale.ROOT, "UDP offload: on the epoll transport a node sends each run of"
                + " equal-size datagrams to one neighbour (here up to %d datagrams of 1058 bytes) as one UDP GSO"
                + " send and reads with UDP GRO, so a run crosses the kernel once each way and arrives in one read;"
                + " the datagrams themselves are unchanged. The raw UDP baseline of the target is plain sockets, one"
                + " datagram per system call, as an application without offload sends. The raw UDP with GSO and"
                + " GRO row is what the kernel does for one sender and one receiver with the same offloads (Netty"
                + " epoll channels, one prepared %d-datagram run sent again and again without copying, same loop"
                + " settings), the ceiling of this machine, for comparison.",
                65_000 / 1058, ThroughputScenario.SEGMENTS));
        if (s.throughputRounds() > 1) {
            table.note("Received msg/s by round: raw " + rates(raws) + "; overlay " + rates(overlays)
                    + (offload ? "; raw with GSO and GRO " + rates(offloads) : "") + ".");
        }
        table.note("Median raw round: " + raw.detail());
        table.note("Median overlay round: " + overlay.detail());
        if (offload) {
            table.note("Median raw round with GSO and GRO: " + rawOffload.detail());
        }
    }

    private static ThroughputScenario.Result median(List<ThroughputScenario.Result> results) {
        List<ThroughputScenario.Result> sorted = new ArrayList<>(results);
        sorted.sort(java.util.Comparator.comparingDouble(ThroughputScenario.Result::receivedPerSecond));
        return sorted.get((sorted.size() - 1) / 2);
    }

    private static String rates(List<ThroughputScenario.Result> results) {
        List<String> parts = new ArrayList<>();
        for (ThroughputScenario.Result r : results) {
            parts.add(ResultTable.number(r.receivedPerSecond()));
        }
        return String.join(", ", parts);
    }

    private static void memory(BenchmarkSettings s, ResultTable table, PrintStream progress) {
        progress.printf("memory: one idle node%n");
        MemoryScenario.warmUp();
        MemoryScenario.IdleNode idle = MemoryScenario.idleNode(s.settle());
        progress.printf("memory: %d-node overlay%n", s.overlayNodes());
        MemoryScenario.Overlay overlay = MemoryScenario.overlay(s.overlayNodes(), s.settle());
        String scenario = "memory (live heap)";
        table.add(scenario, "1 idle node (KiB)", idle.heapBytes() / 1024.0);
        table.add(scenario, overlay.nodes() + "-node overlay, total (MiB)", overlay.heapBytes() / (1024.0 * 1024));
        table.add(scenario, overlay.nodes() + "-node overlay, per node (KiB)", overlay.heapPerNodeBytes() / 1024.0);
        table.add(scenario, overlay.nodes() + "-node overlay, time to converge (ms)",
                overlay.convergence().toNanos() / 1e6);
        table.note(String.format(Locale.ROOT, "Memory: bytes of live objects (the JVM's class histogram, taken after a"
                + " full collection) minus the same before the nodes started (a throw-away node was started and stopped first, so one-time class and"
                + " static costs are not counted), measured after %.1f s idle. Idle node: one node with no"
                + " neighbours on its own 1-thread runtime. Overlay: %d nodes on one shared 2-thread runtime, a"
                + " ring plus %d random chords (%d links, mean degree %.1f), converged when every node reaches"
                + " all %d by hop count; time to converge is from the first link added (informational)."
                + " Direct memory besides the heap: idle node %d KiB, overlay %d KiB.",
                s.settle().toMillis() / 1000.0, overlay.nodes(), overlay.links() - overlay.nodes(), overlay.links(),
                2.0 * overlay.links() / overlay.nodes(), overlay.nodes(),
                idle.directBytes() / 1024, overlay.directBytes() / 1024));
        if (!overlay.growth().isEmpty()) {
            table.note("Overlay heap by class (live objects after a full collection, the classes that grew most): "
                    + String.join(", ", overlay.growth()) + ".");
        }
    }

    private static Set<Scenario> scenarios(String list) {
        Set<Scenario> set = EnumSet.noneOf(Scenario.class);
        for (String name : list.split(",")) {
            set.add(Scenario.valueOf(name.trim().toUpperCase(Locale.ROOT)));
        }
        return set;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value\n" + usage());
        }
        return args[i];
    }

    /** The command that reproduces this run, as it is run from the top of the checkout. */
    static String command(String[] args) {
        String given = System.getProperty("hopwise.bench.command");
        if (given != null && !given.isBlank()) {
            return given;
        }
        return "./mvnw -q -pl overlay-examples -am test-compile exec:exec -Dexec.executable=java"
                + " -Dexec.args=\"-cp %classpath " + FoundationBenchmark.class.getName()
                + (args.length == 0 ? "" : " " + String.join(" ", args)) + "\"";
    }

    static String usage() {
        return "usage: FoundationBenchmark [--quick] [--only rtt,throughput,memory] [--round-trips N] [--warmup N]"
                + " [--rtt-rounds N]"
                + " [--duration SECONDS] [--rounds N] [--spin MICROS] [--nodes N] [--write [FILE]]";
    }
}

package net.hopwise.examples.fuzz;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import net.hopwise.examples.reliable.BenchmarkSection;
import net.hopwise.overlay.wire.DropReason;

/**
 * The hostile-neighbour fuzzer against real nodes on loopback UDP ({@link LoopbackAttack}), several
 * runs with different seeds. Prints per run the packets sent by type, the attacked node's drops by
 * reason, handler errors, the largest link-state database, and how long after the attack every real
 * node reached every other again; exits 1 when any run broke an invariant.
 *
 * <pre>
 * ./mvnw -q -pl overlay-examples -am test-compile exec:exec -Dexec.classpathScope=test \
 *   -Dexec.executable=java -Dexec.args="-cp %classpath net.hopwise.examples.fuzz.HostileNeighbourBenchmark
 *   --runs 3 --docs docs/benchmarks.md"
 * </pre>
 *
 * <p>Options: {@code --runs} (3), {@code --packets} per run (100000), {@code --seconds} of attack at most
 * (30), {@code --rate} packets per second (4000), {@code --seed} of the first run (later runs add 1),
 * {@code --docs <file>} to write the section of docs/benchmarks.md.
 */
public final class HostileNeighbourBenchmark {
    private HostileNeighbourBenchmark() {}

    public static void main(String[] args) throws IOException {
        int runs = Integer.parseInt(BenchmarkSection.argument(args, "--runs", "3"));
        int packets = Integer.parseInt(BenchmarkSection.argument(args, "--packets", "100000"));
        double seconds = Double.parseDouble(BenchmarkSection.argument(args, "--seconds", "30"));
        int rate = Integer.parseInt(BenchmarkSection.argument(args, "--rate", "4000"));
        long seed = Long.decode(BenchmarkSection.argument(args, "--seed", "0x5EEDF022"));
        String docs = BenchmarkSection.argument(args, "--docs", null);
        List<LoopbackAttack.Result> results = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            LoopbackAttack.Result r = new LoopbackAttack(seed + i, packets, seconds, rate).run();
            results.add(r);
            System.out.println(row(i + 1, r));
            r.violations().forEach(v -> System.out.println("  VIOLATION (seed " + r.seed() + "): " + v));
        }
        String table = table(results);
        String summary = summary(results);
        System.out.println();
        System.out.println(table);
        System.out.println(summary);
        if (docs != null) {
            String body = "## Hostile neighbour on loopback UDP\n\n"
                    + BenchmarkSection.provenance("./mvnw -q -pl overlay-examples -am test-compile exec:exec"
                            + " -Dexec.classpathScope=test -Dexec.executable=java -Dexec.args=\"-cp %classpath"
                            + " net.hopwise.examples.fuzz.HostileNeighbourBenchmark --runs " + runs
                            + (packets == 100000 ? "" : " --packets " + packets)
                            + (seconds == 30 ? "" : " --seconds " + seconds)
                            + (rate == 4000 ? "" : " --rate " + rate)
                            + " --docs docs/benchmarks.md\"")
                    + "\nFour nodes a-b-c-d on one single-thread runtime on loopback, datagrams between a and d every"
                    + " 20 ms both ways, and an attacker on a plain UDP socket configured as a neighbour of b. It"
                    + " completes a real hello exchange (the production link monitor), then sends up to " + packets
                    + " structured hostile packets at " + rate + " a second (at most " + fmt(seconds) + " s) from the"
                    + " fuzzer the test suite runs on virtual time (overlay-core's"
                    + " `net.hopwise.overlay.fuzz.HostilePackets`: every packet type with values at the edges,"
                    + " forged origins and sequences, and a fifth of them mutated), answering b's hellos"
                    + " throughout; afterwards it only says hello. Databases may hold the real nodes, the attacker"
                    + " and " + LoopbackAttack.EXTRA_ORIGINS + " more origins (maxOrigins of the run). Restore: time"
                    + " from the end of the attack until every real node has a route to every other under every"
                    + " metric and every real link is up (the invariant allows one refresh interval). Invariants"
                    + " checked per run: no handler errors, databases within bound, b's advertisement originated"
                    + " and held live by all, no real sequence pushed more than two days of milliseconds beyond"
                    + " its own clock, reachability restored, and traffic resuming (at least 90 of the 100"
                    + " datagrams of the next second).\n\n"
                    + summary + "\n" + table;
            BenchmarkSection.write(BenchmarkSection.topOfBuild().resolve(docs), "hostile-neighbour", body);
        }
        if (results.stream().anyMatch(r -> !r.violations().isEmpty())) {
            System.exit(1);
        }
    }

    private static String row(int run, LoopbackAttack.Result r) {
        return String.format(Locale.ROOT, "| %d | %d | %d | %.1f | %s | %s | %d | %d | %s | %d | %s |", run, r.seed(),
                r.sent(), r.attackSeconds(), byType(r.sentByType()), drops(r.targetDrops()), r.handlerErrors(),
                r.largestDatabase(), r.restoreMillis() < 0 ? "not restored" : r.restoreMillis() + " ms",
                r.trafficAfter(), r.violations().isEmpty() ? "all hold" : r.violations().size() + " broken");
    }

    private static String table(List<LoopbackAttack.Result> results) {
        StringBuilder t = new StringBuilder();
        t.append("| run | seed | packets | attack s | sent by type | b's drops by reason | handler errors"
                + " | largest database | restore | traffic after | invariants |\n");
        t.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < results.size(); i++) {
            t.append(row(i + 1, results.get(i))).append('\n');
        }
        return t.toString();
    }

    private static String summary(List<LoopbackAttack.Result> results) {
        List<LoopbackAttack.Result> byRestore = results.stream()
                .sorted(Comparator.comparingLong(r -> r.restoreMillis() < 0 ? Long.MAX_VALUE : r.restoreMillis()))
                .toList();
        LoopbackAttack.Result median = byRestore.get((byRestore.size() - 1) / 2);
        long broken = results.stream().filter(r -> !r.violations().isEmpty()).count();
        return String.format(Locale.ROOT, "Median time to restore full reachability: **%s** (run with seed %d);"
                        + " handler errors in all runs: %d; largest database: %d; runs with a broken invariant: %d"
                        + " of %d.%n",
                median.restoreMillis() < 0 ? "not restored" : median.restoreMillis() + " ms", median.seed(),
                results.stream().mapToLong(LoopbackAttack.Result::handlerErrors).sum(),
                results.stream().mapToInt(LoopbackAttack.Result::largestDatabase).max().orElse(0), broken,
                results.size());
    }

    private static String byType(Map<String, Long> sent) {
        return sent.entrySet().stream().map(e -> e.getKey().toLowerCase(Locale.ROOT) + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }

    private static String drops(Map<DropReason, Long> drops) {
        return drops.entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> e.getKey().tag() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    private static String fmt(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }
}

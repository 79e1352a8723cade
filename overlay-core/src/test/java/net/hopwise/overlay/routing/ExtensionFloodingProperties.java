package net.hopwise.overlay.routing;

import static net.hopwise.overlay.routing.VirtualNetwork.MS;
import static net.hopwise.overlay.routing.VirtualNetwork.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.hopwise.overlay.NodeId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Extension records reach every node and agree everywhere whatever the network does (loss,
 * duplication, reordering, a partition and its merge, a crash and maybe a restart), and they never
 * cause a route computation.
 */
class ExtensionFloodingProperties {
    private static final int[] KINDS = {1, 2, 3};
    /** Short refresh and maxAge, so that crashed origins and long partitions age out within a run. */
    private static final RoutingConfig CONFIG = RoutingConfig.builder()
            .refreshInterval(Duration.ofSeconds(5)).maxAge(Duration.ofSeconds(15)).build();

    private record Event(long atNanos, Runnable action) {}

    /**
     * Nodes of a random connected topology publish, replace and withdraw records of three kinds while
     * packets are lost, duplicated and reordered; meanwhile a random cut partitions the overlay (for
     * up to longer than maxAge, so the two sides forget each other) and merges again, and one node
     * whose loss leaves the rest connected crashes and, in some runs, restarts with an empty database
     * and publishes anew. Once the network is clean and settles, every live node holds exactly the
     * records the live origins last published (withdrawn ones and the crashed life's nowhere), its
     * change events add up to the same, and nothing is left unacknowledged. Then a second round of
     * records churns under loss with the topology still, and is checked the same way before any
     * withdrawn record could have aged out: no router computes routes again. Last, a node crashes and
     * restarts at once: its previous life's records vanish everywhere long before they could age out.
     */
    @Property(tries = 40)
    void recordsConvergeEverywhereAndNeverMoveRoutes(
            @ForAll @IntRange(min = 3, max = 14) int nodes,
            @ForAll long seed,
            @ForAll @DoubleRange(min = 0, max = 0.3) double loss,
            @ForAll @DoubleRange(min = 0, max = 0.2) double duplication,
            @ForAll @LongRange(min = 0, max = 50) long jitterMillis) {
        Random random = new Random(seed);
        RandomTopology topology = RandomTopology.generate(nodes, random, false);
        VirtualNetwork net = new VirtualNetwork(CONFIG, seed);
        net.lossRate = loss;
        net.duplicateRate = duplication;
        net.jitterNanos = jitterMillis * MS;
        List<String> names = topology.names();
        for (int i = 0; i < nodes; i++) {
            net.add(names.get(i), 1_000L * (i + 1));
        }
        // name -> kind -> the bytes it last published there (absent: withdrawn or never published).
        Map<String, Map<Integer, byte[]>> truth = new TreeMap<>();
        names.forEach(n -> truth.put(n, new TreeMap<>()));

        List<Event> events = new ArrayList<>();
        for (RandomTopology.Edge e : topology.edges()) {
            events.add(new Event(random.nextInt(300) * MS, () -> net.linkUp(e.a(), e.b(), e.ab())));
            events.add(new Event(random.nextInt(300) * MS, () -> net.linkUp(e.b(), e.a(), e.ba())));
        }
        for (int k = 5 + random.nextInt(4 * nodes); k > 0; k--) {
            events.add(publishing(net, truth, names.get(random.nextInt(nodes)), random.nextInt(22_000) * MS, random));
        }
        Set<String> side = new HashSet<>();
        names.forEach(n -> {
            if (random.nextBoolean()) {
                side.add(n);
            }
        });
        List<RandomTopology.Edge> cut = topology.edges().stream().filter(e -> side.contains(e.a()) != side.contains(e.b())).toList();
        long partitionAt = (1_000 + random.nextInt(3_000)) * MS;
        long mergeAt = partitionAt + (500 + random.nextInt(19_000)) * MS;
        events.add(new Event(partitionAt, () -> cut.forEach(e -> net.disconnect(e.a(), e.b()))));
        events.add(new Event(mergeAt, () -> cut.forEach(e -> net.connect(e.a(), e.b(), e.ab(), e.ba()))));
        String victim = nonCutNode(topology, random);
        long crashAt = mergeAt + (100 + random.nextInt(2_000)) * MS;
        boolean restarts = random.nextBoolean();
        events.add(new Event(crashAt, () -> {
            net.crash(victim);
            truth.get(victim).clear();
        }));
        if (restarts) {
            long restartAt = crashAt + random.nextInt(20_000) * MS;
            events.add(new Event(restartAt, () -> {
                net.restart(victim, 10_000_000L);
                for (RandomTopology.Edge e : topology.edges()) {
                    if (e.a().equals(victim) || e.b().equals(victim)) {
                        net.connect(e.a(), e.b(), e.ab(), e.ba());
                    }
                }
            }));
            for (int k = random.nextInt(3); k > 0; k--) {
                events.add(publishing(net, truth, victim, restartAt + random.nextInt(2_000) * MS, random));
            }
        }
        events.sort(Comparator.comparingLong(Event::atNanos));
        for (Event e : events) {
            net.runUntil(e.atNanos());
            e.action().run();
        }
        long lossyUntil = Math.max(net.now(), 25 * SECOND);
        net.runUntil(lossyUntil);
        net.lossRate = 0;
        net.duplicateRate = 0;
        net.jitterNanos = 0;
        // Long enough for a crashed origin that was never restarted to age out everywhere.
        net.runUntil(Math.max(lossyUntil, crashAt + CONFIG.maxAge().toNanos()) + 10 * SECOND);
        verifyConverged(net, truth);
        Statistics.label("restarted").collect(restarts);
        Statistics.label("partition longer than maxAge").collect(mergeAt - partitionAt > CONFIG.maxAge().toNanos());

        Map<String, Long> recomputations = new HashMap<>();
        net.hosts().stream().filter(h -> h.router != null).forEach(h -> recomputations.put(h.name, h.router.recomputations()));
        net.lossRate = loss;
        net.duplicateRate = duplication;
        net.jitterNanos = jitterMillis * MS;
        long start = net.now();
        List<Event> churn = new ArrayList<>();
        for (int k = 5 + random.nextInt(3 * nodes); k > 0; k--) {
            String name = names.get(random.nextInt(nodes));
            if (net.host(name).router != null) {
                churn.add(publishing(net, truth, name, start + random.nextInt(3_000) * MS, random));
            }
        }
        churn.sort(Comparator.comparingLong(Event::atNanos));
        for (Event e : churn) {
            net.runUntil(e.atNanos());
            e.action().run();
        }
        net.runUntil(start + 4 * SECOND);
        net.lossRate = 0;
        net.duplicateRate = 0;
        net.jitterNanos = 0;
        // Well before a withdrawn record (refreshed every 5 s) could age out anywhere: withdrawals flood.
        net.runFor(3 * SECOND);
        verifyConverged(net, truth);
        net.hosts().stream().filter(h -> h.router != null).forEach(h -> assertThat(h.router.recomputations())
                .as("route computations at " + h.name + " while only records changed").isEqualTo(recomputations.get(h.name)));

        // A quick restart: the previous life's records, refreshed less than 5 s ago and so far from
        // ageing out, are withdrawn everywhere by the new life, which starts with an empty database.
        List<String> live = names.stream().filter(n -> net.host(n).router != null).toList();
        String restarted = live.get(random.nextInt(live.size()));
        Statistics.label("quickly restarted node had records").collect(!truth.get(restarted).isEmpty());
        net.crash(restarted);
        truth.get(restarted).clear();
        net.runFor(SECOND);
        net.restart(restarted, 20_000_000L);
        for (RandomTopology.Edge e : topology.edges()) {
            if ((e.a().equals(restarted) || e.b().equals(restarted))
                    && net.host(e.a()).router != null && net.host(e.b()).router != null) {
                net.connect(e.a(), e.b(), e.ab(), e.ba());
            }
        }
        if (random.nextBoolean()) {
            events.clear();
            events.add(publishing(net, truth, restarted, net.now(), random));
            events.get(0).action().run();
        }
        net.runFor(3 * SECOND);
        verifyConverged(net, truth);
    }

    /** At {@code atNanos}, {@code name} publishes random bytes or withdraws one of its kinds, if it is alive. */
    private static Event publishing(VirtualNetwork net, Map<String, Map<Integer, byte[]>> truth, String name, long atNanos,
            Random random) {
        int kind = KINDS[random.nextInt(KINDS.length)];
        byte[] record = random.nextInt(4) == 0 ? null : new byte[random.nextInt(60)];
        if (record != null) {
            random.nextBytes(record);
        }
        return new Event(atNanos, () -> {
            Router r = net.host(name).router;
            if (r != null) {
                r.publishExtension(kind, record, net.now());
                if (record == null) {
                    truth.get(name).remove(kind);
                } else {
                    truth.get(name).put(kind, record);
                }
            }
        });
    }

    private static void verifyConverged(VirtualNetwork net, Map<String, Map<Integer, byte[]>> truth) {
        // Refreshes come every few seconds: check between two, when nothing is in flight.
        for (int i = 0; i < 5_000 && !settled(net); i++) {
            net.runFor(MS);
        }
        assertThat(settled(net)).as("nothing in flight or unacknowledged").isTrue();
        for (int kind : KINDS) {
            Map<NodeId, String> expected = new TreeMap<>();
            for (VirtualNetwork.Host h : net.hosts()) {
                byte[] r = truth.get(h.name).get(kind);
                if (h.router != null && r != null) {
                    expected.put(h.id, HexFormat.of().formatHex(r));
                }
            }
            for (VirtualNetwork.Host h : net.hosts()) {
                if (h.router == null) {
                    continue;
                }
                assertThat(hex(h.router.extensions(kind))).as("records of kind " + kind + " at " + h.name).isEqualTo(expected);
                assertThat(hex(h.heardRecords.getOrDefault(kind, Map.of())))
                        .as("records of kind " + kind + " as " + h.name + "'s change events told them").isEqualTo(expected);
            }
        }
        for (VirtualNetwork.Host h : net.hosts()) {
            if (h.router != null) {
                assertThat(h.router.unacknowledgedExtensions()).as("unacknowledged records at " + h.name).isZero();
                assertThat(h.redundantExtensionEvents).as("change events that changed nothing at " + h.name).isZero();
            }
        }
    }

    private static boolean settled(VirtualNetwork net) {
        return net.quiet() && net.hosts().stream().filter(h -> h.router != null)
                .allMatch(h -> h.router.unacknowledged() == 0 && h.router.unacknowledgedExtensions() == 0);
    }

    private static Map<NodeId, String> hex(Map<NodeId, byte[]> records) {
        Map<NodeId, String> hex = new TreeMap<>();
        records.forEach((k, v) -> hex.put(k, HexFormat.of().formatHex(v)));
        return hex;
    }

    /** A node whose removal leaves the others connected (a leaf of any spanning tree is one). */
    private static String nonCutNode(RandomTopology topology, Random random) {
        List<String> candidates = new ArrayList<>(topology.names());
        java.util.Collections.shuffle(candidates, random);
        for (String c : candidates) {
            if (connectedWithout(topology, c)) {
                return c;
            }
        }
        throw new AssertionError("a connected graph always has a node that is not a cut vertex");
    }

    private static boolean connectedWithout(RandomTopology topology, String removed) {
        Map<String, List<String>> adjacent = new HashMap<>();
        for (RandomTopology.Edge e : topology.edges()) {
            if (!e.a().equals(removed) && !e.b().equals(removed)) {
                adjacent.computeIfAbsent(e.a(), k -> new ArrayList<>()).add(e.b());
                adjacent.computeIfAbsent(e.b(), k -> new ArrayList<>()).add(e.a());
            }
        }
        String start = topology.names().stream().filter(n -> !n.equals(removed)).findFirst().orElseThrow();
        Set<String> seen = new HashSet<>(List.of(start));
        ArrayDeque<String> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            for (String next : adjacent.getOrDefault(queue.poll(), List.of())) {
                if (seen.add(next)) {
                    queue.add(next);
                }
            }
        }
        return seen.size() == topology.names().size() - 1;
    }
}

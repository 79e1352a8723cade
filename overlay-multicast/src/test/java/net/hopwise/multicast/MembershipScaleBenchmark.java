package net.hopwise.multicast;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.VirtualOverlay;

/**
 * Membership at the thesis's scale (chapter 3, figure 3.2): 7 nodes each joining 150,000 groups, about
 * a million node memberships, beside the thesis's 50 us per join and 45 us per leave. Three parts per
 * run, after a warm-up at 20,000 groups a node:
 *
 * <ol>
 *   <li>running nodes on loopback UDP (see {@link #live}): join and leave per operation as an
 *       application sees them, and the other nodes' installing;
 *   <li>the simulator with the unchanged module (7 nodes on a ring, 4,096 kinds per origin so a node
 *       spreads its groups over 2,048 records, admission limits raised to take them at once): each
 *       node's joins through the API, timed per operation (a join's record is encoded and published at
 *       once: the simulator runs the node's task inline), then the flooding until every node holds
 *       every membership, timed per remote membership installed (records stored, acked, re-flooded,
 *       decoded, added to the view), then the same for the leaves;
 *   <li>the view alone: the 7 nodes' records decoded into a fresh view at one node, per membership,
 *       and its heap (used heap after full collections, with and without it), beside the previous
 *       view (maps of boxed sets, kept as {@link LegacyMembershipView}, the baseline) fed the same records;
 *   <li>Ed25519 (the JDK's) signing and verifying a record of a bucket's mean size: what signed link
 *       state adds per record, and per membership when records are full.
 * </ol>
 *
 * Run from the repository root: {@code ./mvnw -q -pl overlay-multicast -am test-compile exec:exec
 * -Dmulticast.exec.skip=false -Dexec.executable=java -Dexec.classpathScope=test -Dexec.args="-cp
 * %classpath net.hopwise.multicast.MembershipScaleBenchmark --runs 3"} ({@code --groups n} and
 * {@code --nodes n} change the size).
 */
public final class MembershipScaleBenchmark {
    private static final long MS = 1_000_000L;

    private MembershipScaleBenchmark() {}

    public static void main(String[] args) throws Exception {
        int nodes = 7;
        int groups = 150_000;
        int runs = 3;
        boolean live = true;
        boolean sim = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--nodes" -> nodes = Integer.parseInt(args[++i]);
                case "--groups" -> groups = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--no-live" -> live = false;
                case "--no-sim" -> sim = false;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (--nodes n, --groups n, --runs n, --no-live, --no-sim)");
            }
        }
        System.out.printf(Locale.ROOT, "%d nodes x %d groups = %d node memberships; JVM %s%n", nodes, groups,
                (long) nodes * groups, Runtime.version());
        // The same code paths at a smaller size: the compiler's warm-up without minutes of it.
        int warm = Math.min(groups, 20_000);
        if (live) {
            live(nodes, warm, "warm-up");
        }
        if (sim) {
            simulated(nodes, warm, "warm-up");
        }
        viewAlone(nodes, warm, "warm-up");
        for (int run = 1; run <= runs; run++) {
            if (live) {
                live(nodes, groups, "run " + run);
            }
            if (sim) {
                simulated(nodes, groups, "run " + run);
            }
            viewAlone(nodes, groups, "run " + run);
        }
        signatures(groups);
    }

    // ---------------------------------------------------------------- 0: running nodes

    /**
     * Running nodes on loopback UDP (one event-loop thread for all, the application on the main thread):
     * each node in turn joins its groups, timed from the first join until its own view holds them all
     * (every join published: a burst of joins is published in batches, one task per batch), then the
     * overlay is left to converge (timed: the other nodes installing them); then the same for leaves.
     */
    static void live(int nodes, int groups, String label) throws Exception {
        RoutingConfig routing = RoutingConfig.builder().maxExtensionsPerOrigin(4096)
                .maxAdvertisementsPerOrigin(1 << 20).maxAdvertisementsPerNeighbour(1 << 20).build();
        List<OverlayNode> running = new ArrayList<>();
        NodeRuntime runtime = NodeRuntime.create(1);
        try {
            for (int n = 0; n < nodes; n++) {
                running.add(OverlayNode.start(NodeConfig.builder("n" + n).loopback(0).routing(routing)
                        .module(new MulticastModule()).build(), runtime));
            }
            for (int n = 0; n < nodes; n++) {
                OverlayNode x = running.get(n);
                OverlayNode y = running.get((n + 1) % nodes);
                x.addNeighbour(new NeighbourConfig(y.name(), new InetSocketAddress("127.0.0.1", y.localAddress().getPort())));
                y.addNeighbour(new NeighbourConfig(x.name(), new InetSocketAddress("127.0.0.1", x.localAddress().getPort())));
            }
            List<String> names = running.stream().map(OverlayNode::name).toList();
            for (OverlayNode node : running) {
                await(() -> node.reachableNodes(RoutingMetric.HOPS).containsAll(names), 30_000);
            }
            List<List<Membership>> held = new ArrayList<>();
            long joinNanos = 0;
            long callNanos = 0;
            for (int n = 0; n < nodes; n++) {
                String[] groupNames = new String[groups];
                for (int g = 0; g < groups; g++) {
                    groupNames[g] = "g" + n + "-" + g;
                }
                Multicast m = running.get(n).module(Multicast.class);
                MembershipView own = view(m);
                NodeId self = NodeId.ofName(running.get(n).name());
                List<Membership> mine = new ArrayList<>(groups);
                long t0 = System.nanoTime();
                for (int g = 0; g < groups; g++) {
                    mine.add(m.join(groupNames[g], 1, msg -> {}));
                }
                callNanos += System.nanoTime() - t0;
                await(() -> own.memberships(self) == groups, 60_000);
                joinNanos += System.nanoTime() - t0;
                held.add(mine);
            }
            long t1 = System.nanoTime();
            String joined = awaitEverywhere(running, (long) nodes * groups);
            double joinedSeconds = (System.nanoTime() - t1) / 1e9;
            String joinKernelDrops = kernelDrops(running);
            long leaveNanos = 0;
            for (int n = 0; n < nodes; n++) {
                MembershipView own = view(running.get(n).module(Multicast.class));
                NodeId self = NodeId.ofName(running.get(n).name());
                long t0 = System.nanoTime();
                for (Membership membership : held.get(n)) {
                    membership.leave();
                }
                await(() -> own.memberships(self) == 0, 60_000);
                leaveNanos += System.nanoTime() - t0;
            }
            t1 = System.nanoTime();
            String left = awaitEverywhere(running, 0);
            double leftSeconds = (System.nanoTime() - t1) / 1e9;
            System.out.printf(Locale.ROOT, "%-8s datagrams the kernel dropped at each node's socket (receive buffer"
                    + " full): after the joins %s, at the end %s%n", label, joinKernelDrops, kernelDrops(running));
            long all = (long) nodes * groups;
            System.out.printf(Locale.ROOT, "%-8s running nodes: join %.2f us/op (the calls alone %.2f), leave %.2f us/op;"
                            + " after the last join: %s in %.1f s; after the last leave: %s in %.1f s%n", label,
                    joinNanos / 1e3 / all, callNanos / 1e3 / all, leaveNanos / 1e3 / all, joined, joinedSeconds, left,
                    leftSeconds);
        } finally {
            running.forEach(OverlayNode::stop);
            runtime.close();
        }
    }

    /** Waits at most 20 s for every node to hold {@code target} memberships; says how far they got. */
    private static String awaitEverywhere(List<OverlayNode> running, long target) throws Exception {
        long deadline = System.nanoTime() + 20_000 * MS;
        for (OverlayNode node : running) {
            MembershipView v = view(node.module(Multicast.class));
            try {
                await(() -> v.memberships() == target, Math.max(1, (deadline - System.nanoTime()) / MS));
            } catch (IllegalStateException e) {
                StringBuilder held = new StringBuilder("NOT converged (memberships held:");
                for (OverlayNode n : running) {
                    held.append(' ').append(view(n.module(Multicast.class)).memberships());
                }
                return held.append(" of ").append(target).append("; drops ").append(drops(node)).append(')').toString();
            }
        }
        return "converged";
    }

    private static String drops(OverlayNode node) {
        StringBuilder b = new StringBuilder();
        for (net.hopwise.overlay.wire.DropReason r : net.hopwise.overlay.wire.DropReason.values()) {
            long n = node.counters().drops(r);
            if (n > 0) {
                b.append(r).append('=').append(n).append(' ');
            }
        }
        return b.toString();
    }

    /**
     * Each node's socket's drop count from /proc/net/udp (Linux): datagrams the kernel threw away
     * because the socket's receive buffer was full, which the node itself cannot see.
     */
    private static String kernelDrops(List<OverlayNode> running) {
        java.util.Map<Integer, Long> byPort = new java.util.HashMap<>();
        try {
            // Both tables: a socket bound on loopback may be an IPv6 one taking IPv4 too.
            List<String> lines = new ArrayList<>();
            for (String table : List.of("/proc/net/udp", "/proc/net/udp6")) {
                java.nio.file.Path p = java.nio.file.Path.of(table);
                if (java.nio.file.Files.isReadable(p)) {
                    lines.addAll(java.nio.file.Files.readAllLines(p));
                }
            }
            if (lines.isEmpty()) {
                return "(not on Linux)";
            }
            for (String line : lines) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 13 || !f[1].contains(":")) {
                    continue;
                }
                byPort.merge(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16), Long.parseLong(f[f.length - 1]),
                        Long::sum);
            }
        } catch (java.io.IOException | NumberFormatException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
        StringBuilder b = new StringBuilder("[");
        for (OverlayNode n : running) {
            b.append(b.length() > 1 ? " " : "").append(byPort.getOrDefault(n.localAddress().getPort(), -1L));
        }
        return b.append(']').toString();
    }

    private static void await(BooleanSupplier condition, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * MS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not reached in " + timeoutMillis + " ms");
            }
            // A benchmark, not a test: polling the other threads' progress every 100 us.
            Thread.sleep(0, 100_000);
        }
    }

    // ---------------------------------------------------------------- 1: the simulator

    static void simulated(int nodes, int groups, String label) throws Exception {
        RoutingConfig routing = RoutingConfig.builder().maxExtensionsPerOrigin(4096)
                .maxAdvertisementsPerOrigin(1 << 20).maxAdvertisementsPerNeighbour(1 << 20).build();
        try (VirtualOverlay overlay = new VirtualOverlay(1, b -> b.module(new MulticastModule()).routing(routing))) {
            List<String> names = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                names.add("n" + n);
                overlay.node("n" + n);
            }
            for (int n = 0; n < nodes; n++) {
                overlay.link(names.get(n), names.get((n + 1) % nodes), 5 * MS);
            }
            overlay.startAll();
            overlay.runFor(20_000 * MS);
            String[][] groupNames = new String[nodes][groups];
            for (int n = 0; n < nodes; n++) {
                for (int g = 0; g < groups; g++) {
                    groupNames[n][g] = "g" + n + "-" + g;
                }
            }
            List<List<Membership>> held = new ArrayList<>();
            long joinNanos = 0;
            for (int n = 0; n < nodes; n++) {
                Multicast m = multicast(overlay, names.get(n));
                List<Membership> mine = new ArrayList<>(groups);
                long t0 = System.nanoTime();
                for (int g = 0; g < groups; g++) {
                    mine.add(m.join(groupNames[n][g], 1, msg -> {}));
                }
                joinNanos += System.nanoTime() - t0;
                held.add(mine);
            }
            long expected = (long) nodes * groups;
            long t0 = System.nanoTime();
            double floodSeconds = converge(overlay, names, expected);
            long installNanos = System.nanoTime() - t0;

            long leaveNanos = 0;
            for (int n = 0; n < nodes; n++) {
                multicast(overlay, names.get(n));
                long t1 = System.nanoTime();
                for (Membership membership : held.get(n)) {
                    membership.leave();
                }
                leaveNanos += System.nanoTime() - t1;
            }
            t0 = System.nanoTime();
            double unfloodSeconds = converge(overlay, names, 0);
            long removeNanos = System.nanoTime() - t0;
            long remote = expected * (nodes - 1);
            System.out.printf(Locale.ROOT, "%-8s simulator: join %.2f us/op, leave %.2f us/op; install %.2f us per remote"
                            + " membership (%.1f s simulated), removal %.2f us (%.1f s simulated)%n", label,
                    joinNanos / 1e3 / expected, leaveNanos / 1e3 / expected, installNanos / 1e3 / remote, floodSeconds,
                    removeNanos / 1e3 / remote, unfloodSeconds);
        }
    }

    /** Runs until every node holds {@code expected} memberships; returns the simulated seconds it took. */
    private static double converge(VirtualOverlay overlay, List<String> names, long expected) throws Exception {
        long start = overlay.now();
        for (int step = 0; step < 600; step++) {
            overlay.runFor(100 * MS);
            boolean done = true;
            for (String n : names) {
                if (view(overlay, n).memberships() != expected) {
                    done = false;
                    break;
                }
            }
            if (done) {
                return (overlay.now() - start) / 1e9;
            }
        }
        throw new IllegalStateException("membership did not converge in 60 simulated seconds");
    }

    private static Multicast multicast(VirtualOverlay overlay, String node) {
        NodeStack stack = overlay.engine(node);
        stack.advance(overlay.now());
        return stack.module(Multicast.class);
    }

    /** The node's view, for its counts: a benchmark's look inside, so it never builds a million-entry snapshot. */
    private static MembershipView view(VirtualOverlay overlay, String node) throws Exception {
        return view(multicast(overlay, node));
    }

    private static MembershipView view(Multicast m) throws Exception {
        Field plane = MulticastStage.class.getDeclaredField("membership");
        plane.setAccessible(true);
        return ((MembershipPlane) plane.get(m)).view();
    }

    // ---------------------------------------------------------------- 2: the view alone, and its heap

    static void viewAlone(int nodes, int groups, String label) {
        int buckets = MembershipRecords.buckets(4096);
        Map<NodeId, byte[][]> records = new HashMap<>();
        Random random = new Random(7);
        for (int n = 0; n < nodes; n++) {
            List<List<GroupId>> perBucket = new ArrayList<>();
            for (int b = 0; b < buckets; b++) {
                perBucket.add(new ArrayList<>());
            }
            for (int g = 0; g < groups; g++) {
                long id = random.nextLong();
                GroupId group = new GroupId(id == 0 ? 1 : id);
                perBucket.get(MembershipRecords.bucket(group, buckets)).add(group);
            }
            byte[][] bytes = new byte[buckets][];
            for (int b = 0; b < buckets; b++) {
                bytes[b] = MembershipRecords.encode(perBucket.get(b));
            }
            records.put(NodeId.ofName("n" + n), bytes);
        }
        long memberships = (long) nodes * groups;

        long base = usedHeap();
        long t0 = System.nanoTime();
        MembershipView view = new MembershipView();
        records.forEach((origin, bytes) -> {
            for (int b = 0; b < bytes.length; b++) {
                view.update(origin, b, MembershipRecords.decodeIds(bytes[b]));
            }
        });
        long installNanos = System.nanoTime() - t0;
        long heap = usedHeap() - base;
        if (view.memberships() != memberships) {
            throw new IllegalStateException("view holds " + view.memberships());
        }

        long legacyBase = usedHeap();
        t0 = System.nanoTime();
        LegacyMembershipView legacy = new LegacyMembershipView();
        records.forEach((origin, bytes) -> {
            for (int b = 0; b < bytes.length; b++) {
                legacy.update(origin, b, MembershipRecords.decode(bytes[b]));
            }
        });
        long legacyNanos = System.nanoTime() - t0;
        long legacyHeap = usedHeap() - legacyBase;
        if (legacy.members.size() != view.groups()) {
            throw new IllegalStateException("baseline view holds " + legacy.members.size());
        }
        System.out.printf(Locale.ROOT, "%-8s view alone: install %.3f us/membership, heap %.1f MB for %d memberships"
                        + " | previous view: %.3f us/membership, %.1f MB%n", label, installNanos / 1e3 / memberships,
                heap / 1e6, memberships, legacyNanos / 1e3 / memberships, legacyHeap / 1e6);
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    // ---------------------------------------------------------------- 3: Ed25519

    static void signatures(int groups) throws Exception {
        int buckets = MembershipRecords.buckets(4096);
        int perRecord = Math.max(1, groups / buckets);
        byte[] record = new byte[MembershipRecords.HEADER + MembershipRecords.ENTRY * perRecord];
        new Random(3).nextBytes(record);
        KeyPair keys = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        byte[] signature = null;
        long signNanos = 0;
        long verifyNanos = 0;
        int rounds = 400;
        for (int pass = 0; pass < 2; pass++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < rounds; i++) {
                Signature s = Signature.getInstance("Ed25519");
                s.initSign(keys.getPrivate());
                s.update(record);
                signature = s.sign();
            }
            signNanos = System.nanoTime() - t0;
            t0 = System.nanoTime();
            for (int i = 0; i < rounds; i++) {
                Signature s = Signature.getInstance("Ed25519");
                s.initVerify(keys.getPublic());
                s.update(record);
                if (!s.verify(signature)) {
                    throw new IllegalStateException("a signature did not verify");
                }
            }
            verifyNanos = System.nanoTime() - t0;
        }
        int full = MembershipRecords.capacity(1024 - 64);
        System.out.printf(Locale.ROOT, "Ed25519 on a record of %d groups (%d bytes): sign %.0f us, verify %.0f us;"
                        + " verify per membership %.2f us at %d groups a record, %.2f us for records full (%d)%n",
                perRecord, record.length, signNanos / 1e3 / rounds, verifyNanos / 1e3 / rounds,
                verifyNanos / 1e3 / rounds / perRecord, perRecord, verifyNanos / 1e3 / rounds / full, full);
    }
}

package net.hopwise.examples.bench;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;

/**
 * Steady-state heap of overlay nodes: the bytes of live objects, with the nodes running, minus the
 * same before they started, from the JVM's class histogram (see {@link HeapHistogram}). Used heap
 * after System.gc() is not the figure: running nodes allocate between the collection and the reading,
 * and what they allocated in that window (several MiB for 50 nodes) made the same overlay measure
 * anywhere from 5 to 17 MiB.
 *
 * <p>A throw-away node is started and stopped first so that class initialisation and Netty's static
 * caches, paid once per JVM, are not charged to the nodes measured.
 */
final class MemoryScenario {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    /** One idle node's heap. */
    record IdleNode(long heapBytes, long directBytes) {}

    /** A converged overlay's heap and how long it took to converge. */
    record Overlay(int nodes, int links, long heapBytes, long directBytes, Duration convergence, List<String> growth) {
        double heapPerNodeBytes() {
            return (double) heapBytes / nodes;
        }
    }

    private MemoryScenario() {}

    /** Starts and stops a node so that one-time JVM costs are paid before anything is measured. */
    static void warmUp() {
        OverlayNode node = OverlayNode.start(NodeConfig.builder("mem-warmup").loopback(0).build());
        node.stop();
    }

    static IdleNode idleNode(Duration settle) {
        long heapBefore = liveHeap();
        long directBefore = directBytes();
        OverlayNode node = OverlayNode.start(NodeConfig.builder("mem-idle").loopback(0).build());
        try {
            sleep(settle);
            long heapAfter = liveHeap();
            return new IdleNode(heapAfter - heapBefore, directBytes() - directBefore);
        } finally {
            node.stop();
        }
    }

    /**
     * Starts {@code n} nodes on one shared 2-thread runtime, links them as a ring with {@code n/2}
     * random chords (mean degree 3, seeded so every run builds the same graph), waits until every
     * node reaches every node, lets the overlay settle and measures its heap.
     */
    static Overlay overlay(int n, Duration settle) {
        HeapHistogram histogramBefore = HeapHistogram.take();
        long heapBefore = histogramBefore.totalBytes() >= 0 ? histogramBefore.totalBytes() : usedHeapAfterGc();
        long directBefore = directBytes();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(String.format("mem-%02d", i));
        }
        List<int[]> links = ringWithChords(n, n / 2, new Random(2));
        try (LoopbackOverlay overlay = LoopbackOverlay.sharedRuntime(names, NodeRuntime.create(2))) {
            long start = System.nanoTime();
            for (int[] l : links) {
                overlay.link(names.get(l[0]), names.get(l[1]));
            }
            overlay.awaitConvergence(Duration.ofSeconds(120));
            Duration convergence = Duration.ofNanos(System.nanoTime() - start);
            sleep(settle);
            if (!overlay.converged()) {
                throw new IllegalStateException("the overlay lost a route while settling");
            }
            HeapHistogram histogramAfter = HeapHistogram.take();
            long heapAfter = histogramAfter.totalBytes() >= 0 ? histogramAfter.totalBytes() : usedHeapAfterGc();
            List<String> growth = histogramAfter.growthSince(histogramBefore, 8);
            return new Overlay(n, links.size(), heapAfter - heapBefore, directBytes() - directBefore, convergence,
                    growth);
        }
    }

    /** Edges {i, j} of a ring over {@code n} vertices plus {@code chords} distinct random chords. */
    static List<int[]> ringWithChords(int n, int chords, Random random) {
        List<int[]> edges = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < n; i++) {
            addEdge(edges, seen, i, (i + 1) % n);
        }
        int added = 0;
        int attempts = 0;
        while (added < chords && attempts++ < 100 * n) {
            int a = random.nextInt(n);
            int b = random.nextInt(n);
            if (a != b && addEdge(edges, seen, a, b)) {
                added++;
            }
        }
        return edges;
    }

    private static boolean addEdge(List<int[]> edges, Set<Long> seen, int a, int b) {
        int lo = Math.min(a, b);
        int hi = Math.max(a, b);
        if (!seen.add(((long) lo << 32) | hi)) {
            return false;
        }
        edges.add(new int[] {lo, hi});
        return true;
    }

    /** Bytes of live objects, or used heap after full collections where the JVM has no histogram. */
    static long liveHeap() {
        long live = HeapHistogram.take().totalBytes();
        return live >= 0 ? live : usedHeapAfterGc();
    }

    /** Used heap after full collections, once it stops shrinking. */
    static long usedHeapAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            sleep(Duration.ofMillis(50));
            long now = MEMORY.getHeapMemoryUsage().getUsed();
            if (i >= 2 && now >= used - 16 * 1024) {
                return Math.min(used, now);
            }
            used = Math.min(used, now);
        }
        return used;
    }

    /**
     * Direct memory in use: the JVM's direct buffer pool, plus what Netty allocates past it when it
     * manages direct memory without cleaners.
     */
    static long directBytes() {
        long sum = Math.max(0, io.netty.util.internal.PlatformDependent.usedDirectMemory());
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                sum += pool.getMemoryUsed();
            }
        }
        return sum;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}

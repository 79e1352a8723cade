package net.hopwise.examples.sim;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.RouteComputationProfile;
import net.hopwise.overlay.sim.SimLink;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.Simulator;

/**
 * Link state at scale: a Waxman topology of (by default) 1000 overlay nodes with the production
 * hello and routing machines and default settings. Measured: the cold start, the control bytes per
 * node per second of an idle overlay, and, after one link failure and then one node crash, the time
 * until the last route change anywhere (detection by missed hellos plus flooding plus recomputation),
 * with every route checked afterwards, and the wall-clock cost of the engine calls that recomputed
 * routes.
 */
final class ScaleExperiment {
    private static final long MS = 1_000_000L;
    private static final double QUIET_SECONDS = 5;

    private ScaleExperiment() {
    }

    record Phase(String what, double firstChangeMs, double convergedMs, long routeChangeEvents,
            RouteComputationProfile profile, int pairsChecked) {
    }

    static final class Watch {
        long lastChange = -1;
        long firstChangeAfter = -1;
        long since;
        long changes;

        void reset(long now) {
            since = now;
            firstChangeAfter = -1;
            changes = 0;
        }
    }

    static void run(Options o) throws IOException {
        long wallStart = System.nanoTime();
        int n = o.nodes;
        long seed = 4000;
        WaxmanTopology topo = new WaxmanTopology(n, 2, 0.15, 0.2, 4000, seed);
        SimNetwork net = new SimNetwork(seed);
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            names[i] = "n" + i;
            net.node(names[i]);
        }
        for (int[] e : topo.edges) {
            net.link(names[e[0]], names[e[1]], LinkSpec.builder().delayMillis(topo.delayMillis(e[0], e[1])).build());
        }
        Watch watch = new Watch();
        net.onNodeEvent((node, event) -> {
            if (event.kind() == NodeEvent.Kind.ROUTES_CHANGED) {
                long now = net.now();
                watch.lastChange = now;
                watch.changes++;
                if (watch.firstChangeAfter < 0 && now > watch.since) {
                    watch.firstChangeAfter = now;
                }
            }
        });
        net.start();
        long t0 = net.now();
        watch.reset(t0);
        runUntilQuiet(net, watch, 600);
        double coldStartSeconds = (watch.lastChange - t0) / 1e9;
        long coldChanges = watch.changes;
        int coldChecked = checkRoutes(net, names, null, -1, new SplittableRandom(1));

        // Idle control traffic: hellos and periodic refreshes, nothing else is sent.
        long bytesBefore = totalBytes(net);
        long idleStart = net.now();
        double idleSeconds = 120;
        net.runFor(Duration.ofSeconds((long) idleSeconds));
        double controlBytesPerNodePerSecond = (totalBytes(net) - bytesBefore) / (double) n / idleSeconds;
        long idleChanges = watch.changes - coldChanges;

        SplittableRandom pick = new SplittableRandom(seed);
        int edge;
        do {
            edge = pick.nextInt(topo.edges.size());
        } while (!topo.connectedWithout(edge, -1));
        int[] failed = topo.edges.get(edge);
        net.profileRouteComputation(true);
        Phase linkPhase = failure(net, watch, "link " + names[failed[0]] + "-" + names[failed[1]] + " fails",
                () -> net.failLink(names[failed[0]], names[failed[1]]), names, failed, -1);

        int victim;
        do {
            victim = pick.nextInt(n);
        } while (victim == failed[0] || victim == failed[1] || !topo.connectedWithout(edge, victim));
        int crashed = victim;
        Phase nodePhase = failure(net, watch, "node " + names[crashed] + " (degree "
                + topo.adjacency.get(crashed).size() + ") crashes", () -> net.crash(names[crashed]), names, failed,
                crashed);

        long events = net.simulator().eventsExecuted();
        double simSeconds = (net.now() - Simulator.START_NANOS) / 1e9;
        net.close();
        double wall = (System.nanoTime() - wallStart) / 1e9;

        double meanDegree = 2.0 * topo.edges.size() / n;
        double meanDelay = topo.edges.stream().mapToDouble(e -> topo.delayMillis(e[0], e[1])).average().orElse(0);
        ResultTable t = new ResultTable("measure", "value");
        t.add("topology", String.format("Waxman (BRITE incremental, m = 2, alpha 0.15, beta 0.2), %d nodes, %d links, "
                + "mean degree %.2f, 4000 km plane, mean link delay %.2f ms", n, topo.edges.size(), meanDegree, meanDelay));
        t.add("cold start: last route change after start", Report.f(coldStartSeconds, 2) + " s (" + coldChanges
                + " route-change events; routes of " + coldChecked + " random pairs checked)");
        t.add("idle control traffic per node", Report.f(controlBytesPerNodePerSecond, 0) + " B/s (over "
                + Report.f(idleSeconds, 0) + " s; " + idleChanges + " route changes while idle)");
        t.add("idle control traffic per link direction", Report.f(controlBytesPerNodePerSecond * n
                / (2.0 * topo.edges.size()), 0) + " B/s");
        for (Phase p : List.of(linkPhase, nodePhase)) {
            t.add(p.what + ": first route change", Report.f(p.firstChangeMs, 0) + " ms after the failure");
            t.add(p.what + ": converged (last route change)", Report.f(p.convergedMs, 0) + " ms after the failure ("
                    + p.routeChangeEvents + " route-change events; " + p.pairsChecked + " random pairs checked)");
            t.add(p.what + ": route computation per change", String.format("%s ms mean, %s ms max over %d engine calls "
                    + "that recomputed (wall clock, includes the flooding work of the same call)",
                    Report.f(p.profile.meanMillis(), 2), Report.f(p.profile.maxMillis(), 2), p.profile.count()));
        }
        t.add("simulation cost", String.format("%.0f simulated s, %d events, %.1f s wall, %.0f events/s", simSeconds,
                events, wall, events / wall));
        Report.file(o, "scale.csv", t.toCsv());
        String md = Report.header(o, "### Link state at scale (1000-node Waxman)")
                + "\nDefault node settings: hello every 100 ms, link dead after 10 missed hellos, flood pacing 10 ms, "
                + "route recomputation at most every 20 ms. Links have propagation delay only (no bandwidth limit: "
                + "control traffic never queues). Convergence is the last `ROUTES_CHANGED` event anywhere, followed "
                + "by " + Report.f(QUIET_SECONDS, 0) + " s without one; then the next hops of random pairs are "
                + "followed hop by hop to their destination, avoiding the failed element, with no loop.\n\n"
                + t.toMarkdown();
        List<String> repro = List.of(
                "| Thesis B2: control overhead | 2 × 28-byte hellos per second per link (Spines hello every 1 s) | "
                        + Report.f(controlBytesPerNodePerSecond * n / (2.0 * topo.edges.size()), 0)
                        + " B/s per link direction (hello every 100 ms, 1000-node Waxman) | `SimulatorCli "
                        + o.command + "` |",
                "| Thesis B3: failure detection and reroute | < 10 s | link failure: " + Report.f(linkPhase.convergedMs / 1000, 2)
                        + " s, node crash: " + Report.f(nodePhase.convergedMs / 1000, 2) + " s to the last route change "
                        + "(1000 nodes) | `SimulatorCli " + o.command + "` |");
        Report.publish(o, "scale", md, repro);
    }

    private static Phase failure(SimNetwork net, Watch watch, String what, Runnable fail, String[] names,
            int[] failedLink, int crashedNode) {
        net.runFor(Duration.ofSeconds(2));
        net.routeComputationProfile().reset();
        long at = net.now();
        watch.reset(at);
        fail.run();
        runUntilQuiet(net, watch, 120);
        int checked = checkRoutes(net, names, failedLink, crashedNode, new SplittableRandom(at));
        return new Phase(what, (watch.firstChangeAfter - at) / 1e6, (watch.lastChange - at) / 1e6, watch.changes,
                net.routeComputationProfile().snapshot(), checked);
    }

    private static void runUntilQuiet(SimNetwork net, Watch watch, int maxSeconds) {
        long start = net.now();
        net.runFor(Duration.ofSeconds(3));
        while (net.now() - start < maxSeconds * 1_000_000_000L) {
            if (watch.lastChange >= 0 && net.now() - watch.lastChange > QUIET_SECONDS * 1e9
                    && watch.lastChange > watch.since) {
                return;
            }
            net.runFor(Duration.ofMillis(500));
        }
        throw new IllegalStateException("routes did not settle within " + maxSeconds + " s");
    }

    private static long totalBytes(SimNetwork net) {
        long sum = 0;
        for (SimLink l : net.links()) {
            sum += l.bytesSent();
        }
        return sum;
    }

    /** Follows next hops between random pairs; fails loudly on a loop, a dead end or a failed element. */
    private static int checkRoutes(SimNetwork net, String[] names, int[] failedLink, int crashed, SplittableRandom r) {
        int checked = 0;
        for (int k = 0; k < 300; k++) {
            int a = r.nextInt(names.length);
            int b = r.nextInt(names.length);
            if (a == b || a == crashed || b == crashed) {
                continue;
            }
            NodeId target = NodeId.ofName(names[b]);
            String at = names[a];
            for (int hop = 0; ; hop++) {
                if (hop > names.length) {
                    throw new IllegalStateException("routing loop from " + names[a] + " to " + names[b]);
                }
                NodeStack engine = net.engine(at);
                NodeId next = engine.router().nextHop(target, RoutingMetric.LATENCY);
                if (next == null) {
                    throw new IllegalStateException("no route at " + at + " to " + names[b]);
                }
                String nextName = engine.router().database().nameOf(next).orElseThrow();
                if (failedLink != null && ((at.equals(names[failedLink[0]]) && nextName.equals(names[failedLink[1]]))
                        || (at.equals(names[failedLink[1]]) && nextName.equals(names[failedLink[0]])))) {
                    throw new IllegalStateException("route " + names[a] + "->" + names[b] + " uses the failed link");
                }
                if (crashed >= 0 && nextName.equals(names[crashed])) {
                    throw new IllegalStateException("route " + names[a] + "->" + names[b] + " uses the crashed node");
                }
                if (nextName.equals(names[b])) {
                    break;
                }
                at = nextName;
            }
            checked++;
        }
        return checked;
    }
}

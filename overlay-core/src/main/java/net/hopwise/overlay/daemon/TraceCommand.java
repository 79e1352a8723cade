package net.hopwise.overlay.daemon;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeListener;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.trace.TraceHop;
import net.hopwise.overlay.trace.TraceResult;
import net.hopwise.overlay.trace.TraceService;

/**
 * {@code --trace}: waits for a route to the destination, traces it once and prints the hops as a
 * table on stdout, like traceroute; the exit code says whether the destination answered.
 */
public final class TraceCommand {
    /** The destination answered the trace's probe. */
    public static final int REACHED = 0;
    /** No route, an unknown node, or no answer from the destination. */
    public static final int NOT_REACHED = 1;

    /**
     * How long to wait for the trace itself once started: its probes give up after 2 s, so a trace
     * that takes ten times that is stuck, and the command must end rather than hang a script.
     */
    static final Duration TRACE_LIMIT = Duration.ofSeconds(20);

    /**
     * Between attempts of a trace that did not reach its destination: routes that are still being
     * computed settle within a few hello intervals (100 ms), and a pause keeps an intermediate node
     * that answers at once (no route onwards yet) from being probed in a tight loop.
     */
    static final Duration RETRY_PAUSE = Duration.ofMillis(500);

    private TraceCommand() {}

    /** Runs the trace on a started node and prints it to {@code out}; returns the exit code. */
    public static int run(OverlayNode node, DaemonOptions.Trace trace, PrintStream out) throws InterruptedException {
        RoutingMetric metric = trace.metric() != null ? trace.metric() : node.config().defaultMetric();
        String what = "trace from " + node.name() + " to " + trace.destination() + " under " + metric;
        TraceResult result;
        try (RouteWatch routes = new RouteWatch(node)) {
            long deadline = System.nanoTime() + trace.routeWait().toNanos();
            routes.awaitReachable(trace.destination(), metric, deadline);
            result = trace(node, trace.destination(), metric);
            // A probe or its answer can be lost (a lossy link, a node on the path still joining, a
            // node restarting): within the wait, try again, as an operator would by hand.
            while (result != null && !result.reached() && System.nanoTime() < deadline) {
                routes.awaitChange(Math.min(deadline, System.nanoTime() + RETRY_PAUSE.toNanos()));
                routes.awaitReachable(trace.destination(), metric, deadline);
                result = trace(node, trace.destination(), metric);
            }
        } catch (ExecutionException e) {
            out.println(what + " failed: " + e.getCause());
            out.flush();
            return NOT_REACHED;
        }
        if (result == null) {
            out.println(what + ": no result within " + TRACE_LIMIT.toSeconds() + " s");
        } else {
            for (String line : lines(result)) {
                out.println(line);
            }
        }
        out.flush();
        return result != null && result.reached() ? REACHED : NOT_REACHED;
    }

    /** One trace, or null when it did not finish within {@link #TRACE_LIMIT}. */
    private static TraceResult trace(OverlayNode node, String destination, RoutingMetric metric)
            throws InterruptedException, ExecutionException {
        try {
            return node.module(TraceService.class).trace(destination, metric)
                    .get(TRACE_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return null;
        }
    }

    /** Wakes a waiting thread whenever the node's routes change. */
    private static final class RouteWatch implements AutoCloseable {
        private final OverlayNode node;
        private final Semaphore changed = new Semaphore(0);
        private final NodeListener listener = e -> {
            if (e.kind() == NodeEvent.Kind.ROUTES_CHANGED) {
                changed.release();
            }
        };

        RouteWatch(OverlayNode node) {
            this.node = node;
            node.addListener(listener);
        }

        /** Returns once the node has a route to {@code destination} under {@code metric}, or at the deadline. */
        void awaitReachable(String destination, RoutingMetric metric, long deadlineNanos) throws InterruptedException {
            while (!node.reachableNodes(metric).contains(destination) && awaitChange(deadlineNanos)) {
                // Routes changed: look again.
            }
        }

        /** Waits for a route change until the deadline; false when the deadline came first. */
        boolean awaitChange(long deadlineNanos) throws InterruptedException {
            long left = deadlineNanos - System.nanoTime();
            boolean woken = left > 0 && changed.tryAcquire(left, TimeUnit.NANOSECONDS);
            changed.drainPermits();
            return woken;
        }

        @Override
        public void close() {
            node.removeListener(listener);
        }
    }

    /**
     * The trace as printed: a line saying what was traced and whether the destination answered, then
     * one row per hop. Unknown values are {@code -}, an unanswered probe {@code *} as in traceroute,
     * and a link routing does not use has cost {@code inf}.
     */
    public static List<String> lines(TraceResult r) {
        List<String> lines = new ArrayList<>();
        String head = "trace from " + r.source() + " to " + r.destination() + " under " + r.metric() + ": ";
        if (r.error() != null) {
            lines.add(head + "not reached (" + r.error() + ")");
        } else {
            lines.add(head + (r.reached() ? "reached" : "not reached (no answer from " + r.destination() + ")")
                    + " in " + r.hops().size() + (r.hops().size() == 1 ? " hop" : " hops"));
        }
        if (r.hops().isEmpty()) {
            return lines;
        }
        String[] header = {"hop", "node", "link cost (" + unit(r.metric()) + ")", "link RTT ms", "round trip ms"};
        List<String[]> rows = new ArrayList<>();
        rows.add(header);
        for (TraceHop h : r.hops()) {
            rows.add(new String[] {String.valueOf(h.hop()), h.node(), cost(h.linkCost(), r.metric()),
                    millis(h.linkRttMillis(), "-"), millis(h.roundTripMillis(), "*")});
        }
        int[] width = new int[header.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                // The node's name reads left-aligned, numbers right-aligned so their digits line up.
                String cell = i == 1 ? pad(row[i], width[i], false) : pad(row[i], width[i], true);
                line.append(i == 0 ? "" : "  ").append(cell);
            }
            lines.add(line.toString().stripTrailing());
        }
        return lines;
    }

    private static String unit(RoutingMetric m) {
        return switch (m) {
            case HOPS -> "hops";
            case LATENCY, EXPECTED_LATENCY -> "ms";
            case LOSS -> "-ln(1-p)";
        };
    }

    private static String cost(double cost, RoutingMetric m) {
        if (Double.isInfinite(cost)) {
            return "inf";
        }
        if (Double.isNaN(cost)) {
            return "-";
        }
        return m == RoutingMetric.HOPS ? String.valueOf(Math.round(cost))
                : String.format(Locale.ROOT, m == RoutingMetric.LOSS ? "%.4f" : "%.2f", cost);
    }

    private static String millis(Double v, String unknown) {
        return v == null || !Double.isFinite(v) ? unknown : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(width - s.length());
        return right ? fill + s : s + fill;
    }
}

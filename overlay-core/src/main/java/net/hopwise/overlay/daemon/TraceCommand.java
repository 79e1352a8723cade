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

    private TraceCommand() {}

    /** Runs the trace on a started node and prints it to {@code out}; returns the exit code. */
    public static int run(OverlayNode node, DaemonOptions.Trace trace, PrintStream out) throws InterruptedException {
        RoutingMetric metric = trace.metric() != null ? trace.metric() : node.config().defaultMetric();
        awaitRoute(node, trace.destination(), metric, trace.routeWait());
        TraceResult result;
        try {
            result = node.module(TraceService.class).trace(trace.destination(), metric)
                    .get(TRACE_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            out.println("trace from " + node.name() + " to " + trace.destination() + " under " + metric
                    + ": no result within " + TRACE_LIMIT.toSeconds() + " s");
            out.flush();
            return NOT_REACHED;
        } catch (ExecutionException e) {
            out.println("trace from " + node.name() + " to " + trace.destination() + " under " + metric + " failed: "
                    + e.getCause());
            out.flush();
            return NOT_REACHED;
        }
        for (String line : lines(result)) {
            out.println(line);
        }
        out.flush();
        return result.reached() ? REACHED : NOT_REACHED;
    }

    /**
     * Returns once the node has a route to {@code destination} under {@code metric}, or {@code wait}
     * has passed. Route changes wake it, so it returns as soon as the route is there.
     */
    static void awaitRoute(OverlayNode node, String destination, RoutingMetric metric, Duration wait)
            throws InterruptedException {
        Semaphore changed = new Semaphore(0);
        NodeListener listener = e -> {
            if (e.kind() == NodeEvent.Kind.ROUTES_CHANGED) {
                changed.release();
            }
        };
        node.addListener(listener);
        try {
            long deadline = System.nanoTime() + wait.toNanos();
            while (!node.reachableNodes(metric).contains(destination)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                changed.tryAcquire(left, TimeUnit.NANOSECONDS);
                changed.drainPermits();
            }
        } finally {
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

package net.hopwise.overlay.daemon;

import io.micrometer.core.instrument.FunctionCounter;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.link.LinkStatistics;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.node.NodeCounters;
import net.hopwise.overlay.reliable.ReliableLinkStatistics;

/**
 * The periodic statistics lines: one for the node, one per link (state, RTT, jitter, loss both ways,
 * reliable-channel retransmissions and queue) and one for drops by reason since the previous report.
 *
 * <p>Drops are read from the node's {@code hopwise.node.drops} meters rather than its counters,
 * because impairment drops (and any reason a module adds) are counted outside the engine's counters.
 */
final class StatisticsReport implements Runnable {
    private static final String DROPS_METER = "hopwise.node.drops";

    private final OverlayNode node;
    private final DaemonLog log;
    /** Touched only by the thread that runs the reports, one at a time. */
    private Map<String, Long> previousDrops = Map.of();

    StatisticsReport(OverlayNode node, DaemonLog log) {
        this.node = node;
        this.log = log;
    }

    @Override
    public void run() {
        if (!node.isRunning()) {
            return;
        }
        try {
            for (String line : lines()) {
                log.log(Level.INFO, line);
            }
        } catch (IllegalStateException stopped) {
            // The node stopped while the report read it.
        } catch (RuntimeException e) {
            // A failed report must not end the periodic task (a scheduled executor drops a task that throws).
            log.log(Level.WARNING, "statistics report failed: " + e);
        }
    }

    /** The report's lines; the drop line counts from the previous call. */
    List<String> lines() {
        List<Neighbour> neighbours = node.neighbours();
        int up = 0;
        for (Neighbour n : neighbours) {
            if (n.status() == LinkStatus.UP) {
                up++;
            }
        }
        NodeCounters c = node.counters();
        int reachable = node.reachableNodes(node.config().defaultMetric()).size() - 1;
        List<String> lines = new ArrayList<>();
        lines.add(String.format(java.util.Locale.ROOT, "statistics: %d of %d links up, %d nodes reachable; "
                        + "packets in %d out %d forwarded %d; messages sent %d delivered %d",
                up, neighbours.size(), reachable, c.packetsReceived(), c.packetsSent(), c.packetsForwarded(),
                c.messagesSent(), c.messagesDelivered()));
        for (Neighbour n : neighbours) {
            lines.add(linkLine(LinkRow.of(n)));
        }
        Map<String, Long> drops = drops();
        lines.add(dropLine(previousDrops, drops));
        previousDrops = drops;
        return lines;
    }

    /** Drops per reason tag, as the node's meters count them since it started. */
    private Map<String, Long> drops() {
        Map<String, Long> drops = new TreeMap<>();
        for (FunctionCounter counter : node.meterRegistry().find(DROPS_METER).tag("node", node.name())
                .functionCounters()) {
            String reason = counter.getId().getTag("reason");
            // NaN: the counter's source is gone (Micrometer holds it weakly); nothing to count then.
            if (reason != null && !Double.isNaN(counter.count())) {
                drops.merge(reason, (long) counter.count(), Long::sum);
            }
        }
        return drops;
    }

    /** What a link line shows, read from a neighbour once. */
    record LinkRow(String peer, LinkStatus status, InetSocketAddress address, long srttNanos, long minRttNanos,
            long jitterNanos, double lossIn, double lossOut, long retransmissions, int queue) {
        static LinkRow of(Neighbour n) {
            LinkStatistics s = n.statistics();
            ReliableLinkStatistics r = n.reliableStatistics();
            return new LinkRow(n.name(), n.status(), n.address(),
                    s == null ? 0 : s.srttNanos(), s == null ? 0 : s.minRttNanos(), s == null ? 0 : s.jitterNanos(),
                    s == null ? 0 : s.inboundLossRate(), s == null ? 0 : s.outboundLossRate(),
                    r == null ? 0 : r.retransmissions(), r == null ? 0 : r.queueLength());
        }
    }

    static String linkLine(LinkRow r) {
        StringBuilder line = new StringBuilder("link ").append(r.peer()).append(' ').append(r.status())
                .append(" at ").append(Text.address(r.address()));
        if (r.srttNanos() > 0) {
            line.append(": rtt ").append(Text.millis(r.srttNanos())).append(" (min ").append(Text.millis(r.minRttNanos()))
                    .append("), jitter ").append(Text.millis(r.jitterNanos()));
        } else {
            line.append(": no rtt yet");
        }
        line.append(", loss in ").append(Text.percent(r.lossIn())).append(" out ").append(Text.percent(r.lossOut()))
                .append(", reliable retransmissions ").append(r.retransmissions()).append(" queue ").append(r.queue());
        return line.toString();
    }

    /** Drops by reason between two readings of the per-reason totals, largest first; totals since start at the end. */
    static String dropLine(Map<String, Long> before, Map<String, Long> now) {
        List<Map.Entry<String, Long>> recent = new ArrayList<>();
        long total = 0;
        for (Map.Entry<String, Long> e : now.entrySet()) {
            total += e.getValue();
            long delta = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            if (delta > 0) {
                recent.add(Map.entry(e.getKey(), delta));
            }
        }
        if (recent.isEmpty()) {
            return "drops: none since the last report (" + total + " since start)";
        }
        recent.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        StringBuilder line = new StringBuilder("drops since the last report: ");
        long sum = 0;
        for (int i = 0; i < recent.size(); i++) {
            Map.Entry<String, Long> e = recent.get(i);
            line.append(i == 0 ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
            sum += e.getValue();
        }
        return line.append(" (").append(sum).append(" in all, ").append(total).append(" since start)").toString();
    }
}

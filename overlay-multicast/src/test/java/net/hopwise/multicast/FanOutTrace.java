package net.hopwise.multicast;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.spi.DropCounter;

/**
 * Where the time of {@link FanOutExperiment}'s multicast phase goes: sampled every few milliseconds on
 * the nodes' own threads, the source's window occupancy (its next sequence less the slowest member's
 * acknowledgement), the relay's acknowledgement, the slowest and fastest member's delivery point, and
 * the drops each node counted since the previous sample. A diagnostic, printed with {@code --trace}.
 */
final class FanOutTrace {
    private final OverlayNode source;
    private final OverlayNode relay;
    private final List<OverlayNode> members;
    private final StringBuilder out = new StringBuilder();
    private final Map<String, Long> lastDrops = new TreeMap<>();

    FanOutTrace(OverlayNode source, OverlayNode relay, List<OverlayNode> members) {
        this.source = source;
        this.relay = relay;
        this.members = members;
    }

    /** Samples {@code count} times, {@code everyMillis} apart (real time: this is a live run's diagnostic). */
    void sample(int count, long everyMillis) throws InterruptedException {
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            ReliableStatistics s = one(source);
            ReliableStatistics r = one(relay);
            long minNext = Long.MAX_VALUE;
            long maxNext = Long.MIN_VALUE;
            for (OverlayNode m : members) {
                ReliableStatistics ms = one(m);
                if (ms != null) {
                    minNext = Math.min(minNext, ms.next());
                    maxNext = Math.max(maxNext, ms.next());
                }
            }
            out.append(String.format(Locale.ROOT, "t=%6.1f ms  src next %8d acked %8d out %5d | relay next %8d acked %8d"
                    + " nacks %d repairs %d | members next %d..%d | drops %s%n",
                    (System.nanoTime() - t0) / 1e6, s == null ? -1 : s.next(), s == null ? -1 : s.acknowledged(),
                    s == null ? -1 : s.next() - s.acknowledged(), r == null ? -1 : r.next(),
                    r == null ? -1 : r.acknowledged(), r == null ? 0 : r.nacksReceived(), r == null ? 0 : r.repairsSent(),
                    minNext, maxNext, drops()));
            out.append("   s channels").append(channels(source)).append("\n   r channels").append(channels(relay))
                    .append('\n');
            Thread.sleep(everyMillis);
        }
    }

    /** The node's link channels, read on its thread (the engine is the stage's, reached by reflection: a diagnostic). */
    private static String channels(OverlayNode node) {
        return node.inspect(stack -> {
            try {
                Object stage = stack.module(Multicast.class);
                java.lang.reflect.Field f = stage.getClass().getDeclaredField("reliable");
                f.setAccessible(true);
                return ((ReliableEngine) f.get(stage)).describeLinks();
            } catch (ReflectiveOperationException e) {
                return " (" + e + ")";
            }
        });
    }

    private static ReliableStatistics one(OverlayNode node) {
        List<ReliableStatistics> l = node.module(Multicast.class).reliableStatistics("fan");
        return l.isEmpty() ? null : l.get(0);
    }

    private String drops() {
        List<String> changed = new ArrayList<>();
        List<OverlayNode> all = new ArrayList<>(members);
        all.add(0, relay);
        all.add(0, source);
        for (OverlayNode n : all) {
            // The node's own drops too (socket buffer, no route, ...), and its route changes.
            Map<String, Long> own = n.inspect(stack -> {
                Map<String, Long> m = new TreeMap<>();
                for (net.hopwise.overlay.wire.DropReason r : net.hopwise.overlay.wire.DropReason.values()) {
                    m.put(r.name(), stack.counters().drops(r));
                }
                m.put("route_changes", stack.counters().routeChanges());
                return m;
            });
            own.forEach((reason, now) -> {
                String k = n.name() + ":" + reason;
                long before = lastDrops.getOrDefault(k, 0L);
                if (now != before) {
                    changed.add(k + "+" + (now - before));
                }
                lastDrops.put(k, now);
            });
            for (DropCounter c : n.inspect(stack -> stack.counters().moduleDrops())) {
                String k = n.name() + ":" + c.reason();
                long now = c.count();
                long before = lastDrops.getOrDefault(k, 0L);
                if (now != before) {
                    changed.add(k + "+" + (now - before));
                }
                lastDrops.put(k, now);
            }
        }
        return String.join(" ", changed);
    }

    String text() {
        return out.toString();
    }
}

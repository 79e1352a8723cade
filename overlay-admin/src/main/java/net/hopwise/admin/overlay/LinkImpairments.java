package net.hopwise.admin.overlay;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;

/**
 * Sets and reads the impairments of links that have a local end.
 *
 * <p>Each direction is impaired exactly once, at one socket: the sender's when it is local
 * (OUTBOUND), otherwise the receiver's (INBOUND). So a link between a local and a remote node can be
 * impaired both ways from the local end alone, and reading and restoring find the impairment where
 * setting put it.
 *
 * <p>Restoring puts back the configured impairment: what a direction had before this object first
 * changed it. The demo lays its delays and losses while it starts, before the API serves, and a
 * configured node has no impairment setting, so that is the demo's setup or none.
 */
public final class LinkImpairments {
    /** Applies a request to a link; the demo uses it to lay its impairments like the API does. */
    @FunctionalInterface
    public interface Applier {
        ImpairmentView apply(LocalNodes nodes, String a, String b, ImpairmentRequest request);
    }

    private final java.util.function.BiConsumer<String, String> changed;
    /** Each direction's impairment from before its first change here, by where it is applied. */
    private final Map<Site, ImpairmentConfig> configured = new ConcurrentHashMap<>();

    /** @param changed told the link id and what was set after every change, for the event stream */
    public LinkImpairments(java.util.function.BiConsumer<String, String> changed) {
        this.changed = changed;
    }

    /** Where one direction is impaired. */
    private record Site(OverlayNode node, String peer, Direction direction) {}

    /**
     * Replaces the impairment of the requested directions.
     *
     * @throws OverlayException NOT_LOCAL when neither end is local, UNKNOWN_LINK when the local end
     *     has no such neighbour
     * @throws IllegalArgumentException naming a bad value of the request
     */
    public ImpairmentView apply(LocalNodes nodes, String a, String b, ImpairmentRequest request) {
        ImpairmentConfig config = toConfig(request);
        return change(nodes, a, b, request.scope(), site -> config,
                (config.isNone() ? "cleared" : "set to " + config));
    }

    /**
     * Puts the configured impairment back on the chosen directions: the demo's setup, or none for a
     * direction nobody configured.
     */
    public ImpairmentView restore(LocalNodes nodes, String a, String b, ImpairmentRequest.Scope scope) {
        return change(nodes, a, b, scope, site -> configured.getOrDefault(site, current(site)),
                "restored to the configured impairment");
    }

    // One change at a time, so the impairment remembered as configured is never one set by a racing change.
    private synchronized ImpairmentView change(LocalNodes nodes, String a, String b, ImpairmentRequest.Scope scope,
            java.util.function.Function<Site, ImpairmentConfig> config, String what) {
        Site forward = site(nodes, a, b);
        Site reverse = site(nodes, b, a);
        if (scope != ImpairmentRequest.Scope.REVERSE) {
            set(forward, config.apply(forward));
        }
        if (scope != ImpairmentRequest.Scope.FORWARD) {
            set(reverse, config.apply(reverse));
        }
        ImpairmentView view = view(nodes, a, b);
        String which = switch (scope) {
            case BOTH -> "both directions";
            case FORWARD -> a + " to " + b;
            case REVERSE -> b + " to " + a;
        };
        changed.accept(view.link(), what + " (" + which + ")");
        return view;
    }

    private void set(Site site, ImpairmentConfig config) {
        configured.putIfAbsent(site, current(site));
        site.node().impair(site.peer(), site.direction(), config);
    }

    private static ImpairmentConfig current(Site site) {
        return site.node().impairment(site.peer(), site.direction());
    }

    /** The impairment of both directions of a link with a local end. */
    public ImpairmentView view(LocalNodes nodes, String a, String b) {
        return new ImpairmentView(new OverlayView.LinkKey(a, b).id(),
                List.of(direction(site(nodes, a, b), a, b), direction(site(nodes, b, a), b, a)));
    }

    private static ImpairmentView.Direction direction(Site site, String from, String to) {
        ImpairmentConfig c = current(site);
        return new ImpairmentView.Direction(from, to, site.node().name(), site.direction().name(), c.isNone(),
                c.loss().stationaryLossRate(), millis(c.delay()), millis(c.jitter()), c.rateBitsPerSecond() / 1000.0,
                c.queueLimitPackets(), c.duplicateProbability(), c.reorderProbability(), millis(c.reorderDelay()),
                c.toString());
    }

    private static Site site(LocalNodes nodes, String from, String to) {
        OverlayNode sender = nodes.get(from);
        if (sender != null) {
            requireNeighbour(sender, to);
            return new Site(sender, to, Direction.OUTBOUND);
        }
        OverlayNode receiver = nodes.get(to);
        if (receiver != null) {
            requireNeighbour(receiver, from);
            return new Site(receiver, from, Direction.INBOUND);
        }
        throw new OverlayException(OverlayException.Kind.NOT_LOCAL, "link " + new OverlayView.LinkKey(from, to).id()
                + " has no end on this instance (local: " + String.join(", ", nodes.all().keySet())
                + "): impair it through the admin service of " + from + " or " + to);
    }

    private static void requireNeighbour(OverlayNode node, String peer) {
        if (node.neighbours().stream().noneMatch(n -> n.name().equals(peer))) {
            throw OverlayException.unknownLink(node.name(), peer);
        }
    }

    /** The core's builder checks each value and names the bad one. */
    static ImpairmentConfig toConfig(ImpairmentRequest r) {
        ImpairmentConfig.Builder b = ImpairmentConfig.builder();
        check("lossRate", r.lossRate(), v -> b.bernoulliLoss(v));
        check("delayMs", r.delayMs(), v -> b.delay(duration(v)));
        check("jitterMs", r.jitterMs(), v -> b.jitter(duration(v)));
        check("rateKbps", r.rateKbps(), v -> {
            if (v < 0 || v > ImpairmentRequest.MAX_RATE_KBPS) {
                throw new IllegalArgumentException("must be 0 (unlimited) to " + ImpairmentRequest.MAX_RATE_KBPS
                        + " kbit/s, got " + v);
            }
            b.rateBitsPerSecond(v * 1000);
        });
        check("queuePackets", r.queuePackets(), v -> {
            if (v > ImpairmentRequest.MAX_QUEUE_PACKETS) {
                throw new IllegalArgumentException("must be at most " + ImpairmentRequest.MAX_QUEUE_PACKETS
                        + " packets, got " + v);
            }
            b.queueLimitPackets(v);
        });
        check("duplicateRate", r.duplicateRate(), v -> b.duplicateProbability(v));
        check("reorderRate", r.reorderRate(), v -> b.reorderProbability(v));
        check("reorderDelayMs", r.reorderDelayMs(), v -> b.reorderDelay(duration(v)));
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            // The only check across fields: named here in the request's terms rather than the core's.
            throw new IllegalArgumentException("reorderRate: " + r.reorderRate() + " needs reorderDelayMs above 0", e);
        }
    }

    /** Sets one field; a value the core rejects is reported under the request's field name. */
    private static <T> void check(String field, T value, Consumer<T> setter) {
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
        }
    }

    private static Duration duration(double millis) {
        if (!Double.isFinite(millis) || millis < 0 || millis > ImpairmentConfig.MAX_DURATION.toMillis()) {
            throw new IllegalArgumentException("must be 0 to " + ImpairmentConfig.MAX_DURATION.toMillis()
                    + " ms, got " + millis);
        }
        return Duration.ofNanos(Math.round(millis * 1e6));
    }

    private static double millis(Duration d) {
        return d.toNanos() / 1e6;
    }
}

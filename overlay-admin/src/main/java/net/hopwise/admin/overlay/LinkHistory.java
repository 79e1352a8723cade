package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples every link at a fixed interval into a bounded time series (RTT, jitter, loss, throughput)
 * for the dashboard's charts, updates the throughput rates, and reports remote links going up and
 * down, which only a change between two samples of the database reveals.
 *
 * <p>The configured number of samples is kept at full resolution; every sample is also folded into
 * {@link #BUCKET} means kept for {@link #COARSE_SPAN}, so the charts reach back an hour whatever the
 * sample interval and size, at a few hundred points per link.
 */
public final class LinkHistory implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LinkHistory.class.getName());
    /**
     * Ten seconds: an hour's chart then has 360 points, about one per pixel column of a chart, and a
     * blip of a few seconds still moves its bucket's mean.
     */
    static final Duration BUCKET = Duration.ofSeconds(10);
    /** An hour: long enough to look back over an incident after being paged for it. */
    static final Duration COARSE_SPAN = Duration.ofHours(1);

    /** One sample of a link. */
    public record Sample(
            Instant time,
            LinkState state,
            @Schema(nullable = true) Double rttMs,
            @Schema(nullable = true) Double jitterMs,
            @Schema(nullable = true) Double lossRate,
            @Schema(nullable = true) Double throughputBps) {}

    private final OverlayView view;
    private final LinkRates rates;
    private final OverlayEvents events;
    private final int capacity;
    private final Map<String, LinkSeries> series = new ConcurrentHashMap<>();
    private final Map<String, LinkState> remoteStates = new HashMap<>();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hopwise-admin-sampler");
        t.setDaemon(true);
        return t;
    });

    public LinkHistory(OverlayView view, LinkRates rates, OverlayEvents events, Duration interval, int capacity) {
        this.view = view;
        this.rates = rates;
        this.events = events;
        this.capacity = capacity;
        long nanos = interval.toNanos();
        thread.scheduleAtFixedRate(this::sampleSafely, 0, nanos, TimeUnit.NANOSECONDS);
    }

    private void sampleSafely() {
        try {
            sample();
        } catch (RuntimeException e) {
            // A node stopping under us is the only expected cause; the next tick tries again.
            LOG.log(System.Logger.Level.DEBUG, "link sample failed", e);
        }
    }

    /** Takes one sample of every link now. */
    void sample() {
        if (!view.nodes().self().isRunning()) {
            return;
        }
        rates.sample(view.nodes(), System.nanoTime());
        OverlayView.Snapshot s = view.snapshot();
        for (OverlayView.LinkKey k : s.links()) {
            LinkStatisticsView link = view.link(s, k);
            LinkStatisticsView.Summary m = link.summary();
            series.computeIfAbsent(link.id(), id -> newSeries(capacity)).add(
                    new Sample(s.time(), link.state(), m.rttMs(), m.jitterMs(), m.lossRate(), m.throughputBps()));
            if (link.source() == LinkStatisticsView.Source.ADVERTISED) {
                LinkState before = remoteStates.put(link.id(), link.state());
                boolean upNow = link.state() == LinkState.UP;
                if (before != null && (before == LinkState.UP) != upNow) {
                    events.remoteLink(upNow, k.a(), k.b());
                }
            }
        }
        java.util.Set<String> present = new java.util.HashSet<>();
        s.links().forEach(k -> present.add(k.id()));
        series.keySet().retainAll(present);
        remoteStates.keySet().retainAll(present);
    }

    /** The samples of a link, oldest first, at most the last {@code limit}. */
    public List<Sample> samples(String linkId, int limit) {
        LinkSeries d = series.get(linkId);
        return d == null ? List.of() : d.latest(limit);
    }

    /**
     * The link's history over the last {@code span} up to now, oldest first: full-resolution samples
     * where they reach, coarse means before, and at most {@code maxPoints}, each the mean of an equal
     * slice of the span where there would be more.
     */
    public List<Sample> window(String linkId, Duration span, int maxPoints) {
        LinkSeries d = series.get(linkId);
        Instant now = Instant.now();
        return d == null ? List.of() : d.window(now.minus(span), now, maxPoints);
    }

    /** How far back {@link #window} can reach. */
    public static Duration reach() {
        return COARSE_SPAN;
    }

    static LinkSeries newSeries(int capacity) {
        return new LinkSeries(capacity, BUCKET, (int) (COARSE_SPAN.toMillis() / BUCKET.toMillis()));
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}

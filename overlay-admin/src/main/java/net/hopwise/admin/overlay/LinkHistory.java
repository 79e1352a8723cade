package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
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
 */
public final class LinkHistory implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LinkHistory.class.getName());

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
    private final Map<String, Deque<Sample>> series = new ConcurrentHashMap<>();
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
            Deque<Sample> d = series.computeIfAbsent(link.id(), id -> new ArrayDeque<>());
            synchronized (d) {
                d.addLast(new Sample(s.time(), link.state(), m.rttMs(), m.jitterMs(), m.lossRate(), m.throughputBps()));
                while (d.size() > capacity) {
                    d.removeFirst();
                }
            }
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
        Deque<Sample> d = series.get(linkId);
        if (d == null) {
            return List.of();
        }
        synchronized (d) {
            List<Sample> all = List.copyOf(d);
            return all.subList(Math.max(0, all.size() - limit), all.size());
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}

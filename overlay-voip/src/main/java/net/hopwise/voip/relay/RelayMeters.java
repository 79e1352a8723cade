package net.hopwise.voip.relay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A relay's meters in its node's registry ({@code hopwise.voip.*}, tagged by node): calls, media
 * port pairs, transactions and registrations held, and every counter of {@link RelayCounters} by
 * reason. They read a copy the relay's loop refreshes at each timer run (at least once a second), so
 * a scrape never waits on the loop.
 *
 * <p>Call quality is metered as each call ends (is forgotten, after its linger), from its final
 * record: the distribution of calls' MOS and missed share, and the media packets of ended calls by
 * what became of them. A call's figures are only final then (a late packet can still turn a loss into
 * a reception), so that counters never go back.
 */
final class RelayMeters {
    /**
     * MOS bucket bounds: G.107's user-satisfaction bands (R 50, 60, 70, 80 and 90: nearly all users
     * dissatisfied, many, some, satisfied, very satisfied) mapped to MOS, so that a histogram reads as
     * the share of calls in each band.
     */
    private static final double[] MOS_BANDS = {EModel.mos(50), EModel.mos(60), EModel.mos(70), EModel.mos(80),
        EModel.mos(90)};
    /**
     * Missed-share bucket bounds, in percent: 0.5 is about what the overlay's recovery leaves of a 5%
     * lossy link (2p^2 - 3p^3 = 0.46%), 5 what plain UDP would lose there, 10 where G.711 with
     * concealment is down to MOS 3.35 at 50 ms.
     */
    private static final double[] MISSED_BOUNDS = {0.1, 0.5, 1, 2, 5, 10};

    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private volatile RelayState state = new RelayState(0, 0, 0, 0, 0);
    private volatile Map<String, Long> counters = Map.of();
    private final DistributionSummary relayMos;
    private final DistributionSummary phonesMos;
    private final DistributionSummary missed;
    private final MediaPackets toPhone;
    private final MediaPackets fromPhone;

    RelayMeters(MeterRegistry registry, String node, Iterable<String> counterNames) {
        this.registry = registry;
        meters.add(Gauge.builder("hopwise.voip.calls", this, m -> m.state.calls())
                .description("Calls the relay holds, ended ones still lingering included").tag("node", node)
                .register(registry));
        meters.add(Gauge.builder("hopwise.voip.media.port.pairs", this, m -> m.state.mediaPortPairs())
                .description("RTP/RTCP port pairs taken from the pool").tag("node", node).register(registry));
        meters.add(Gauge.builder("hopwise.voip.transactions", this,
                        m -> m.state.serverTransactions() + m.state.clientTransactions())
                .description("SIP transactions the relay holds").tag("node", node).register(registry));
        meters.add(Gauge.builder("hopwise.voip.registrations", this, m -> m.state.registrations())
                .description("Addresses of record with a live binding").tag("node", node).register(registry));
        for (String name : counterNames) {
            meters.add(FunctionCounter.builder("hopwise.voip.events", this, m -> m.counters.getOrDefault(name, 0L))
                    .description("What the relay handled, refused, dropped or retried, by kind").tag("node", node)
                    .tag("kind", name).register(registry));
        }
        relayMos = mos(node, "relay");
        phonesMos = mos(node, "phones");
        missed = DistributionSummary.builder("hopwise.voip.call.missed").baseUnit("percent")
                .description("Share of each ended call's media towards the phone lost or late (its worst stream):"
                        + " the residual loss the phone had to conceal")
                .serviceLevelObjectives(MISSED_BOUNDS).tag("node", node).register(registry);
        meters.add(missed);
        toPhone = new MediaPackets(node, "toPhone");
        fromPhone = new MediaPackets(node, "fromPhone");
    }

    /** One name for both estimates, so that one query compares them; Prometheus keeps one description per name. */
    private DistributionSummary mos(String node, String source) {
        DistributionSummary s = DistributionSummary.builder("hopwise.voip.call.mos")
                .description("E-model MOS of each ended call (its worst stream), by source: the relay's own counts"
                        + " (every call that carried media) or the phones' RTCP reports (calls whose phones sent one)")
                .serviceLevelObjectives(MOS_BANDS).tag("node", node).tag("source", source).register(registry);
        meters.add(s);
        return s;
    }

    /** On the relay's loop. */
    void refresh(RelayState state, Map<String, Long> counters) {
        this.state = state;
        this.counters = counters;
    }

    /** A call's final record, on the relay's loop; {@code accessDelayMs} as in its MOS. */
    void callEnded(CallStatistics call, double accessDelayMs) {
        double worstMissed = -1;
        for (StreamStatistics s : call.streams()) {
            toPhone.add(s.toPhone());
            fromPhone.add(s.fromPhone());
            if (s.toPhone().expected() > 0) {
                worstMissed = Math.max(worstMissed, s.toPhone().missedPercent());
            }
        }
        if (worstMissed >= 0) {
            relayMos.record(call.mos(accessDelayMs));
            missed.record(worstMissed);
        }
        double phones = call.phoneMos(accessDelayMs);
        if (phones > 0) {
            phonesMos.record(phones);
        }
    }

    void remove() {
        meters.forEach(registry::remove);
        meters.clear();
    }

    /** One direction's packets of ended calls, by what became of them. */
    private final class MediaPackets {
        private final Counter received;
        private final Counter lost;
        private final Counter late;
        private final Counter duplicates;
        /** Only towards the phone: the phone's own leg has nothing that recovers. */
        private final Counter recovered;

        MediaPackets(String node, String direction) {
            received = counter(node, direction, "received");
            lost = counter(node, direction, "lost");
            late = counter(node, direction, "late");
            duplicates = counter(node, direction, "duplicates");
            recovered = direction.equals("toPhone") ? counter(node, direction, "recovered") : null;
        }

        private Counter counter(String node, String direction, String kind) {
            Counter c = Counter.builder("hopwise.voip.media.packets")
                    .description("Media packets of ended calls by direction and by what became of them: received"
                            + " (distinct), lost (never came: towards the phone, what the overlay did not recover),"
                            + " late (past the deadline, dropped towards the phone), duplicates, and towards the phone"
                            + " recovered (of those received, the ones an overlay link lost and sent again)")
                    .tag("node", node)
                    .tag("direction", direction).tag("kind", kind).register(registry);
            meters.add(c);
            return c;
        }

        void add(StreamStatistics.Direction d) {
            received.increment(d.received());
            lost.increment(d.lost());
            late.increment(d.late());
            duplicates.increment(d.duplicates());
            if (recovered != null) {
                recovered.increment(d.recovered());
            }
        }
    }
}

package net.hopwise.voip.relay;

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
 */
final class RelayMeters {
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private volatile RelayState state = new RelayState(0, 0, 0, 0, 0);
    private volatile Map<String, Long> counters = Map.of();

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
    }

    /** On the relay's loop. */
    void refresh(RelayState state, Map<String, Long> counters) {
        this.state = state;
        this.counters = counters;
    }

    void remove() {
        meters.forEach(registry::remove);
        meters.clear();
    }
}

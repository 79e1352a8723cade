package net.hopwise.overlay.routing;

import static net.hopwise.overlay.routing.VirtualNetwork.MS;
import static net.hopwise.overlay.routing.VirtualNetwork.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/** Nothing a neighbour sends can stop a node from originating, or keep its live advertisement from the others. */
class OwnOriginationProperties {
    static final long CLOCK = 1_700_000_000_000L;
    static final LinkCost FIVE_MS = new LinkCost(5_000, 0);

    /**
     * A ring of real routers; a hostile neighbour of n0 sends it advertisements of n0's own origin,
     * of the other real nodes, of itself and of made-up origins, with any sequence (0 to
     * {@link Long#MAX_VALUE}, often at the window's edges or just above what n0 holds), any age and any
     * links, at random moments while the network runs. Afterwards n0's next origination succeeds, its
     * database holds its own live advertisement (its up neighbours, a sequence above the one before),
     * and within one refresh interval every real node holds that advertisement, and every real
     * origin's live one.
     */
    @Property(tries = 300)
    void noInputFromANeighbourStopsANodeFromOriginating(
            @ForAll long seed,
            @ForAll @IntRange(min = 2, max = 5) int nodes,
            @ForAll @IntRange(min = 1, max = 300) int advertisements,
            @ForAll @IntRange(min = 0, max = 400) int maxGapMillis) {
        RoutingConfig config = RoutingConfig.defaults();
        VirtualNetwork net = new VirtualNetwork(config, seed);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            names.add("n" + i);
            net.add("n" + i, CLOCK);
        }
        for (int i = 0; i + 1 < nodes; i++) {
            net.connect(names.get(i), names.get(i + 1), FIVE_MS, FIVE_MS);
        }
        if (nodes > 2) {
            net.connect(names.get(nodes - 1), names.get(0), FIVE_MS, FIVE_MS);
        }
        net.runFor(SECOND);
        Router target = net.router("n0");
        HostileNeighbour h = new HostileNeighbour(NodeId.ofName("h"), names.stream().map(net::id).toList(), config, CLOCK, seed);
        h.focus = target.self();
        net.attachStranger("n0", h.id, FIVE_MS);
        long initial = target.database().get(target.self()).orElseThrow().sequence();
        int sent = 0;
        while (sent < advertisements) {
            LinkStateUpdate u = h.update(target.database(), net.now(), Math.min(5, advertisements - sent));
            net.inject(h.id, "n0", u);
            sent += u.advertisements().size();
            net.runFor(h.random().nextInt(maxGapMillis + 1) * MS);
        }

        long before = target.database().get(target.self()).orElseThrow().sequence();
        Statistics.label("a forged copy of n0 was beaten").collect(before > initial + 1_000);
        Statistics.label("a copy beyond the window was refused").collect(target.sequencesBeyondWindow() > 0);
        Statistics.label("a forged copy of n0 was beaten").coverage(c -> c.check(true).percentage(p -> p >= 30));
        Statistics.label("a copy beyond the window was refused").coverage(c -> c.check(true).percentage(p -> p >= 30));
        net.detachStranger("n0", h.id);
        LinkStateAdvertisement live = target.database().get(target.self()).orElseThrow();
        assertThat(live.sequence()).as("originated").isGreaterThan(before);
        assertThat(live.links()).extracting(LinkStateAdvertisement.Link::neighbour)
                .containsExactlyInAnyOrderElementsOf(target.neighbours());
        assertThat(live.originName()).isEqualTo("n0");

        long stopped = net.now();
        boolean converged = false;
        while (!converged && net.now() < stopped + config.refreshInterval().toNanos()) {
            net.runFor(50 * MS);
            converged = HostileFloodingTest.restored(net)
                    && net.hosts().stream().allMatch(x -> x.router.database().get(live.origin()).orElseThrow().equals(live));
        }
        assertThat(converged).as("every node holds every live advertisement, n0's included, within one refresh interval: "
                + HostileFloodingTest.mismatch(net)).isTrue();
    }
}

package net.hopwise.overlay.routing;

import static net.hopwise.overlay.routing.VirtualNetwork.MS;
import static net.hopwise.overlay.routing.VirtualNetwork.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

/** Flooding brings every node to the same database, and the same routes as brute force, whatever the network does. */
class FloodingConvergenceProperties {

    private record Event(long atNanos, Runnable action) {}

    /**
     * Links of a random connected topology come up at random moments, costs change, and one link
     * flaps, all while packets are lost, duplicated and reordered. After the network turns clean
     * and settles, every node holds exactly the advertisements every origin currently has, nothing is
     * left unacknowledged, and every node's routes are brute force's within the route-change margin (its
     * history of partial databases may keep earlier next hops; HOPS exactly).
     */
    @Property(tries = 60)
    void floodingConvergesUnderLossDuplicationAndReordering(
            @ForAll @IntRange(min = 2, max = 25) int nodes,
            @ForAll long seed,
            @ForAll @DoubleRange(min = 0, max = 0.3) double loss,
            @ForAll @DoubleRange(min = 0, max = 0.2) double duplication,
            @ForAll @LongRange(min = 0, max = 50) long jitterMillis) {
        Random random = new Random(seed);
        RandomTopology topology = RandomTopology.generate(nodes, random, false);
        RoutingConfig config = RoutingConfig.defaults();
        VirtualNetwork net = new VirtualNetwork(config, seed);
        net.lossRate = loss;
        net.duplicateRate = duplication;
        net.jitterNanos = jitterMillis * MS;
        for (int i = 0; i < nodes; i++) {
            net.add(topology.names().get(i), 1_000L * (i + 1));
        }

        List<Event> events = new ArrayList<>();
        for (RandomTopology.Edge e : topology.edges()) {
            events.add(new Event(random.nextInt(300) * MS, () -> net.linkUp(e.a(), e.b(), e.ab())));
            events.add(new Event(random.nextInt(300) * MS, () -> net.linkUp(e.b(), e.a(), e.ba())));
            for (int k = random.nextInt(3); k > 0; k--) {
                LinkCost changed = random.nextBoolean() ? RandomTopology.cost(random) : nudge(e.ab(), random);
                events.add(new Event((500 + random.nextInt(15_000)) * MS,
                        () -> net.router(e.a()).neighbourCostChanged(net.id(e.b()), changed, net.now())));
            }
        }
        RandomTopology.Edge flapping = topology.edges().get(random.nextInt(topology.edges().size()));
        long downAt = (1_000 + random.nextInt(10_000)) * MS;
        events.add(new Event(downAt, () -> net.disconnect(flapping.a(), flapping.b())));
        events.add(new Event(downAt + random.nextInt(3_000) * MS,
                () -> net.connect(flapping.a(), flapping.b(), flapping.ab(), flapping.ba())));
        events.sort(Comparator.comparingLong(Event::atNanos));
        for (Event e : events) {
            net.runUntil(e.atNanos());
            e.action().run();
        }
        net.runUntil(20 * SECOND);
        net.lossRate = 0;
        net.duplicateRate = 0;
        net.runFor(10 * SECOND);

        List<LinkStateAdvertisement> truth = net.ownAdvertisements();
        truth.sort(Comparator.comparing(LinkStateAdvertisement::origin));
        for (VirtualNetwork.Host h : net.hosts()) {
            assertThat(new ArrayList<>(h.router.database().advertisements())).as("database of " + h.name).isEqualTo(truth);
            assertThat(h.router.unacknowledged()).as("unacknowledged at " + h.name).isZero();
        }
        assertThat(net.quiet()).isTrue();
        long retransmissions = net.hosts().stream().mapToLong(h -> h.router.retransmissions()).sum();
        Statistics.label("retransmitted").collect(retransmissions > 0);
        Statistics.label("retransmitted").coverage(c -> c.check(true).percentage(p -> p >= 50));
        new BruteForceRoutes(truth, config).verifyWithinMargin(id -> net.hosts().stream()
                .filter(h -> h.id.equals(id)).findFirst().map(h -> h.router).orElse(null));
    }

    private static LinkCost nudge(LinkCost c, Random random) {
        int latency = Math.max(0, c.latencyMicros() + random.nextInt(2_001) - 1_000);
        int lossPpm = Math.min(LinkCost.MAX_LOSS_PPM, Math.max(0, c.lossPpm() + random.nextInt(8_001) - 4_000));
        return new LinkCost(latency, lossPpm);
    }
}

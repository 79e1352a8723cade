package net.hopwise.overlay.routing;

import static net.hopwise.overlay.routing.VirtualNetwork.MS;
import static net.hopwise.overlay.routing.VirtualNetwork.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.Test;

/** A fuzzing neighbour on the virtual network: how much of routing it can poison, and for how long. */
class HostileFloodingTest {
    static final long CLOCK = 1_700_000_000_000L;
    static final LinkCost FIVE_MS = new LinkCost(5_000, 0);

    RoutingConfig config = RoutingConfig.defaults();
    VirtualNetwork net = new VirtualNetwork(config, 7);
    final List<String> names = List.of("a", "b", "c", "d", "e");

    /** A ring a-b-c-d-e-a with clocks that agree; the stranger h hangs off b. */
    HostileNeighbour ring(long seed) {
        for (String n : names) {
            net.add(n, CLOCK);
        }
        for (int i = 0; i < names.size(); i++) {
            net.connect(names.get(i), names.get((i + 1) % names.size()), FIVE_MS, FIVE_MS);
        }
        net.runFor(SECOND);
        NodeId h = NodeId.ofName("h");
        net.attachStranger("b", h, FIVE_MS);
        return new HostileNeighbour(h, names.stream().map(net::id).toList(), config, CLOCK, seed);
    }

    /** Every real node holds every real origin's live advertisement, and routes among them are brute force's. */
    void assertRealTopologyRestored() {
        List<LinkStateAdvertisement> truth = new ArrayList<>(net.ownAdvertisements());
        truth.sort(Comparator.comparing(LinkStateAdvertisement::origin));
        for (VirtualNetwork.Host host : net.hosts()) {
            for (LinkStateAdvertisement live : truth) {
                assertThat(host.router.database().get(live.origin())).as(host.name + " holds " + live.origin()).contains(live);
            }
        }
        new BruteForceRoutes(truth, config).verifyWithinMargin(id -> net.hosts().stream()
                .filter(x -> x.id.equals(id)).findFirst().map(x -> x.router).orElse(null));
    }

    @Test
    void aHundredThousandHostileAdvertisementsInThirtySecondsPoisonRoutingForLessThanARefreshInterval() {
        HostileNeighbour h = ring(11);
        Router b = net.router("b");
        long start = net.now();
        long end = start + 30 * SECOND;
        int sent = 0;
        while (sent < 100_000) {
            LinkStateUpdate u = h.update(b.database(), net.now(), 9);
            net.inject(h.id, "b", u);
            sent += u.advertisements().size();
            net.runUntil(start + (end - start) * sent / 100_000);
        }
        for (VirtualNetwork.Host host : net.hosts()) {
            long own = host.router.database().get(host.id).orElseThrow().sequence();
            assertThat(own).as(host.name + "'s sequence stays within a day of the clock plus what it originated")
                    .isLessThan(CLOCK + net.now() / MS + 2 * config.maxSequenceLead().toMillis());
        }
        int madeUp = b.database().size() - names.size() - 1;
        assertThat(b.limitedAdvertisements()).isPositive();
        assertThat(net.host("b").rejected).containsKeys(DropReason.LINK_STATE_LIMIT, DropReason.STALE);

        // The hostile input stops. Within one refresh interval the real topology is back everywhere.
        long restoredBy = -1;
        for (long t = 0; t <= config.refreshInterval().toNanos(); t += 100 * MS) {
            net.runUntil(end + t);
            if (restored()) {
                restoredBy = t;
                break;
            }
        }
        assertThat(restoredBy).as("restored within one refresh interval").isNotNegative();
        // Routes follow the database within one computation interval.
        net.runFor(config.minRecomputeInterval().toNanos());
        System.out.printf("real topology restored %d ms after the hostile input stopped; b holds %d made-up origins,"
                        + " refused %d advertisements (%d over a limit, %d beyond the window)%n",
                restoredBy / MS, madeUp, b.rejectedAdvertisements(), b.limitedAdvertisements(), b.sequencesBeyondWindow());
        assertRealTopologyRestored();
    }

    private boolean restored() {
        return restored(net);
    }

    /** Whether every router holds every router's own current advertisement. */
    static boolean restored(VirtualNetwork net) {
        return mismatch(net) == null;
    }

    /** Where some router does not hold some router's own current advertisement; null if none does. */
    static String mismatch(VirtualNetwork net) {
        StringBuilder all = new StringBuilder();
        for (VirtualNetwork.Host host : net.hosts()) {
            all.append(host.name).append(' ').append(host.rejected).append(" unacked=").append(host.router.unacknowledged())
                    .append(" retx=").append(host.router.retransmissions()).append("; ");
        }
        for (VirtualNetwork.Host host : net.hosts()) {
            for (LinkStateAdvertisement live : net.ownAdvertisements()) {
                LinkStateAdvertisement held = host.router.database().get(live.origin()).orElse(null);
                if (!live.equals(held)) {
                    return all + "at " + net.now() / MS + " ms " + host.name + " holds " + held + " instead of " + live;
                }
            }
        }
        return null;
    }

    @Test
    void madeUpOriginsFillingTheDatabaseDoNotKeepOutANodeThatJoinsDuringTheAttack() {
        config = RoutingConfig.builder().maxOrigins(40).build();
        net = new VirtualNetwork(config, 9);
        HostileNeighbour h = ring(5);
        long start = net.now();
        for (int i = 0; i < 2_000; i++) {
            net.inject(h.id, "b", h.update(net.router("b").database(), net.now(), 9));
            net.runUntil(start + i * 5 * MS);
            if (i == 1_000) {
                net.add("f", CLOCK + net.now() / MS);
                net.connect("f", "d", FIVE_MS, FIVE_MS);
            }
        }
        assertThat(net.router("b").database().size()).as("full of made-up origins").isEqualTo(config.maxOrigins());
        assertThat(net.router("b").evictedOrigins()).isPositive();
        long end = net.now();
        while (!restored() && net.now() < end + config.refreshInterval().toNanos()) {
            net.runFor(100 * MS);
        }
        assertThat(restored()).as("f and every other real origin known everywhere within one refresh interval").isTrue();
        net.runFor(config.minRecomputeInterval().toNanos());
        assertRealTopologyRestored();
        assertThat(net.router("b").nextHop(net.id("f"), RoutingMetric.HOPS)).isNotNull();
    }

    @Test
    void aForgedNewerCopyOfARealNodeIsBeatenAtOnceEvenWhenItsOriginIsTheReceiversNeighbour() {
        HostileNeighbour h = ring(3);
        NodeId c = net.id("c");
        LinkStateAdvertisement real = net.router("c").database().get(c).orElseThrow();
        LinkStateAdvertisement forged = new LinkStateAdvertisement(c, "c", real.sequence() + 1_000, 0, List.of());
        net.inject(h.id, "b", new LinkStateUpdate(List.of(forged)));
        net.runFor(100 * MS);
        assertThat(net.router("c").database().get(c).orElseThrow().sequence()).isGreaterThan(forged.sequence());
        assertThat(restored()).isTrue();
        assertRealTopologyRestored();
        assertThat(net.router("a").nextHop(c, RoutingMetric.HOPS)).isEqualTo(net.id("b"));
    }
}

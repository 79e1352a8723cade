package net.hopwise.overlay.routing;

import static net.hopwise.overlay.routing.VirtualNetwork.MS;
import static net.hopwise.overlay.routing.VirtualNetwork.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.hopwise.overlay.NodeId;
import org.junit.jupiter.api.Test;

/** Several routers on the virtual network: the flooding protocol end to end. */
class FloodingTest {
    static final LinkCost FIVE_MS = new LinkCost(5_000, 0);

    final RoutingConfig config = RoutingConfig.defaults();
    final VirtualNetwork net = new VirtualNetwork(config, 42);

    /** a - b - c, 1 ms per hop on the wire, 5 ms advertised per link direction. */
    void line() {
        net.add("a", 1_000);
        net.add("b", 2_000);
        net.add("c", 3_000);
        net.connect("a", "b", FIVE_MS, FIVE_MS);
        net.connect("b", "c", FIVE_MS, FIVE_MS);
    }

    void assertSameDatabases() {
        List<LinkStateAdvertisement> truth = new ArrayList<>(net.ownAdvertisements());
        truth.sort((x, y) -> x.origin().compareTo(y.origin()));
        for (VirtualNetwork.Host h : net.hosts()) {
            if (h.router != null) {
                assertThat(new ArrayList<>(h.router.database().advertisements())).as(h.name).isEqualTo(truth);
            }
        }
    }

    @Test
    void aLineConvergesAndRoutesThroughTheMiddle() {
        line();
        net.runFor(SECOND);
        assertSameDatabases();
        Router a = net.router("a");
        assertThat(a.path(net.id("c"), RoutingMetric.LATENCY)).containsExactly(net.id("a"), net.id("b"), net.id("c"));
        assertThat(a.pathCost(net.id("c"), RoutingMetric.LATENCY)).isCloseTo(10.0, within(1e-12));
        assertThat(a.nextHop(net.id("c"), RoutingMetric.HOPS)).isEqualTo(net.id("b"));
        assertThat(net.router("c").nextHop(net.id("a"), RoutingMetric.EXPECTED_LATENCY)).isEqualTo(net.id("b"));
        assertThat(net.host("a").routeChanges).isPositive();
        for (VirtualNetwork.Host h : net.hosts()) {
            assertThat(h.router.unacknowledged()).isZero();
            assertThat(h.router.retransmissions()).isZero();
        }
        assertThat(net.quiet()).isTrue();
    }

    @Test
    void aLostUpdateIsRetransmittedAfterTheInterval() {
        net.add("a", 1_000);
        net.add("b", 2_000);
        AtomicInteger dropped = new AtomicInteger();
        NodeId a = net.id("a");
        net.drop = p -> p.isUpdate() && p.from().equals(a) && dropped.getAndIncrement() == 0;
        net.connect("a", "b", FIVE_MS, FIVE_MS);
        net.runFor(100 * MS);
        assertThat(net.router("b").database().get(a)).as("a's advertisement was lost").isEmpty();
        net.runFor(SECOND);
        assertThat(net.router("b").database().get(a)).isPresent();
        assertThat(net.router("a").retransmissions()).isEqualTo(1);
        List<Long> sentToB = net.log.stream().filter(p -> p.isUpdate() && p.from().equals(a)).map(VirtualNetwork.Packet::sentAtNanos).toList();
        assertThat(sentToB).containsExactly(0L, config.floodRetransmitInterval().toNanos());
        assertThat(net.router("a").unacknowledged()).isZero();
        assertSameDatabases();
    }

    @Test
    void aLostAckCausesAResendThatIsAckedAgainWithoutChangingAnything() {
        line();
        NodeId b = net.id("b");
        NodeId c = net.id("c");
        AtomicInteger dropped = new AtomicInteger();
        net.drop = p -> !p.isUpdate() && p.from().equals(c) && dropped.getAndIncrement() < 2;
        net.runFor(SECOND);
        assertSameDatabases();
        long recomputations = net.router("c").recomputations();
        long resent = net.log.stream().filter(p -> p.isUpdate() && p.from().equals(b) && p.to().equals(c) && p.sentAtNanos() > 0).count();
        assertThat(resent).as("b resends what c's lost acks covered").isPositive();
        assertThat(net.router("b").unacknowledged()).isZero();
        net.runFor(SECOND);
        assertThat(net.router("c").recomputations()).isEqualTo(recomputations);
    }

    @Test
    void aNodeThatLeftIsUnreachableAtOnceAndForgottenAfterMaxAge() {
        line();
        net.runFor(SECOND);
        NodeId c = net.id("c");
        long cLastOriginated = 0;
        net.crash("c");
        net.runFor(100 * MS);
        Router a = net.router("a");
        assertThat(a.nextHop(c, RoutingMetric.HOPS)).isNull();
        assertThat(a.path(c, RoutingMetric.LATENCY)).isEmpty();
        assertThat(a.database().get(c)).as("still held until it ages out").isPresent();

        long maxAge = config.maxAge().toNanos();
        net.runUntil(cLastOriginated + maxAge - SECOND);
        assertThat(a.database().get(c)).isPresent();
        assertThat(net.router("b").database().get(c)).isPresent();
        net.runUntil(cLastOriginated + maxAge + 10 * MS);
        assertThat(a.database().get(c)).isEmpty();
        assertThat(net.router("b").database().get(c)).isEmpty();
        assertThat(a.database().idOf("c")).isEmpty();
        // The nodes that stayed refreshed themselves and are still known.
        assertThat(a.database().get(net.id("b"))).isPresent();
        assertThat(a.nextHop(net.id("b"), RoutingMetric.HOPS)).isEqualTo(net.id("b"));
    }

    @Test
    void aNodeThatJoinsLaterLearnsTheWholeDatabase() {
        line();
        net.runFor(SECOND);
        net.add("d", 4_000);
        net.connect("d", "c", FIVE_MS, FIVE_MS);
        net.runFor(SECOND);
        assertSameDatabases();
        assertThat(net.router("d").path(net.id("a"), RoutingMetric.HOPS)).hasSize(4);
        assertThat(net.router("a").path(net.id("d"), RoutingMetric.HOPS)).hasSize(4);
    }

    @Test
    void aRestartedOriginWithAFreshSequenceBaseWins() {
        line();
        net.runFor(SECOND);
        NodeId c = net.id("c");
        long oldSequence = net.router("a").database().get(c).orElseThrow().sequence();
        net.crash("c");
        net.runFor(5 * SECOND);
        net.restart("c", 10_000);
        LinkCost slower = new LinkCost(7_000, 0);
        net.connect("b", "c", FIVE_MS, slower);
        net.runFor(SECOND);
        assertSameDatabases();
        LinkStateAdvertisement seen = net.router("a").database().get(c).orElseThrow();
        assertThat(seen.sequence()).isGreaterThan(oldSequence).isGreaterThanOrEqualTo(10_000);
        assertThat(seen.costTo(net.id("b"))).isEqualTo(slower);
        assertThat(net.router("a").pathCost(c, RoutingMetric.LATENCY)).isCloseTo(10.0, within(1e-12));
        assertThat(net.router("c").pathCost(net.id("a"), RoutingMetric.LATENCY)).isCloseTo(12.0, within(1e-12));
    }

    @Test
    void aRestartedOriginWinsEvenIfItsSequenceBaseIsBehind() {
        line();
        net.runFor(SECOND);
        NodeId c = net.id("c");
        long oldSequence = net.router("a").database().get(c).orElseThrow().sequence();
        net.crash("c");
        net.runFor(5 * SECOND);
        net.restart("c", 1);
        LinkCost slower = new LinkCost(7_000, 0);
        net.connect("b", "c", FIVE_MS, slower);
        net.runFor(SECOND);
        assertSameDatabases();
        LinkStateAdvertisement seen = net.router("a").database().get(c).orElseThrow();
        assertThat(seen.sequence()).as("jumped past its previous life").isGreaterThan(oldSequence);
        assertThat(seen.costTo(net.id("b"))).isEqualTo(slower);
    }

    @Test
    void aLinkThatFailsIsRoutedAround() {
        line();
        net.add("d", 4_000);
        net.connect("a", "d", new LinkCost(20_000, 0), new LinkCost(20_000, 0));
        net.connect("d", "c", new LinkCost(20_000, 0), new LinkCost(20_000, 0));
        net.runFor(SECOND);
        NodeId c = net.id("c");
        assertThat(net.router("a").nextHop(c, RoutingMetric.LATENCY)).isEqualTo(net.id("b"));
        int changes = net.host("a").routeChanges;
        net.disconnect("b", "c");
        net.runFor(100 * MS);
        assertThat(net.router("a").nextHop(c, RoutingMetric.LATENCY)).isEqualTo(net.id("d"));
        assertThat(net.router("a").pathCost(c, RoutingMetric.LATENCY)).isCloseTo(40.0, within(1e-12));
        assertThat(net.host("a").routeChanges).isGreaterThan(changes);
        assertSameDatabases();
    }
}

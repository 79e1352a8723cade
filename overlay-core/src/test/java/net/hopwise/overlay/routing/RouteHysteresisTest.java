package net.hopwise.overlay.routing;

import static net.hopwise.overlay.routing.RouterTest.A;
import static net.hopwise.overlay.routing.RouterTest.B;
import static net.hopwise.overlay.routing.RouterTest.C;
import static net.hopwise.overlay.routing.RouterTest.D;
import static net.hopwise.overlay.routing.VirtualNetwork.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import org.junit.jupiter.api.Test;

/**
 * The route-change margin on one router: A reaches D through B (10 ms, then B-D) or through C (5 ms,
 * then 40 ms to D), two paths about 1 ms apart like amsterdam's two paths to denver in the demo.
 */
class RouteHysteresisTest {
    final RoutingConfig config = RoutingConfig.defaults();
    final CapturingOutput out = new CapturingOutput();
    final Router a = new Router(A, "a", config, out, 100, 0);
    long sequence = 1;

    static LinkCost ms(double millis) {
        return ms(millis, 0);
    }

    static LinkCost ms(double millis, int lossPpm) {
        return new LinkCost((int) Math.round(millis * 1000), lossPpm);
    }

    /** An advertisement of {@code origin} listing neighbour, cost, neighbour, cost... */
    LinkStateAdvertisement ad(NodeId origin, Object... links) {
        List<LinkStateAdvertisement.Link> list = new ArrayList<>();
        for (int i = 0; i < links.length; i += 2) {
            list.add(new LinkStateAdvertisement.Link((NodeId) links[i], (LinkCost) links[i + 1]));
        }
        return new LinkStateAdvertisement(origin, RouterTest.name(origin), sequence, 0, list);
    }

    /** B and D advertise the B-D link with this cost (and all else as before), at {@code atSeconds}. */
    void linkBD(LinkCost bd, double bToA, int atSeconds) {
        sequence++;
        a.onUpdate(B, new LinkStateUpdate(List.of(
                ad(B, A, ms(bToA), D, bd),
                ad(C, A, ms(5), D, ms(40)),
                ad(D, B, bd, C, ms(40)))), atSeconds * SECOND);
    }

    /** A is up to B (10 ms) and C (5 ms); B-D costs 34 ms, so B's path (44 ms) beats C's (45 ms). */
    void start(double ab, double bd) {
        a.neighbourUp(B, ms(ab), 0);
        a.neighbourUp(C, ms(5), 0);
        linkBD(ms(bd), ab, 1);
        assertThat(a.nextHop(D, RoutingMetric.LATENCY)).isEqualTo(B);
        assertThat(a.nextHop(D, RoutingMetric.EXPECTED_LATENCY)).isEqualTo(B);
    }

    @Test
    void noiseWithinTheMarginKeepsTheRouteAndAChangeBeyondItReroutesInTheSameComputation() {
        start(10, 34);
        int changes = out.routeChanges;
        // B's path drifts to 46 ms, 1 ms worse than C's: within max(1.5 ms, 5% of 45 ms).
        linkBD(ms(36), 10, 2);
        for (RoutingMetric metric : List.of(RoutingMetric.LATENCY, RoutingMetric.EXPECTED_LATENCY)) {
            assertThat(a.nextHop(D, metric)).as(metric + " keeps B").isEqualTo(B);
            assertThat(a.path(D, metric)).as(metric.name()).containsExactly(A, B, D);
            assertThat(a.pathCost(D, metric)).as(metric + ": the cost of the path taken").isCloseTo(46.0, within(1e-6));
        }
        assertThat(out.routeChanges).as("the cost changed, the route did not").isEqualTo(changes);

        // B-D gets 10 ms slower: 56 ms against 45 ms is beyond the margin, so the route moves at once.
        linkBD(ms(46), 10, 3);
        for (RoutingMetric metric : List.of(RoutingMetric.LATENCY, RoutingMetric.EXPECTED_LATENCY)) {
            assertThat(a.nextHop(D, metric)).as(metric + " moves to C").isEqualTo(C);
            assertThat(a.path(D, metric)).as(metric.name()).containsExactly(A, C, D);
            assertThat(a.pathCost(D, metric)).as(metric.name()).isCloseTo(45.0, within(1e-6));
        }
        assertThat(out.routeChanges).isEqualTo(changes + 1);
    }

    @Test
    void aLinkThatStartsLosingMovesTheExpectedLatencyRouteAtOnce() {
        start(10, 34);
        linkBD(ms(36), 10, 2);
        assertThat(a.nextHop(D, RoutingMetric.EXPECTED_LATENCY)).isEqualTo(B);
        // 10% loss on B-D costs about 7 ms of expected latency on that link: beyond the margin.
        linkBD(ms(36, 100_000), 10, 3);
        assertThat(a.nextHop(D, RoutingMetric.EXPECTED_LATENCY)).isEqualTo(C);
        assertThat(a.nextHop(D, RoutingMetric.LOSS)).isEqualTo(C);
        assertThat(a.nextHop(D, RoutingMetric.LATENCY)).as("latency did not change: still kept").isEqualTo(B);
    }

    @Test
    void aFailedLinkIsLeftAtOnceEvenWhileItsRouteIsKept() {
        start(10, 34);
        linkBD(ms(36), 10, 2);
        assertThat(a.nextHop(D, RoutingMetric.LATENCY)).isEqualTo(B);
        int changes = out.routeChanges;
        a.neighbourDown(B, 3 * SECOND);
        for (RoutingMetric metric : RoutingMetric.values()) {
            assertThat(a.nextHop(D, metric)).as(metric.name()).isEqualTo(C);
            assertThat(a.path(D, metric)).as(metric.name()).containsExactly(A, C, D);
        }
        assertThat(a.path(B, RoutingMetric.LATENCY)).as("B itself is now reached through D").containsExactly(A, C, D, B);
        assertThat(out.routeChanges).isEqualTo(changes + 1);
    }

    /**
     * B stays within the margin but its own best path to D now runs back through A: keeping B would
     * loop (A sends to B, B sends to A). B is no longer strictly closer to D than A, so A moves.
     */
    @Test
    void aNextHopThatIsNoLongerCloserIsLeftEvenWithinTheMargin() {
        start(0.5, 44);
        // B-D 50 ms: B's best is B-A-C-D (45.5 ms), A's is 45 ms via C; via B would cost 46 ms.
        linkBD(ms(50), 0.5, 2);
        assertThat(a.nextHop(D, RoutingMetric.LATENCY)).isEqualTo(C);
        assertThat(a.pathCost(D, RoutingMetric.LATENCY)).isCloseTo(45.0, within(1e-6));
    }

    @Test
    void hopsNeverKeepsAndNoMarginTakesTheLeastCostRoute() {
        Router exact = new Router(A, "a", RoutingConfig.builder().noRouteChangeMargin().build(), out, 100, 0);
        exact.neighbourUp(B, ms(10), 0);
        exact.neighbourUp(C, ms(5), 0);
        exact.onUpdate(B, new LinkStateUpdate(List.of(ad(B, A, ms(10), D, ms(34)), ad(C, A, ms(5), D, ms(40)),
                ad(D, B, ms(34), C, ms(40)))), SECOND);
        assertThat(exact.nextHop(D, RoutingMetric.LATENCY)).isEqualTo(B);
        sequence++;
        exact.onUpdate(B, new LinkStateUpdate(List.of(ad(B, A, ms(10), D, ms(36)), ad(D, B, ms(36), C, ms(40)))),
                2 * SECOND);
        assertThat(exact.nextHop(D, RoutingMetric.LATENCY)).isEqualTo(C);

        // Under HOPS both paths are two hops: the tie-breaking picks one, and picks it again when its
        // link comes back, whatever was used meanwhile.
        start(10, 34);
        NodeId first = a.nextHop(D, RoutingMetric.HOPS);
        NodeId other = first.equals(B) ? C : B;
        a.neighbourDown(first, 2 * SECOND);
        assertThat(a.nextHop(D, RoutingMetric.HOPS)).isEqualTo(other);
        a.neighbourUp(first, first.equals(B) ? ms(10) : ms(5), 3 * SECOND);
        assertThat(a.nextHop(D, RoutingMetric.HOPS)).as("HOPS does not keep " + other).isEqualTo(first);
    }
}

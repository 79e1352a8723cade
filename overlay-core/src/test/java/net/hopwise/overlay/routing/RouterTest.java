package net.hopwise.overlay.routing;

import static net.hopwise.overlay.routing.VirtualNetwork.MS;
import static net.hopwise.overlay.routing.VirtualNetwork.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import org.junit.jupiter.api.Test;

/** One router driven by hand: flooding rules, timers, rate limits, limits. */
class RouterTest {
    static final NodeId A = NodeId.ofName("a");
    static final NodeId B = NodeId.ofName("b");
    static final NodeId C = NodeId.ofName("c");
    static final NodeId D = NodeId.ofName("d");
    static final LinkCost TEN_MS = new LinkCost(10_000, 0);

    final RoutingConfig config = RoutingConfig.defaults();
    final CapturingOutput out = new CapturingOutput();
    final Router a = new Router(A, "a", config, out, 100, 0);

    static LinkStateAdvertisement lsa(NodeId origin, long sequence, NodeId... neighbours) {
        List<LinkStateAdvertisement.Link> links = new ArrayList<>();
        for (NodeId n : neighbours) {
            links.add(new LinkStateAdvertisement.Link(n, TEN_MS));
        }
        return new LinkStateAdvertisement(origin, name(origin), sequence, 0, links);
    }

    static String name(NodeId id) {
        return id.equals(A) ? "a" : id.equals(B) ? "b" : id.equals(C) ? "c" : id.equals(D) ? "d" : "x" + id;
    }

    static LinkStateUpdate update(LinkStateAdvertisement... ads) {
        return new LinkStateUpdate(List.of(ads));
    }

    @Test
    void startsWithItsOwnAdvertisementAndNothingToDo() {
        assertThat(a.database().advertisements()).containsExactly(lsa(A, 100));
        assertThat(a.nextDeadlineNanos()).isEqualTo(config.refreshInterval().toNanos());
        assertThat(a.path(A, RoutingMetric.HOPS)).containsExactly(A);
        assertThat(a.pathCost(A, RoutingMetric.LATENCY)).isZero();
        assertThat(a.nextHop(A, RoutingMetric.HOPS)).isNull();
        assertThat(a.nextHop(B, RoutingMetric.HOPS)).isNull();
        assertThat(a.path(B, RoutingMetric.HOPS)).isEmpty();
        assertThat(a.pathCost(B, RoutingMetric.HOPS)).isInfinite();
        assertThat(out.sent).isEmpty();
        assertThatThrownBy(() -> a.neighbourUp(A, TEN_MS, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void neighbourUpAdvertisesTheLinkAndSendsTheWholeDatabase() {
        a.neighbourUp(B, TEN_MS, 0);
        a.onUpdate(B, update(lsa(B, 5, A, C), lsa(C, 9, B)), SECOND);
        out.clear();
        a.neighbourUp(C, new LinkCost(3_000, 0), 2 * SECOND);
        LinkStateAdvertisement own = a.database().get(A).orElseThrow();
        assertThat(own.sequence()).isEqualTo(102);
        assertThat(own.links()).extracting(LinkStateAdvertisement.Link::neighbour).containsExactlyInAnyOrder(B, C);
        // One packet to each neighbour: B gets our new advertisement; C gets the whole database.
        assertThat(out.updatesTo(B)).hasSize(1);
        assertThat(out.advertisementsTo(B)).containsExactly(own);
        assertThat(out.updatesTo(C)).hasSize(1);
        assertThat(out.advertisementsTo(C)).extracting(LinkStateAdvertisement::origin).containsExactlyInAnyOrder(A, B, C);
        assertThat(a.neighbours()).containsExactlyInAnyOrder(B, C);
    }

    @Test
    void receivedAdvertisementsAreAckedInstalledAndFloodedToOthers() {
        a.neighbourUp(B, TEN_MS, 0);
        a.neighbourUp(C, TEN_MS, 0);
        a.onTimer(config.floodPacingInterval().toNanos());
        assertThat(out.advertisementsTo(B)).as("B got our first version at once, the second when pacing allowed")
                .extracting(LinkStateAdvertisement::sequence).containsExactly(101L, 102L);
        out.clear();
        a.onUpdate(B, update(lsa(B, 5, A), lsa(D, 1, B)), SECOND);
        assertThat(out.acksTo(B)).containsExactly(new LinkStateAck(List.of(
                new LinkStateAck.AckEntry(B, 5), new LinkStateAck.AckEntry(D, 1))));
        assertThat(out.updatesTo(B)).isEmpty();
        // Aged by the time it took: the age field is written by the sender.
        assertThat(out.advertisementsTo(C)).extracting(LinkStateAdvertisement::origin).containsExactly(B, D);
        assertThat(a.database().get(D)).contains(lsa(D, 1, B));
        assertThat(a.database().nameOf(D)).contains("d");
        assertThat(a.database().idOf("d")).contains(D);
        assertThat(a.nextHop(B, RoutingMetric.HOPS)).isEqualTo(B);
        assertThat(a.nextHop(D, RoutingMetric.HOPS)).as("D lists B but B does not list D: not a usable link").isNull();

        out.clear();
        a.onUpdate(C, update(lsa(D, 1, B)), 2 * SECOND);
        assertThat(out.acksTo(C)).hasSize(1);
        assertThat(out.updatesTo(B)).as("a duplicate is acked but not flooded").isEmpty();
        assertThat(a.unacknowledged()).as("C showed it has D's advertisement: an implicit ack").isEqualTo(3);
    }

    @Test
    void unacknowledgedAdvertisementsAreResentUntilAcked() {
        a.neighbourUp(B, TEN_MS, 0);
        LinkStateAdvertisement own = a.database().get(A).orElseThrow();
        assertThat(out.advertisementsTo(B)).containsExactly(own);
        long retransmit = config.floodRetransmitInterval().toNanos();
        assertThat(a.nextDeadlineNanos()).isEqualTo(retransmit);
        out.clear();
        a.onTimer(retransmit - 1);
        assertThat(out.sent).isEmpty();
        a.onTimer(retransmit);
        assertThat(out.advertisementsTo(B)).containsExactly(own.withAgeMillis(300));
        assertThat(a.retransmissions()).isEqualTo(1);
        assertThat(a.nextDeadlineNanos()).isEqualTo(2 * retransmit);

        a.onAck(B, new LinkStateAck(List.of(new LinkStateAck.AckEntry(A, own.sequence() - 1))), retransmit + MS);
        assertThat(a.unacknowledged()).as("an ack of an older version does not count").isEqualTo(1);
        a.onAck(B, new LinkStateAck(List.of(new LinkStateAck.AckEntry(A, own.sequence()))), retransmit + MS);
        assertThat(a.unacknowledged()).isZero();
        assertThat(a.nextDeadlineNanos()).isEqualTo(config.refreshInterval().toNanos());
    }

    @Test
    void aNeighbourThatGoesDownIsNoLongerSentTo() {
        a.neighbourUp(B, TEN_MS, 0);
        a.neighbourUp(C, TEN_MS, 0);
        out.clear();
        a.neighbourDown(B, MS);
        assertThat(a.database().get(A).orElseThrow().links()).extracting(LinkStateAdvertisement.Link::neighbour).containsExactly(C);
        assertThat(out.updatesTo(B)).isEmpty();
        a.onTimer(SECOND);
        assertThat(out.updatesTo(B)).isEmpty();
        a.onUpdate(B, update(lsa(D, 1)), SECOND);
        assertThat(a.database().get(D)).isEmpty();
        assertThat(a.ignoredMessages()).isEqualTo(1);
    }

    @Test
    void aBurstOfVersionsIsPacedAndOnlyTheLatestLeaves() {
        a.neighbourUp(B, TEN_MS, 0);
        a.onAck(B, new LinkStateAck(List.of(new LinkStateAck.AckEntry(A, 101))), MS);
        out.clear();
        a.neighbourUp(C, TEN_MS, SECOND);
        assertThat(out.advertisementsTo(B)).as("an isolated change leaves at once").extracting(LinkStateAdvertisement::sequence)
                .containsExactly(102L);
        out.clear();
        a.neighbourUp(D, TEN_MS, SECOND + MS);
        a.neighbourDown(C, SECOND + 2 * MS);
        a.onUpdate(C, update(lsa(C, 1, A)), SECOND + 3 * MS);
        assertThat(out.updatesTo(B)).isEmpty();
        long pacing = config.floodPacingInterval().toNanos();
        assertThat(a.nextDeadlineNanos()).isEqualTo(SECOND + pacing);
        a.onTimer(SECOND + pacing);
        assertThat(out.updatesTo(B)).as("one packet").hasSize(1);
        assertThat(out.advertisementsTo(B)).as("versions 103 and 104 were superseded before they could leave")
                .extracting(LinkStateAdvertisement::sequence).containsExactly(104L);
        assertThat(out.advertisementsTo(D)).extracting(LinkStateAdvertisement::origin).contains(A);
        assertThat(a.ignoredMessages()).as("C was down by then").isEqualTo(1);
    }

    @Test
    void anOlderCopyIsAnsweredWithOurs() {
        a.neighbourUp(B, TEN_MS, 0);
        a.onUpdate(B, update(lsa(D, 5)), SECOND);
        out.clear();
        a.onUpdate(B, update(lsa(D, 3)), 2 * SECOND);
        assertThat(out.acksTo(B)).containsExactly(new LinkStateAck(List.of(new LinkStateAck.AckEntry(D, 3))));
        assertThat(out.advertisementsTo(B)).extracting(LinkStateAdvertisement::sequence).containsExactly(5L);
        assertThat(a.database().get(D).orElseThrow().sequence()).isEqualTo(5);
    }

    @Test
    void aNewerCopyOfItsOwnAdvertisementMakesItJumpAhead() {
        a.neighbourUp(B, TEN_MS, 0);
        a.onUpdate(B, update(lsa(A, 5_000, C)), SECOND);
        LinkStateAdvertisement own = a.database().get(A).orElseThrow();
        assertThat(own.sequence()).isEqualTo(5_001);
        assertThat(own.links()).extracting(LinkStateAdvertisement.Link::neighbour).containsExactly(B);
        assertThat(out.advertisementsTo(B)).contains(own);
    }

    @Test
    void severalChangesWithinTheIntervalCauseOneRecomputation() {
        a.neighbourUp(B, TEN_MS, 0);
        assertThat(a.recomputations()).isEqualTo(1);
        a.onUpdate(B, update(lsa(B, 1, A, C)), 30 * MS);
        assertThat(a.recomputations()).as("a change after a quiet interval is computed at once").isEqualTo(2);
        assertThat(a.nextHop(B, RoutingMetric.HOPS)).isEqualTo(B);

        a.onUpdate(B, update(lsa(C, 1, B, D)), 35 * MS);
        a.onUpdate(B, update(lsa(D, 1, C)), 40 * MS);
        a.onUpdate(B, update(lsa(C, 2, B, D), lsa(B, 2, A, C)), 45 * MS);
        assertThat(a.recomputations()).isEqualTo(2);
        assertThat(a.nextHop(D, RoutingMetric.HOPS)).as("not computed yet").isNull();
        assertThat(a.nextDeadlineNanos()).isEqualTo(50 * MS);
        a.onTimer(50 * MS);
        assertThat(a.recomputations()).isEqualTo(3);
        assertThat(a.path(D, RoutingMetric.HOPS)).containsExactly(A, B, C, D);
        assertThat(a.pathCost(D, RoutingMetric.LATENCY)).isCloseTo(30.0, within(1e-12));

        int changes = out.routeChanges;
        a.onUpdate(B, update(lsa(D, 2, C)), SECOND);
        assertThat(a.recomputations()).as("a refresh with the same links changes no route").isEqualTo(3);
        assertThat(out.routeChanges).isEqualTo(changes);
    }

    @Test
    void routesChangedIsReportedOnlyWhenAPathChanges() {
        a.neighbourUp(B, TEN_MS, 0);
        a.onUpdate(B, update(lsa(B, 1, A)), SECOND);
        assertThat(out.routeChanges).isEqualTo(1);
        a.onUpdate(B, update(lsa(B, 2, A).withAgeMillis(0)), 2 * SECOND);
        LinkStateAdvertisement slower = new LinkStateAdvertisement(B, "b", 3, 0,
                List.of(new LinkStateAdvertisement.Link(A, new LinkCost(50_000, 0))));
        a.onUpdate(B, update(slower), 3 * SECOND);
        assertThat(a.recomputations()).isEqualTo(3);
        assertThat(out.routeChanges).as("only the cost of B -> A changed; our paths did not").isEqualTo(1);
    }

    @Test
    void insignificantCostChangesAreNotFloodedAndSignificantOnesAreRateLimited() {
        a.neighbourUp(B, TEN_MS, 0);
        a.onAck(B, new LinkStateAck(List.of(new LinkStateAck.AckEntry(A, 101))), MS);
        out.clear();
        a.neighbourCostChanged(B, new LinkCost(10_400, 0), 5 * SECOND);      // 0.4 ms: below 500 us
        a.neighbourCostChanged(B, new LinkCost(10_900, 0), 5 * SECOND);      // 0.9 ms: below 10%
        a.neighbourCostChanged(B, new LinkCost(10_000, 4_000), 5 * SECOND);  // 0.4 points of loss
        assertThat(out.sent).isEmpty();
        assertThat(a.database().get(A).orElseThrow().costTo(B)).isEqualTo(TEN_MS);

        a.neighbourCostChanged(B, new LinkCost(11_500, 0), 5 * SECOND);
        assertThat(out.advertisementsTo(B)).extracting(x -> x.costTo(B)).containsExactly(new LinkCost(11_500, 0));
        out.clear();
        a.neighbourCostChanged(B, new LinkCost(10_000, 6_000), 5 * SECOND + 200 * MS);
        a.neighbourCostChanged(B, new LinkCost(10_000, 8_000), 5 * SECOND + 300 * MS);
        assertThat(out.updatesTo(B)).as("within minReadvertiseInterval of the last").isEmpty();
        assertThat(a.nextDeadlineNanos()).isEqualTo(5 * SECOND + 300 * MS); // the retransmission comes first
        a.onAck(B, new LinkStateAck(List.of(new LinkStateAck.AckEntry(A, 102))), 5 * SECOND + 300 * MS);
        assertThat(a.nextDeadlineNanos()).isEqualTo(6 * SECOND);
        a.onTimer(6 * SECOND);
        assertThat(out.advertisementsTo(B)).extracting(x -> x.costTo(B)).containsExactly(new LinkCost(10_000, 8_000));

        out.clear();
        a.neighbourUp(C, TEN_MS, 6 * SECOND + 100 * MS);
        assertThat(out.advertisementsTo(B)).as("a link coming up is flooded at once").hasSize(1);
        a.neighbourDown(C, 6 * SECOND + 200 * MS);
        assertThat(out.advertisementsTo(B)).as("and one going down").hasSize(2);
    }

    @Test
    void aDeferredReadvertisementIsDroppedIfTheCostWentBack() {
        a.neighbourUp(B, TEN_MS, 0);
        a.onAck(B, new LinkStateAck(List.of(new LinkStateAck.AckEntry(A, 101))), MS);
        a.neighbourCostChanged(B, new LinkCost(20_000, 0), 100 * MS);
        a.neighbourCostChanged(B, new LinkCost(10_100, 0), 200 * MS);
        long sequence = a.database().get(A).orElseThrow().sequence();
        a.onTimer(SECOND);
        assertThat(a.database().get(A).orElseThrow().sequence()).isEqualTo(sequence);
    }

    @Test
    void ownAdvertisementIsRefreshedAndOthersAgeOut() {
        a.neighbourUp(B, TEN_MS, 0);
        a.onUpdate(B, update(lsa(B, 1, A), lsa(D, 1).withAgeMillis(30_000)), SECOND);
        a.onAck(B, new LinkStateAck(List.of(new LinkStateAck.AckEntry(A, 101))), SECOND);
        assertThat(a.database().ageNanos(D, SECOND)).hasValue(30 * SECOND);
        long refresh = config.refreshInterval().toNanos();
        assertThat(a.nextDeadlineNanos()).isEqualTo(refresh);
        a.onTimer(refresh);
        assertThat(a.database().get(A).orElseThrow().sequence()).isEqualTo(102);
        // D was created 30 s before it arrived, so it expires 150 s after it arrived.
        long dExpires = SECOND + config.maxAge().toNanos() - 30 * SECOND;
        a.onTimer(dExpires - 1);
        assertThat(a.database().get(D)).isPresent();
        a.onTimer(dExpires);
        assertThat(a.database().get(D)).isEmpty();
        assertThat(a.database().get(B)).isPresent();
        assertThat(a.nextHop(B, RoutingMetric.HOPS)).isEqualTo(B);
        a.onTimer(SECOND + config.maxAge().toNanos());
        assertThat(a.database().get(B)).isEmpty();
        assertThat(a.nextHop(B, RoutingMetric.HOPS)).isNull();
        assertThat(a.database().get(A)).as("never its own").isPresent();
    }

    @Test
    void expiredOrOversizedAdvertisementsAreAckedButDropped() {
        RoutingConfig small = RoutingConfig.builder().maxUpdateBodyBytes(RoutingConfig.MIN_UPDATE_BODY_BYTES).build();
        Router r = new Router(A, "a", small, out, 1, 0);
        r.neighbourUp(B, TEN_MS, 0);
        out.clear();
        LinkStateAdvertisement big = lsa(D, 1, B, C, new NodeId(77), new NodeId(78), new NodeId(79));
        LinkStateAdvertisement expired = lsa(C, 1).withAgeMillis((int) small.maxAge().toMillis());
        r.onUpdate(B, update(big), MS);
        r.onUpdate(B, update(expired), MS);
        assertThat(r.database().get(D)).isEmpty();
        assertThat(r.database().get(C)).isEmpty();
        assertThat(r.rejectedAdvertisements()).isEqualTo(2);
        assertThat(out.acksTo(B)).hasSize(2);
    }

    @Test
    void theDatabaseIsBoundedInOrigins() {
        Router r = new Router(A, "a", RoutingConfig.builder().maxOrigins(3).build(), out, 1, 0);
        r.neighbourUp(B, TEN_MS, 0);
        // Every held origin reachable: nothing can make room (RouterHostileInputTest covers the other case).
        r.onUpdate(B, update(lsa(B, 1, A, C), lsa(C, 1, B)), MS);
        r.onTimer(config.minRecomputeInterval().toNanos());
        r.onUpdate(B, update(lsa(D, 1)), 30 * MS);
        assertThat(r.database().size()).isEqualTo(3);
        assertThat(r.database().get(D)).isEmpty();
        assertThat(r.rejectedAdvertisements()).isEqualTo(1);
        r.onUpdate(B, update(lsa(C, 2, B)), 40 * MS);
        assertThat(r.database().get(C).orElseThrow().sequence()).as("known origins still update").isEqualTo(2);
    }

    @Test
    void theWholeDatabaseGoesToANewNeighbourInFullPackets() {
        a.neighbourUp(B, TEN_MS, 0);
        List<LinkStateAdvertisement> many = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            NodeId x = new NodeId(10_000 + i);
            many.add(new LinkStateAdvertisement(x, "node-number-" + i, 1, 0, List.of(
                    new LinkStateAdvertisement.Link(new NodeId(20_000 + i), TEN_MS),
                    new LinkStateAdvertisement.Link(new NodeId(30_000 + i), TEN_MS))));
        }
        out.clear();
        for (int i = 0; i < many.size(); i += 50) {
            a.onUpdate(B, new LinkStateUpdate(many.subList(i, i + 50)), MS);
        }
        int perAckPacket = (config.maxUpdateBodyBytes() - 2) / 16;
        assertThat(out.acksTo(B)).as("each update's acks").hasSize(6 * ((50 + perAckPacket - 1) / perAckPacket));

        out.clear();
        a.neighbourUp(C, TEN_MS, 2 * MS);
        List<LinkStateUpdate> updates = out.updatesTo(C);
        int total = 0;
        for (LinkStateUpdate u : updates) {
            int size = LinkStateCodec.encodedSize(u);
            assertThat(size).isLessThanOrEqualTo(config.maxUpdateBodyBytes());
            total += size - LinkStateCodec.UPDATE_HEADER_BYTES;
        }
        assertThat(out.advertisementsTo(C)).hasSize(301);
        int largest = LinkStateCodec.encodedSize(many.get(299));
        int room = config.maxUpdateBodyBytes() - LinkStateCodec.UPDATE_HEADER_BYTES;
        assertThat(updates.size()).as("packets are filled: each but the last lacks less than one advertisement")
                .isLessThanOrEqualTo(total / (room - largest) + 1);
    }

    @Test
    void equalCostPathsPreferFewerHopsThenLowerIds() {
        // A square a-b-d, a-c-d, plus a two-hop-longer zero-latency detour a-x-y-d.
        NodeId x = new NodeId(5);
        NodeId y = new NodeId(6);
        a.neighbourUp(B, TEN_MS, 0);
        a.neighbourUp(C, TEN_MS, 0);
        a.neighbourUp(x, new LinkCost(0, 0), 0);
        a.onUpdate(B, update(lsa(B, 1, A, D), lsa(C, 1, A, D), lsa(D, 1, B, C, y),
                new LinkStateAdvertisement(x, "x", 1, 0, List.of(new LinkStateAdvertisement.Link(A, new LinkCost(0, 0)),
                        new LinkStateAdvertisement.Link(y, new LinkCost(20_000, 0)))),
                new LinkStateAdvertisement(y, "y", 1, 0, List.of(new LinkStateAdvertisement.Link(x, new LinkCost(0, 0)),
                        new LinkStateAdvertisement.Link(D, new LinkCost(0, 0))))), SECOND);
        NodeId lower = B.compareTo(C) < 0 ? B : C;
        assertThat(a.path(D, RoutingMetric.HOPS)).containsExactly(A, lower, D);
        assertThat(a.path(D, RoutingMetric.LATENCY)).as("20 ms either way; fewer hops wins").containsExactly(A, lower, D);
        assertThat(a.path(D, RoutingMetric.LOSS)).as("all lossless: fewest hops, then lowest id").containsExactly(A, lower, D);
    }

    @Test
    void nextHopLookupAllocatesNothing() {
        a.neighbourUp(B, TEN_MS, 0);
        a.onUpdate(B, update(lsa(B, 1, A, C), lsa(C, 1, B)), SECOND);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        NodeId[] targets = {B, C, D, A};
        RoutingMetric[] metrics = RoutingMetric.values();
        int found = lookups(targets, metrics, 20_000);
        long before = threads.getCurrentThreadAllocatedBytes();
        found += lookups(targets, metrics, 100_000);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(found).isPositive();
        assertThat(allocated).as("bytes allocated by 100 000 lookups").isLessThan(1_000);
    }

    private int lookups(NodeId[] targets, RoutingMetric[] metrics, int n) {
        int found = 0;
        for (int i = 0; i < n; i++) {
            if (a.nextHop(targets[i & 3], metrics[(i >> 2) & 3]) != null) {
                found++;
            }
        }
        return found;
    }

    @Test
    void aNodeWithMoreNeighboursThanFitAdvertisesTheNearest() {
        int room = config.maxLinksPerAdvertisement();
        for (int i = 0; i < room + 5; i++) {
            a.neighbourUp(new NodeId(1_000 + i), new LinkCost(100_000 - i, 0), 0);
        }
        LinkStateAdvertisement own = a.database().get(A).orElseThrow();
        assertThat(own.links()).hasSize(room);
        assertThat(own.costTo(new NodeId(1_000))).as("the slowest is left out").isNull();
        assertThat(LinkStateCodec.UPDATE_HEADER_BYTES + LinkStateCodec.encodedSize(own)).isLessThanOrEqualTo(config.maxUpdateBodyBytes());
        assertThat(a.neighbours()).hasSize(room + 5);
    }

    @Test
    void configMatters() {
        Router fast = new Router(A, "a", RoutingConfig.builder().floodRetransmitInterval(Duration.ofMillis(50)).build(), out, 1, 0);
        fast.neighbourUp(B, TEN_MS, 0);
        assertThat(fast.nextDeadlineNanos()).isEqualTo(50 * MS);
    }

    @Test
    void aNodeWithMoreNeighboursThanAnUpdateHoldsSaysHowManyLinksItLeavesOut() {
        int room = config.maxLinksPerAdvertisement();
        long now = 0;
        List<NodeId> neighbours = new ArrayList<>();
        for (int i = 0; i < room + 3; i++) {
            NodeId n = NodeId.ofName("n" + i);
            neighbours.add(n);
            now += 2_000_000_000L;
            a.neighbourUp(n, new LinkCost(1_000 + i, 0), now);
        }
        now += 2_000_000_000L;
        a.onTimer(now);
        LinkStateAdvertisement own = a.database().advertisements().stream().filter(x -> x.origin().equals(A))
                .findFirst().orElseThrow();
        assertThat(own.links()).hasSize(room);
        assertThat(own.costTo(neighbours.get(room + 2))).as("the slowest link is the one left out").isNull();
        assertThat(a.linksLeftOut()).isEqualTo(3);
        assertThat(out.linksLeftOut).as("reported once per change, not per origination").containsExactly(1, 2, 3);

        for (int i = room; i < room + 3; i++) {
            now += 2_000_000_000L;
            a.neighbourDown(neighbours.get(i), now);
        }
        now += 2_000_000_000L;
        a.onTimer(now);
        assertThat(a.linksLeftOut()).isZero();
        assertThat(out.linksLeftOut).containsExactly(1, 2, 3, 2, 1, 0);
    }
}

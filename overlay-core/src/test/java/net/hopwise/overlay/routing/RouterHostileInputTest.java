package net.hopwise.overlay.routing;

import static net.hopwise.overlay.routing.RouterTest.A;
import static net.hopwise.overlay.routing.RouterTest.B;
import static net.hopwise.overlay.routing.RouterTest.C;
import static net.hopwise.overlay.routing.RouterTest.D;
import static net.hopwise.overlay.routing.RouterTest.TEN_MS;
import static net.hopwise.overlay.routing.RouterTest.lsa;
import static net.hopwise.overlay.routing.RouterTest.update;
import static net.hopwise.overlay.routing.VirtualNetwork.MS;
import static net.hopwise.overlay.routing.VirtualNetwork.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.Test;

/** One router driven by hand with what a hostile (admitted) neighbour may send. */
class RouterHostileInputTest {
    /** A wall clock in milliseconds, as the node engine passes it. */
    static final long CLOCK = 1_700_000_000_000L;
    static final long LEAD = RoutingConfig.DEFAULT_MAX_SEQUENCE_LEAD.toMillis();

    final RoutingConfig config = RoutingConfig.defaults();
    final CapturingOutput out = new CapturingOutput();
    final Router a = new Router(A, "a", config, out, CLOCK, 0);

    long ownSequence(Router r) {
        return r.database().get(r.self()).orElseThrow().sequence();
    }

    @Test
    void aCopyOfItsOwnAdvertisementAtTheLargestSequenceDoesNotStopOriginating() {
        a.neighbourUp(B, TEN_MS, 0);
        long before = ownSequence(a);
        out.clear();
        a.onUpdate(B, update(lsa(A, Long.MAX_VALUE, C)), SECOND);
        assertThat(ownSequence(a)).as("not adopted").isEqualTo(before);
        assertThat(out.rejections).containsExactly(new CapturingOutput.Rejection(B, DropReason.LINK_STATE_LIMIT));
        assertThat(out.ackEntriesTo(B)).as("refused for now, so not acked").isEmpty();
        assertThat(a.sequencesBeyondWindow()).isEqualTo(1);

        a.neighbourUp(C, TEN_MS, 2 * SECOND);
        assertThat(ownSequence(a)).isEqualTo(before + 1);
        a.onTimer(2 * SECOND + config.refreshInterval().toNanos());
        assertThat(ownSequence(a)).isEqualTo(before + 2);
        assertThat(a.database().get(A).orElseThrow().links()).extracting(LinkStateAdvertisement.Link::neighbour)
                .containsExactlyInAnyOrder(B, C);
    }

    @Test
    void aCopyOfItsOwnAdvertisementAtTheEdgeOfTheWindowIsBeatenAndOriginationGoesOn() {
        a.neighbourUp(B, TEN_MS, 0);
        long edge = CLOCK + 1_000 + LEAD;
        a.onUpdate(B, update(lsa(A, edge, C)), SECOND);
        assertThat(ownSequence(a)).as("won back at once").isEqualTo(edge + 1);
        assertThat(out.advertisementsTo(B)).extracting(LinkStateAdvertisement::sequence).contains(edge + 1);
        for (int i = 1; i <= 5; i++) {
            a.neighbourUp(new NodeId(100 + i), TEN_MS, SECOND + i * MS);
        }
        assertThat(ownSequence(a)).isEqualTo(edge + 6);
        assertThat(a.database().get(A).orElseThrow().links()).as("its live links, not the copy's").hasSize(6);
    }

    @Test
    void aForeignSequenceBeyondTheWindowIsRefusedUntilTheClockCatchesUp() {
        a.neighbourUp(B, TEN_MS, 0);
        a.onUpdate(B, update(lsa(D, 5, B)), 10 * MS);
        out.clear();
        long ahead = CLOCK + SECOND / MS + LEAD + 500;
        a.onUpdate(B, update(lsa(D, ahead, B), lsa(C, 3_750_000_000_000_000_000L)), SECOND);
        assertThat(a.database().get(D).orElseThrow().sequence()).isEqualTo(5);
        assertThat(a.database().get(C)).isEmpty();
        assertThat(out.rejections).extracting(CapturingOutput.Rejection::reason)
                .containsExactly(DropReason.LINK_STATE_LIMIT, DropReason.LINK_STATE_LIMIT);
        assertThat(out.ackEntriesTo(B)).isEmpty();
        assertThat(a.limitedAdvertisements()).isEqualTo(2);
        // The sender resends it; half a second later it is inside the window.
        a.onUpdate(B, update(lsa(D, ahead, B)), SECOND + 500 * MS);
        assertThat(a.database().get(D).orElseThrow().sequence()).isEqualTo(ahead);
        assertThat(out.ackEntriesTo(B)).containsExactly(new LinkStateAck.AckEntry(D, ahead));
    }

    @Test
    void aRestartAfterALongLifeIsNotAnImplausibleJump() {
        a.neighbourUp(B, TEN_MS, 0);
        long yearAgo = CLOCK - 365L * 24 * 3600 * 1000;
        a.onUpdate(B, update(lsa(D, yearAgo + 9_000, B)), MS);
        // D restarted: its new life counts from its clock, a year of milliseconds above the held one.
        a.onUpdate(B, update(lsa(D, CLOCK, B)), 2 * MS);
        assertThat(a.database().get(D).orElseThrow().sequence()).isEqualTo(CLOCK);
        assertThat(out.rejections).isEmpty();
    }

    @Test
    void aNeighbourIsLimitedPerIntervalAndItsRestGetsInWhenItResends() {
        Router r = new Router(A, "a", config.toBuilder().maxAdvertisementsPerNeighbour(5).build(), out, CLOCK, 0);
        r.neighbourUp(B, TEN_MS, 0);
        r.neighbourUp(C, TEN_MS, 0);
        out.clear();
        List<LinkStateAdvertisement> made = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            made.add(lsa(new NodeId(1_000 + i), 1));
        }
        r.onUpdate(B, new LinkStateUpdate(made), SECOND);
        assertThat(r.database().size()).as("itself and five").isEqualTo(6);
        assertThat(out.ackEntriesTo(B)).extracting(LinkStateAck.AckEntry::origin)
                .containsExactlyElementsOf(made.subList(0, 5).stream().map(LinkStateAdvertisement::origin).toList());
        assertThat(out.rejections).hasSize(3).allMatch(x -> x.reason() == DropReason.LINK_STATE_LIMIT && x.from().equals(B));
        assertThat(out.advertisementsTo(C)).as("only what was taken is flooded").hasSize(5);

        r.onUpdate(C, update(lsa(new NodeId(2_000), 1)), SECOND + MS);
        assertThat(r.database().get(new NodeId(2_000))).as("the limit is per neighbour").isPresent();

        r.onUpdate(B, new LinkStateUpdate(made.subList(5, 8)), SECOND + config.floodRetransmitInterval().toNanos());
        assertThat(r.database().size()).as("still within the interval").isEqualTo(7);
        r.onUpdate(B, new LinkStateUpdate(made.subList(5, 8)), 2 * SECOND);
        assertThat(r.database().size()).isEqualTo(10);
    }

    @Test
    void anOriginIsLimitedPerIntervalExceptWhenItSpeaksForItself() {
        Router r = new Router(A, "a", config.toBuilder().maxAdvertisementsPerOrigin(3).build(), out, CLOCK, 0);
        r.neighbourUp(B, TEN_MS, 0);
        r.neighbourUp(C, TEN_MS, 0);
        for (int s = 1; s <= 5; s++) {
            r.onUpdate(B, update(lsa(D, s, B)), SECOND + s * MS);
        }
        assertThat(r.database().get(D).orElseThrow().sequence()).isEqualTo(3);
        assertThat(r.limitedAdvertisements()).isEqualTo(2);
        for (int s = 1; s <= 5; s++) {
            r.onUpdate(C, update(lsa(C, s, A)), SECOND + s * MS);
        }
        assertThat(r.database().get(C).orElseThrow().sequence()).isEqualTo(5);
        r.onUpdate(C, update(lsa(D, 5, B)), SECOND + 10 * MS);
        assertThat(r.database().get(D).orElseThrow().sequence()).as("D's budget is shared by its carriers").isEqualTo(3);
        r.onUpdate(C, update(lsa(D, 5, B)), 2 * SECOND + 10 * MS);
        assertThat(r.database().get(D).orElseThrow().sequence()).isEqualTo(5);
    }

    @Test
    void aNewerCopyIsAlsoSentToItsOriginSoThatAForgeryReachesItAtOnce() {
        a.neighbourUp(B, TEN_MS, 0);
        a.neighbourUp(C, TEN_MS, 0);
        a.onUpdate(C, update(lsa(C, 10, A)), SECOND);
        out.clear();
        LinkStateAdvertisement forged = lsa(C, 11, D);
        a.onUpdate(B, update(forged), 2 * SECOND);
        assertThat(out.advertisementsTo(C)).containsExactly(forged.withAgeMillis(0));
    }

    @Test
    void theOlderRefusalsAreReportedWithTheirReasons() {
        RoutingConfig small = RoutingConfig.builder().maxUpdateBodyBytes(RoutingConfig.MIN_UPDATE_BODY_BYTES).maxOrigins(3).build();
        Router r = new Router(A, "a", small, out, CLOCK, 0);
        r.neighbourUp(B, TEN_MS, 0);
        out.clear();
        r.onUpdate(B, update(lsa(D, 1, B, C, new NodeId(77), new NodeId(78), new NodeId(79))), MS);
        r.onUpdate(B, update(lsa(C, 1).withAgeMillis((int) small.maxAge().toMillis())), MS);
        r.onUpdate(B, update(lsa(B, 1, A), lsa(C, 1), lsa(D, 1)), MS);
        r.onUpdate(C, update(lsa(D, 1), lsa(new NodeId(9), 1)), MS);
        assertThat(out.rejections).containsExactly(
                new CapturingOutput.Rejection(B, DropReason.OVERSIZED),
                new CapturingOutput.Rejection(B, DropReason.STALE),
                new CapturingOutput.Rejection(B, DropReason.LINK_STATE_LIMIT),
                new CapturingOutput.Rejection(C, DropReason.NOT_A_NEIGHBOUR),
                new CapturingOutput.Rejection(C, DropReason.NOT_A_NEIGHBOUR));
        assertThat(r.rejectedAdvertisements()).isEqualTo(3);
        assertThat(r.limitedAdvertisements()).isEqualTo(1);
        assertThat(r.ignoredMessages()).isEqualTo(1);
        assertThat(out.ackEntriesTo(B)).as("refused for good: acked so the sender stops").hasSize(5);
    }

    @Test
    void aFullDatabaseMakesRoomForANewRealOriginByDroppingTheUnreachableOneThatExpiresFirst() {
        Router r = new Router(A, "a", config.toBuilder().maxOrigins(5).build(), out, CLOCK, 0);
        r.neighbourUp(B, TEN_MS, 0);
        NodeId x1 = new NodeId(901);
        NodeId x2 = new NodeId(902);
        r.onUpdate(B, update(lsa(B, 1, A), lsa(x1, 1, B).withAgeMillis(50_000), lsa(x2, 1, B).withAgeMillis(10_000),
                lsa(new NodeId(903), 1, B).withAgeMillis(20_000)), MS);
        r.onTimer(30 * MS);
        assertThat(r.database().size()).isEqualTo(5);

        // C joins behind B: B lists it, so once routes are computed C is reachable and stays.
        r.onUpdate(B, update(lsa(C, 1, B), lsa(B, 2, A, C)), SECOND);
        assertThat(r.database().get(C)).isPresent();
        assertThat(r.database().get(x1)).as("made-up, unreachable, expiring first").isEmpty();
        assertThat(r.evictedOrigins()).isEqualTo(1);
        r.onTimer(SECOND + 30 * MS);
        assertThat(r.nextHop(C, RoutingMetric.HOPS)).isEqualTo(B);

        r.onUpdate(B, update(lsa(new NodeId(904), 1, B)), 2 * SECOND);
        assertThat(r.database().get(new NodeId(903))).as("20 s old, so it expires before x2").isEmpty();
        assertThat(r.database().get(x2)).isPresent();
        r.onUpdate(B, update(lsa(new NodeId(905), 1, B)), 2 * SECOND + MS);
        r.onUpdate(B, update(lsa(new NodeId(906), 1, B)), 2 * SECOND + 2 * MS);
        assertThat(r.database().advertisements()).extracting(LinkStateAdvertisement::origin)
                .as("junk replaces junk, never a reachable origin").contains(A, B, C).hasSize(5);
        assertThat(out.rejections).isEmpty();
    }

    @Test
    void aNewerCopyAgedNearMaxAgeDoesNotExpireBeforeTheOneItReplacedSoItReachesItsOrigin() {
        a.neighbourUp(B, TEN_MS, 0);
        a.neighbourUp(C, TEN_MS, 0);
        a.onUpdate(B, update(lsa(D, 5, B)), SECOND);
        int nearMaxAge = (int) config.maxAge().toMillis() - 1;
        out.clear();
        a.onUpdate(B, update(lsa(D, 6, C).withAgeMillis(nearMaxAge)), 2 * SECOND);
        a.onTimer(2 * SECOND + 10 * MS);
        assertThat(a.database().get(D)).as("expires when the version it replaced would have").contains(lsa(D, 6, C));
        assertThat(out.advertisementsTo(C)).filteredOn(x -> x.origin().equals(D)).as("flooded on, alive")
                .extracting(LinkStateAdvertisement::ageMillis).containsExactly(1_000);
        assertThat(a.database().ageNanos(D, 2 * SECOND)).hasValue(SECOND);
    }

    @Test
    void twoDifferentCopiesWithOneSequenceEndTheSameOnEveryNodeWhateverTheirOrder() {
        LinkStateAdvertisement x = lsa(D, 5, B);
        LinkStateAdvertisement y = lsa(D, 5, C);
        LinkStateAdvertisement winner = LinkStateAdvertisement.compareContent(x, y) > 0 ? x : y;
        CapturingOutput other = new CapturingOutput();
        Router r = new Router(A, "a", config, other, CLOCK, 0);
        a.neighbourUp(B, TEN_MS, 0);
        r.neighbourUp(B, TEN_MS, 0);
        a.onUpdate(B, update(x), SECOND);
        a.onUpdate(B, update(y), 2 * SECOND);
        r.onUpdate(B, update(y), SECOND);
        other.clear();
        r.onUpdate(B, update(x), 2 * SECOND);
        assertThat(a.database().get(D)).contains(winner);
        assertThat(r.database().get(D)).contains(winner);
        if (winner == y) {
            assertThat(other.advertisementsTo(B)).as("the sender of the losing copy gets the winner").contains(y);
        }
    }

    @Test
    void aSequenceBaseBeyondTheWindowsLimitIsRefused() {
        assertThatThrownBy(() -> new Router(A, "a", config, out, (1L << 62) + 1, 0)).isInstanceOf(IllegalArgumentException.class);
        Router r = new Router(A, "a", config, out, 1L << 62, 0);
        r.neighbourUp(B, TEN_MS, 0);
        r.onUpdate(B, update(lsa(A, Long.MAX_VALUE - 1)), MS);
        r.neighbourUp(C, TEN_MS, 2 * MS);
        assertThat(ownSequence(r)).isEqualTo((1L << 62) + 2);
    }
}

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

import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One router's link-state extension records driven by hand: publishing, flooding rules, bounds, ageing. */
class LinkStateExtensionTest {
    static final byte[] HELLO = {'h', 'i'};
    static final byte[] OTHER = {1, 2, 3};

    final RoutingConfig config = RoutingConfig.defaults();
    final CapturingOutput out = new CapturingOutput();
    final Router a = new Router(A, "a", config, out, 100, 0);

    /** a-b-c in a line and a-c: b and c are up neighbours of a, and a holds their advertisements. */
    @BeforeEach
    void neighbours() {
        a.neighbourUp(B, TEN_MS, 0);
        a.neighbourUp(C, TEN_MS, 0);
        a.onUpdate(B, update(lsa(B, 5, A, C), lsa(C, 7, A, B)), 0);
        runUntil(SECOND);
        out.clear();
    }

    private void runUntil(long nanos) {
        while (a.nextDeadlineNanos() <= nanos) {
            a.onTimer(a.nextDeadlineNanos());
        }
    }

    private static ExtensionUpdate records(ExtensionRecord... records) {
        return new ExtensionUpdate(List.of(records));
    }

    @Test
    void publishingFloodsReportsAndReadsBackCopies() {
        long recomputations = a.recomputations();
        a.publishExtension(5, HELLO, SECOND);
        assertThat(out.extensionChanges).singleElement().satisfies(c -> {
            assertThat(c.origin()).isEqualTo(A);
            assertThat(c.kind()).isEqualTo(5);
            assertThat(c.record()).isEqualTo(HELLO);
        });
        assertThat(out.extensionRecordsTo(B)).containsExactly(new ExtensionRecord(A, 5, 100, 0, HELLO));
        assertThat(out.extensionRecordsTo(C)).containsExactly(new ExtensionRecord(A, 5, 100, 0, HELLO));
        Map<NodeId, byte[]> records = a.extensions(5);
        assertThat(records).containsOnlyKeys(A);
        records.get(A)[0] = 'X';
        assertThat(a.extensions(5).get(A)).as("a fresh copy each time").isEqualTo(HELLO);
        assertThat(a.extensions(6)).isEmpty();

        out.clear();
        a.publishExtension(5, HELLO.clone(), 2 * SECOND);
        assertThat(out.extensionChanges).as("the same content again is no change").isEmpty();
        assertThat(out.extensionsSent).isEmpty();

        a.publishExtension(5, null, 3 * SECOND);
        assertThat(out.extensionChanges).singleElement().satisfies(c -> assertThat(c.record()).isNull());
        assertThat(out.extensionRecordsTo(B)).containsExactly(new ExtensionRecord(A, 5, 101, 0, null));
        assertThat(a.extensions(5)).isEmpty();
        out.clear();
        a.publishExtension(5, null, 4 * SECOND);
        assertThat(out.extensionChanges).isEmpty();
        assertThat(out.extensionsSent).isEmpty();
        assertThat(a.recomputations()).isEqualTo(recomputations);
    }

    @Test
    void localPublishesBeyondTheBoundsThrow() {
        RoutingConfig small = RoutingConfig.builder().maxExtensionBytes(4).maxExtensionsPerOrigin(2).build();
        Router r = new Router(A, "a", small, out, 100, 0);
        assertThatThrownBy(() -> r.publishExtension(0, HELLO, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.publishExtension(65_536, HELLO, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.extensions(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.publishExtension(1, new byte[5], 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxExtensionBytes");
        r.publishExtension(1, new byte[4], 0);
        r.publishExtension(65_535, new byte[0], 0);
        r.publishExtension(65_535, null, 0);
        assertThatThrownBy(() -> r.publishExtension(2, HELLO, 0))
                .as("a withdrawn kind still counts until it ages out")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxExtensionsPerOrigin");
        r.publishExtension(65_535, OTHER, 0);
        assertThat(r.extensions(65_535)).containsOnlyKeys(A);
    }

    @Test
    void newerRecordsAreAckedInstalledFloodedAndReportedWithoutRouteComputation() {
        long recomputations = a.recomputations();
        a.onExtensionUpdate(B, records(new ExtensionRecord(C, 3, 50, 10, HELLO)), 2 * SECOND);
        assertThat(a.recomputations()).isEqualTo(recomputations);
        assertThat(out.extensionAcksTo(B)).containsExactly(new ExtensionAck.Entry(C, 3, 50));
        assertThat(out.extensionRecordsTo(C)).as("flooded on, to its origin too")
                .containsExactly(new ExtensionRecord(C, 3, 50, 10, HELLO));
        assertThat(out.extensionRecordsTo(B)).isEmpty();
        assertThat(out.extensionChanges).singleElement().satisfies(c -> {
            assertThat(c.origin()).isEqualTo(C);
            assertThat(c.record()).isEqualTo(HELLO);
        });
        assertThat(a.extensions(3)).containsOnlyKeys(C);
        runUntil(3 * SECOND);
        assertThat(a.recomputations()).isEqualTo(recomputations);

        out.clear();
        a.onExtensionUpdate(C, records(new ExtensionRecord(C, 3, 49, 0, OTHER)), 3 * SECOND);
        assertThat(out.extensionAcksTo(C)).containsExactly(new ExtensionAck.Entry(C, 3, 49));
        assertThat(out.extensionRecordsTo(C)).as("an older copy is answered with ours")
                .extracting(ExtensionRecord::sequence).containsExactly(50L);
        assertThat(out.extensionChanges).isEmpty();

        out.clear();
        a.onExtensionUpdate(C, records(new ExtensionRecord(C, 3, 51, 0, null)), 4 * SECOND);
        assertThat(out.extensionChanges).singleElement().satisfies(c -> assertThat(c.record()).isNull());
        assertThat(out.extensionRecordsTo(B)).extracting(ExtensionRecord::withdrawn).containsExactly(true);
        assertThat(a.extensions(3)).isEmpty();
        assertThat(a.recomputations()).isEqualTo(recomputations);
    }

    @Test
    void recordsBeyondTheBoundsAreCountedDropsAndAcked() {
        RoutingConfig small = RoutingConfig.builder().maxExtensionBytes(2).maxExtensionsPerOrigin(1).build();
        Router r = new Router(A, "a", small, out, 100, 0);
        r.neighbourUp(B, TEN_MS, 0);
        r.onUpdate(B, update(lsa(B, 5, A)), 0);
        out.clear();
        r.onExtensionUpdate(B, records(new ExtensionRecord(B, 1, 10, 0, OTHER), new ExtensionRecord(B, 2, 10, 0, HELLO),
                new ExtensionRecord(B, 3, 10, 0, new byte[1]), new ExtensionRecord(B, 4, 10, (int) small.maxAge().toMillis(), null)),
                SECOND);
        assertThat(out.rejections).extracting(CapturingOutput.Rejection::reason)
                .containsExactly(DropReason.EXTENSION_LIMIT, DropReason.EXTENSION_LIMIT, DropReason.STALE);
        assertThat(r.rejectedExtensions()).isEqualTo(3);
        assertThat(r.rejectedAdvertisements()).isZero();
        assertThat(out.extensionAcksTo(B)).as("refused for good: acked so the sender stops").hasSize(4);
        assertThat(r.extensions(2)).containsOnlyKeys(B);
        assertThat(r.extensions(1)).isEmpty();
        assertThat(r.extensions(3)).as("a new kind beyond maxExtensionsPerOrigin").isEmpty();
    }

    @Test
    void recordOfAnOriginNotYetHeldWaitsForItsAdvertisement() {
        a.onExtensionUpdate(B, records(new ExtensionRecord(D, 1, 10, 0, HELLO)), 2 * SECOND);
        assertThat(out.extensionAcksTo(B)).as("not acked: the sender resends it").isEmpty();
        assertThat(a.deferredExtensions()).isEqualTo(1);
        assertThat(a.rejectedExtensions()).isZero();
        assertThat(a.extensions(1)).isEmpty();
        a.onUpdate(B, update(lsa(D, 3, B)), 2 * SECOND);
        a.onExtensionUpdate(B, records(new ExtensionRecord(D, 1, 10, 300, HELLO)), 2 * SECOND + 300 * MS);
        assertThat(out.extensionAcksTo(B)).containsExactly(new ExtensionAck.Entry(D, 1, 10));
        assertThat(a.extensions(1)).containsOnlyKeys(D);
    }

    @Test
    void recordsGoWithTheirOriginsAdvertisementAndExpireOnTheirOwn() {
        a.onExtensionUpdate(B, records(new ExtensionRecord(C, 1, 10, 0, HELLO), new ExtensionRecord(C, 2, 10, 0, null)),
                2 * SECOND);
        a.onUpdate(B, update(lsa(D, 3, B)), 2 * SECOND);
        // D's record is younger than its advertisement: it would outlive it, but goes with it.
        a.onExtensionUpdate(B, records(new ExtensionRecord(D, 1, 10, 0, OTHER)), 20 * SECOND);
        out.clear();
        long maxAge = config.maxAge().toNanos();
        // C's advertisement is refreshed (its record is not); D goes silent altogether.
        for (long t = 30 * SECOND; t < 2 * SECOND + maxAge; t += 30 * SECOND) {
            runUntil(t);
            a.onUpdate(B, update(lsa(C, 7 + t / SECOND, A, B)), t);
        }
        runUntil(2 * SECOND + maxAge - 1);
        assertThat(a.extensions(1)).containsOnlyKeys(C, D);
        runUntil(2 * SECOND + maxAge);
        assertThat(a.database().get(D)).isEmpty();
        assertThat(a.database().get(C)).isPresent();
        assertThat(a.extensions(1)).isEmpty();
        assertThat(out.extensionChanges).extracting(CapturingOutput.ExtensionChange::origin).containsExactlyInAnyOrder(C, D);
        assertThat(out.extensionChanges).allSatisfy(c -> assertThat(c.record()).isNull());
    }

    @Test
    void ownRecordsAreRefreshedBeforeTheyAgeOut() {
        a.publishExtension(1, HELLO, SECOND);
        long maxAge = config.maxAge().toNanos();
        for (long t = 0; t < 5 * maxAge; t += 30 * SECOND) {
            runUntil(t);
            // Keep the neighbours' advertisements alive; acknowledge nothing, so retransmissions show too.
            a.onUpdate(B, update(lsa(B, 6 + t / SECOND, A, C), lsa(C, 8 + t / SECOND, A, B)), t);
        }
        assertThat(a.extensions(1)).containsOnlyKeys(A);
        assertThat(out.extensionChanges).as("a refresh is no change").hasSize(1);
        List<Long> versions = out.extensionRecordsTo(B).stream().map(ExtensionRecord::sequence).distinct().toList();
        assertThat(versions).as("a refresh floods the same version again").containsExactly(100L);
        long sentAged0 = out.extensionRecordsTo(B).stream().filter(r -> r.ageMillis() == 0).count();
        assertThat(sentAged0).as("aged 0 again once per refreshInterval")
                .isGreaterThanOrEqualTo(5 * maxAge / config.refreshInterval().toNanos() - 1);
    }

    @Test
    void aCopyOfOurOwnFromAPreviousLifeIsBeatenOrWithdrawn() {
        a.publishExtension(1, HELLO, SECOND);
        out.clear();
        // A previous life's record of a kind this life does not publish: withdrawn above it.
        a.onExtensionUpdate(B, records(new ExtensionRecord(A, 2, 5_000, 0, OTHER)), 2 * SECOND);
        assertThat(out.extensionAcksTo(B)).containsExactly(new ExtensionAck.Entry(A, 2, 5_000));
        // (The first extension packet from B also sends it what it had not acked: it speaks extensions.)
        assertThat(out.extensionRecordsTo(B)).filteredOn(r -> r.kind() == 2).containsExactly(new ExtensionRecord(A, 2, 5_001, 0, null));
        assertThat(a.extensions(2)).isEmpty();
        // A forged newer copy of a kind this life publishes: ours again, above it.
        out.clear();
        a.onExtensionUpdate(C, records(new ExtensionRecord(A, 1, 7_000, 0, OTHER)), 3 * SECOND);
        assertThat(out.extensionRecordsTo(C)).containsExactly(new ExtensionRecord(A, 1, 7_001, 0, HELLO),
                new ExtensionRecord(A, 2, 5_001, 1_000, null));
        assertThat(a.extensions(1).get(A)).isEqualTo(HELLO);
        assertThat(out.extensionChanges).isEmpty();
        // A newer withdrawal of a kind we do not hold only moves our counter.
        out.clear();
        a.onExtensionUpdate(C, records(new ExtensionRecord(A, 3, 9_000, 0, null)), 4 * SECOND);
        assertThat(out.extensionRecordsTo(C)).filteredOn(r -> r.kind() == 3).isEmpty();
        a.publishExtension(3, HELLO, 5 * SECOND);
        assertThat(out.extensionRecordsTo(C)).filteredOn(r -> r.kind() == 3).extracting(ExtensionRecord::sequence)
                .containsExactly(9_001L);
    }

    /** Changes are reported at the end of the call, in order, and a listener may publish in answer. */
    @Test
    void aListenerMayPublishInAnswerToAChange() {
        Router[] self = new Router[1];
        CapturingOutput answering = new CapturingOutput() {
            @Override
            public void extensionChanged(NodeId origin, int kind, byte[] record) {
                super.extensionChanged(origin, kind, record);
                if (kind == 1 && !origin.equals(A)) {
                    // Mid-update, the router would still owe the sender its ack: it must come out whole.
                    assertThat(extensionAcksTo(B)).as("the call's acks left before the change is reported").isNotEmpty();
                    self[0].publishExtension(9, record == null ? null : new byte[] {(byte) extensionChanges.size()}, 0);
                }
            }
        };
        Router r = new Router(A, "a", config, answering, 100, 0);
        self[0] = r;
        r.neighbourUp(B, TEN_MS, 0);
        r.onUpdate(B, update(lsa(B, 5, A), lsa(C, 7, B)), 0);
        answering.clear();
        r.onExtensionUpdate(B, records(new ExtensionRecord(B, 1, 10, 0, HELLO), new ExtensionRecord(C, 1, 10, 0, OTHER)), SECOND);
        assertThat(answering.extensionChanges).extracting(CapturingOutput.ExtensionChange::origin).containsExactly(B, C, A, A);
        assertThat(answering.extensionChanges).extracting(CapturingOutput.ExtensionChange::kind).containsExactly(1, 1, 9, 9);
        // B's change made the first answer, C's (reported in order, after it) the second.
        assertThat(r.extensions(9).get(A)).containsExactly(2);
        assertThat(answering.extensionRecordsTo(B)).filteredOn(x -> x.kind() == 9).extracting(ExtensionRecord::sequence)
                .as("the second answer waits for pacing").containsExactly(100L);
        r.onTimer(SECOND + config.floodPacingInterval().toNanos());
        assertThat(answering.extensionRecordsTo(B)).filteredOn(x -> x.kind() == 9).extracting(ExtensionRecord::sequence)
                .containsExactly(100L, 101L);
        assertThat(r.extensions(1)).containsOnlyKeys(B, C);
    }

    @Test
    void packetsFromANodeThatIsNotAnUpNeighbourAreIgnoredAndCounted() {
        long ignored = a.ignoredMessages();
        a.onExtensionUpdate(D, records(new ExtensionRecord(B, 1, 10, 0, HELLO), new ExtensionRecord(C, 1, 10, 0, HELLO)), SECOND);
        a.onExtensionAck(D, new ExtensionAck(List.of(new ExtensionAck.Entry(B, 1, 10))), SECOND);
        assertThat(a.ignoredMessages()).isEqualTo(ignored + 2);
        assertThat(out.rejections).extracting(CapturingOutput.Rejection::reason)
                .containsExactly(DropReason.NOT_A_NEIGHBOUR, DropReason.NOT_A_NEIGHBOUR);
        assertThat(a.extensions(1)).isEmpty();
        assertThat(out.extensionsSent).isEmpty();
    }

    /**
     * A neighbour of a version without extensions never answers them: retransmissions to it back off
     * to one per refreshInterval, and come back to floodRetransmitInterval once it speaks.
     */
    @Test
    void aNeighbourThatNeverAnswersExtensionsIsRetriedEverLessOften() {
        a.publishExtension(1, HELLO, SECOND);
        long until = SECOND + config.refreshInterval().toNanos() / 2;
        for (long t = 0; t < until; t += 10 * SECOND) {
            runUntil(t);
            // C answers: it speaks extensions. B only keeps its link state alive.
            for (ExtensionRecord r : out.extensionRecordsTo(C)) {
                a.onExtensionAck(C, new ExtensionAck(List.of(new ExtensionAck.Entry(r.origin(), r.kind(), r.sequence()))), t);
            }
        }
        runUntil(until);
        int toB = out.extensionRecordsTo(B).size();
        assertThat(toB).as("300 ms doubling each round within half a refresh interval").isBetween(5, 9);
        assertThat(out.extensionRecordsTo(C)).as("acked at once").hasSize(1);

        out.clear();
        a.onExtensionAck(B, new ExtensionAck(List.of()), until);
        a.publishExtension(2, OTHER, until);
        runUntil(until + 2 * SECOND);
        assertThat(out.extensionRecordsTo(B).stream().filter(r -> r.kind() == 2).count())
                .as("once it spoke, every floodRetransmitInterval").isGreaterThanOrEqualTo(6);
    }
}

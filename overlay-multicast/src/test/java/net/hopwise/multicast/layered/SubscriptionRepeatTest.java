package net.hopwise.multicast.layered;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import net.hopwise.multicast.GroupId;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import org.junit.jupiter.api.Test;

/**
 * A changed subscription goes to the parent at once and twice more 25 ms apart, the empty set of a
 * node leaving everything included, so that one lost datagram does not leave layers flowing into a
 * path that pruned them; the refresh of a set still held stays once a second.
 */
class SubscriptionRepeatTest {
    private static final long MS = 1_000_000L;
    private static final long REFRESH = 1_000 * MS;
    private static final NodeId PARENT = NodeId.ofName("p");
    private static final NodeId CHILD = NodeId.ofName("c");

    private record Sent(long atNanos, NodeId to, BitSet held) {}

    /** A relay's view of its parent ({@code PARENT} unless moved), recording what it tells which node. */
    private static final class Recorder implements SessionRelay.Signal {
        final List<Sent> sent = new ArrayList<>();
        NodeId parent = PARENT;
        long now;

        @Override
        public NodeId parent(SessionRelay relay) {
            return parent;
        }

        @Override
        public void subscribe(SessionRelay relay, NodeId to, BitSet held) {
            sent.add(new Sent(now, to, (BitSet) held.clone()));
        }
    }

    private static SessionRelay relay() {
        return new SessionRelay(new SessionRelay.Key(NodeId.ofName("s"), 1),
                new LayeredWire.Envelope(RoutingMetric.LATENCY, 16, NodeId.ofName("s"), GroupId.ofName("g"), 1), 4);
    }

    private static BitSet layers(int upTo) {
        BitSet b = new BitSet();
        b.set(0, upTo + 1);
        return b;
    }

    /** The child's whole set arrives at {@code atNanos}, and the relay tells its parent what changed. */
    private static void childSays(SessionRelay relay, Recorder signal, BitSet held, long atNanos) {
        relay.onSubscription(CHILD, held, atNanos);
        signal.now = atNanos;
        relay.sync(signal, atNanos, REFRESH);
    }

    /** A relay whose child said {@code held} at 0, its repeats and refreshes run to {@code untilNanos}, the record then cleared. */
    private static SessionRelay holding(Recorder signal, BitSet held, long untilNanos) {
        SessionRelay relay = relay();
        childSays(relay, signal, held, 0);
        runUntil(relay, signal, untilNanos);
        signal.sent.clear();
        return relay;
    }

    /** Runs the relay's timer at each deadline up to {@code until}, as the service does. */
    private static void runUntil(SessionRelay relay, Recorder signal, long until) {
        for (long next = relay.nextDeadlineNanos(Long.MAX_VALUE / 4); next <= until;
                next = relay.nextDeadlineNanos(Long.MAX_VALUE / 4)) {
            signal.now = next;
            relay.sync(signal, next, REFRESH);
        }
        signal.now = until;
    }

    @Test
    void aChangeGoesThreeTimesTwentyFiveMillisecondsApartThenTheRefreshEverySecond() {
        SessionRelay relay = relay();
        Recorder signal = new Recorder();
        childSays(relay, signal, layers(2), 0);
        runUntil(relay, signal, 2_100 * MS);
        assertThat(signal.sent).extracting(Sent::atNanos)
                .containsExactly(0L, 25 * MS, 50 * MS, 1_050 * MS, 2_050 * MS);
        assertThat(signal.sent).allSatisfy(s -> assertThat(s.held()).isEqualTo(layers(2)));
    }

    @Test
    void aPruneToNothingIsRepeatedTooAndTheStateStaysUntilItWas() {
        Recorder signal = new Recorder();
        SessionRelay relay = holding(signal, layers(3), 500 * MS);
        childSays(relay, signal, new BitSet(), 500 * MS);
        assertThat(relay.idle()).as("kept while its prune is still to be repeated").isFalse();
        runUntil(relay, signal, 5_000 * MS);
        assertThat(signal.sent).extracting(Sent::atNanos).containsExactly(500 * MS, 525 * MS, 550 * MS);
        assertThat(signal.sent).allSatisfy(s -> assertThat(s.held().isEmpty()).isTrue());
        assertThat(relay.idle()).isTrue();
        assertThat(relay.nextDeadlineNanos(Long.MAX_VALUE / 4)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aNewChangeDuringTheRepeatsStartsThemAgainWithTheNewSet() {
        SessionRelay relay = relay();
        Recorder signal = new Recorder();
        childSays(relay, signal, layers(3), 0);
        runUntil(relay, signal, 30 * MS);
        childSays(relay, signal, layers(1), 30 * MS);
        runUntil(relay, signal, 1_000 * MS);
        assertThat(signal.sent).extracting(Sent::atNanos).containsExactly(0L, 25 * MS, 30 * MS, 55 * MS, 80 * MS);
        assertThat(signal.sent.subList(2, 5)).allSatisfy(s -> assertThat(s.held()).isEqualTo(layers(1)));
    }

    @Test
    void whenTheTreeMovesTheFormerParentHearsTheEmptySetThreeTimesAndTheNewOneTheSetThreeTimes() {
        Recorder signal = new Recorder();
        SessionRelay relay = holding(signal, layers(2), 100 * MS);
        NodeId moved = NodeId.ofName("q");
        signal.parent = moved;
        relay.sync(signal, 100 * MS, REFRESH);
        runUntil(relay, signal, 1_000 * MS);
        assertThat(signal.sent).filteredOn(x -> x.to().equals(PARENT)).extracting(Sent::atNanos)
                .containsExactly(100 * MS, 125 * MS, 150 * MS);
        assertThat(signal.sent).filteredOn(x -> x.to().equals(PARENT)).allSatisfy(x -> assertThat(x.held().isEmpty()).isTrue());
        assertThat(signal.sent).filteredOn(x -> x.to().equals(moved)).extracting(Sent::atNanos)
                .containsExactly(100 * MS, 125 * MS, 150 * MS);
        assertThat(signal.sent).filteredOn(x -> x.to().equals(moved)).allSatisfy(x -> assertThat(x.held()).isEqualTo(layers(2)));

        // Moved back before those repeats are done: the parent it returns to is never told the empty set after its set.
        signal.sent.clear();
        signal.parent = PARENT;
        signal.now = 1_000 * MS;
        relay.sync(signal, 1_000 * MS, REFRESH);
        signal.parent = moved;
        signal.now = 1_010 * MS;
        relay.sync(signal, 1_010 * MS, REFRESH);
        runUntil(relay, signal, 2_000 * MS);
        Sent lastToMoved = signal.sent.stream().filter(x -> x.to().equals(moved)).reduce((a, c) -> c).orElseThrow();
        assertThat(lastToMoved.held()).as("what q heard last: %s", signal.sent).isEqualTo(layers(2));
    }

    /**
     * On simulated nodes, the link from a receiver to its relay losing 40% of what it carries: a
     * receiver's leave stops the relay's copies within 60 ms in nearly every seed (a single prune,
     * lost in 40% of them, would leave them flowing until the child timeout of 3.5 s).
     */
    @Test
    void behindALossyLinkALeaveTakesEffectWithinTheRepeats() {
        int seeds = 20;
        long prompt = java.util.stream.LongStream.rangeClosed(1, seeds)
                .filter(seed -> PruneDelayExperiment.pruneDelayMillis(seed, 0.4) <= 60).count();
        // Three copies are all lost in 6.4% of leaves at 40% loss; one is lost in 40%.
        assertThat(prompt).as("leaves that took effect within 60 ms, of %d seeds", seeds).isGreaterThanOrEqualTo(17);
    }
}

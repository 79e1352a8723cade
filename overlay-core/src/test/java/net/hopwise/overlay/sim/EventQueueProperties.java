package net.hopwise.overlay.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The event heap against a plain priority queue of (time, sequence): any interleaving of scheduling
 * and running, with many ties, growth past the initial arrays and slots reused, yields the same
 * actions in the same order, and draining hands back exactly the pending ones.
 */
class EventQueueProperties {
    private record Entry(long time, long sequence, Action action) {}

    /** A distinct action per scheduling, so that identity tells them apart. */
    private record Numbered(long number) implements Action {
        @Override
        public void run(long nowNanos) {}
    }

    @Property(tries = 200)
    void runsWhatAReferenceHeapRunsInTheSameOrder(@ForAll long seed, @ForAll @IntRange(min = 1, max = 5000) int operations) {
        SplittableRandom random = new SplittableRandom(seed);
        EventQueue queue = new EventQueue();
        PriorityQueue<Entry> reference = new PriorityQueue<>(
                Comparator.comparingLong(Entry::time).thenComparingLong(Entry::sequence));
        long sequence = 0;
        long clock = 0;
        for (int k = 0; k < operations; k++) {
            // Bursts of scheduling grow the queue past its initial 1024 entries; polls free slots for reuse.
            if (reference.isEmpty() || random.nextInt(100) < (k % 3000 < 1500 ? 70 : 40)) {
                long time = clock + random.nextInt(20); // few distinct instants: many ties
                Action action = new Numbered(sequence);
                queue.add(time, sequence, action);
                reference.add(new Entry(time, sequence, action));
                sequence++;
            } else {
                Entry expected = reference.poll();
                assertThat(queue.headTime()).isEqualTo(expected.time());
                assertThat(queue.poll()).isSameAs(expected.action());
                clock = expected.time();
            }
            assertThat(queue.size()).isEqualTo(reference.size());
        }
        Set<Action> pending = new HashSet<>();
        reference.forEach(e -> pending.add(e.action()));
        List<Action> drained = List.of(queue.drain());
        assertThat(drained).hasSize(pending.size());
        assertThat(new HashSet<>(drained)).isEqualTo(pending);
        assertThat(queue.isEmpty()).isTrue();
    }
}

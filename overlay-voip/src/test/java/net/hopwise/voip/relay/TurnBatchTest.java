package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * A turn's items reach the other loop in one task, in the order they were added; what cannot be
 * handed over is discarded, never lost silently. Both loops are queues the test runs by hand.
 */
class TurnBatchTest {
    /** A loop's task queue, run when the test says. */
    private static final class ManualLoop implements Executor {
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        boolean refusing;

        @Override
        public void execute(Runnable task) {
            if (refusing) {
                throw new RejectedExecutionException("shutting down");
            }
            tasks.add(task);
        }

        /** Runs the tasks queued now and those they queue: one turn's worth and what follows it. */
        void runAll() {
            while (!tasks.isEmpty()) {
                tasks.poll().run();
            }
        }
    }

    private final ManualLoop phones = new ManualLoop();
    private final ManualLoop node = new ManualLoop();
    private final List<List<Integer>> taken = new ArrayList<>();
    private final List<Integer> discarded = new ArrayList<>();
    private final TurnBatch<Integer> batch = new TurnBatch<>(phones, node, b -> taken.add(List.copyOf(b)),
            discarded::add);

    @Test
    void oneTurnsItemsReachTheOtherLoopInOneTaskInOrder() {
        for (int i = 0; i < 6; i++) {
            batch.add(i);
        }
        assertThat(phones.tasks).as("one end-of-turn task, however many items").hasSize(1);
        assertThat(node.tasks).isEmpty();

        phones.runAll();
        assertThat(node.tasks).as("one task for the other loop").hasSize(1);
        assertThat(taken).isEmpty();

        node.runAll();
        assertThat(taken).containsExactly(List.of(0, 1, 2, 3, 4, 5));
        assertThat(batch.handOvers()).isEqualTo(1);
        assertThat(discarded).isEmpty();
    }

    @Test
    void itemsAddedAfterTheTurnEndedLeaveInTheNextBatch() {
        batch.add(1);
        phones.runAll();
        batch.add(2);
        batch.add(3);
        // The first batch is still queued on the node's loop while the next turn gathers.
        assertThat(node.tasks).hasSize(1);
        phones.runAll();
        node.runAll();
        assertThat(taken).containsExactly(List.of(1), List.of(2, 3));
        assertThat(batch.handOvers()).isEqualTo(2);
    }

    @Test
    void aTurnThatGatheredNothingHandsNothingOver() {
        phones.runAll();
        node.runAll();
        assertThat(taken).isEmpty();
        assertThat(batch.handOvers()).isZero();
    }

    @Test
    void whatTheTakingLoopRefusesIsDiscarded() {
        batch.add(1);
        batch.add(2);
        node.refusing = true;
        phones.runAll();
        assertThat(discarded).containsExactly(1, 2);
        assertThat(taken).isEmpty();
        // The batch that failed is not kept: the next turn starts empty.
        node.refusing = false;
        batch.add(3);
        phones.runAll();
        node.runAll();
        assertThat(taken).containsExactly(List.of(3));
    }

    @Test
    void anItemTheGatheringLoopCannotEndATurnForIsDiscardedAtOnce() {
        phones.refusing = true;
        batch.add(7);
        assertThat(discarded).containsExactly(7);
        phones.refusing = false;
        batch.add(8);
        phones.runAll();
        node.runAll();
        assertThat(taken).containsExactly(List.of(8));
    }
}

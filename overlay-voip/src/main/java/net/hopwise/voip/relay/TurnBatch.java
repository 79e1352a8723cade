package net.hopwise.voip.relay;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Items gathered on one event loop during one turn and handed to another loop in one task. A packet
 * handed over alone costs the receiving loop a task and, when it sleeps, a wake-up (a system call on
 * each side); a turn that read a burst of a thousand phones' packets hands them all for the price of
 * one. The first item of a turn queues a task on the gathering loop, which Netty runs after the reads
 * and tasks in progress, so the batch leaves at the end of the turn that made it, never later.
 *
 * <p>{@link #add} runs on the gathering loop only; the batch is handed to {@code taker} on the other
 * loop, where it is the taker's own. An item that cannot be handed over (a loop shutting down) goes to
 * {@code discard}, which releases what it holds.
 */
final class TurnBatch<T> {
    private final Executor gathering;
    private final Executor taking;
    private final Consumer<List<T>> taker;
    private final Consumer<T> discard;
    private final Runnable endOfTurn = this::endOfTurn;
    private ArrayList<T> items = new ArrayList<>();
    private long handOvers;

    TurnBatch(Executor gathering, Executor taking, Consumer<List<T>> taker, Consumer<T> discard) {
        this.gathering = gathering;
        this.taking = taking;
        this.taker = taker;
        this.discard = discard;
    }

    void add(T item) {
        if (items.isEmpty()) {
            try {
                gathering.execute(endOfTurn);
            } catch (RejectedExecutionException e) {
                discard.accept(item);
                return;
            }
        }
        items.add(item);
    }

    private void endOfTurn() {
        ArrayList<T> batch = items;
        if (batch.isEmpty()) {
            return;
        }
        // Sized as this turn's: the next turn of a loaded relay is about as large.
        items = new ArrayList<>(batch.size());
        handOvers++;
        try {
            taking.execute(() -> taker.accept(batch));
        } catch (RejectedExecutionException e) {
            batch.forEach(discard);
        }
    }

    /** Batches handed over so far; read on the gathering loop. */
    long handOvers() {
        return handOvers;
    }
}

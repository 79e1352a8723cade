package net.hopwise.overlay.sim;

import java.util.Objects;

/**
 * The one pending wake-up of a sans-IO machine driven by the simulator. The owner calls
 * {@link #update} with the machine's next deadline after every input; a wake-up is scheduled only
 * when the deadline moved earlier than the pending one, and a wake-up that was superseded does
 * nothing, so a machine whose deadline moves on every packet costs one scheduled action per
 * change of mind at most, and none is ever cancelled in the queue.
 */
public final class AgentTimer {
    private final Simulator simulator;
    private final Action onDue;
    private final int traceSubject;
    private long at = Long.MAX_VALUE;
    private long token;

    /**
     * @param onDue runs the machine's timer; it should call {@link #update} again afterwards
     * @param traceSubject the number recorded in the trace when the timer fires
     */
    public AgentTimer(Simulator simulator, int traceSubject, Action onDue) {
        this.simulator = Objects.requireNonNull(simulator, "simulator");
        this.onDue = Objects.requireNonNull(onDue, "onDue");
        this.traceSubject = traceSubject;
    }

    /** Makes sure a wake-up is pending at or before {@code deadlineNanos} ({@link Long#MAX_VALUE}: none needed). */
    public void update(long deadlineNanos) {
        if (deadlineNanos == Long.MAX_VALUE || deadlineNanos >= at) {
            return;
        }
        at = Math.max(deadlineNanos, simulator.now());
        long mine = ++token;
        simulator.schedule(at, now -> fire(mine, now));
    }

    /** Forgets the pending wake-up. */
    public void cancel() {
        token++;
        at = Long.MAX_VALUE;
    }

    private void fire(long mine, long nowNanos) {
        if (mine != token) {
            return;
        }
        at = Long.MAX_VALUE;
        simulator.trace().record(TraceKind.TIMER, nowNanos, traceSubject, 1);
        onDue.run(nowNanos);
    }
}

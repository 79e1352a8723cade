package net.hopwise.overlay.node;

/**
 * One protocol machine's share of a node's timer: when it is next due, and what it does then. The
 * engine runs each step on its own, so that a fault in one never keeps the others from running, and
 * holds a step that failed back for {@link #FAULT_HOLD_NANOS}: a machine that throws before it moves
 * its own deadline would otherwise stay due and spin the event loop, counting one fault per turn.
 */
abstract class TimedStep {
    /** One millisecond: far below any protocol timer's scale, and a loop turn a thousand times shorter is no spin. */
    static final long FAULT_HOLD_NANOS = 1_000_000L;

    private final String name;
    private long heldUntilNanos = Long.MIN_VALUE;

    TimedStep(String name) {
        this.name = name;
    }

    /** When the machine next wants to run; Long.MAX_VALUE if never. */
    abstract long deadlineNanos();

    /** Runs what is due at {@code nowNanos}. */
    abstract void run(long nowNanos);

    /** The step's deadline, no earlier than the end of a hold after a fault. */
    final long nextDeadlineNanos() {
        long deadline = deadlineNanos();
        return deadline < heldUntilNanos ? heldUntilNanos : deadline;
    }

    /** Runs the step if it is due and not held; a fault is recorded and holds the step back. */
    final void runIfDue(long nowNanos, ProtocolFaults faults) {
        if (nowNanos < heldUntilNanos || deadlineNanos() > nowNanos) {
            return;
        }
        try {
            run(nowNanos);
        } catch (RuntimeException e) {
            heldUntilNanos = nowNanos + FAULT_HOLD_NANOS;
            faults.record("the " + name + " timer", e, nowNanos);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}

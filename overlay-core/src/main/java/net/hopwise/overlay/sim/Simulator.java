package net.hopwise.overlay.sim;

/**
 * The discrete-event engine: a virtual clock and the actions due on it.
 *
 * <p>Actions run in order of time, and actions due at the same instant in the order they were
 * scheduled, so a run depends only on what was scheduled, never on hashing, identity or threads.
 * Virtual time starts at {@link #START_NANOS} rather than 0 so that protocol code that treats 0 as
 * "never" sees ordinary instants.
 *
 * <p>Single-threaded: everything runs on the caller's thread inside {@link #runUntil}.
 */
public final class Simulator {
    /** One virtual second after the epoch: protocol machines may use 0 as "not yet". */
    public static final long START_NANOS = 1_000_000_000L;

    private final EventQueue queue = new EventQueue();
    private final Trace trace = new Trace();
    private long now = START_NANOS;
    private long sequence;
    private long executed;

    public long now() {
        return now;
    }

    public Trace trace() {
        return trace;
    }

    /** Actions executed so far. */
    public long eventsExecuted() {
        return executed;
    }

    /** Actions scheduled and not yet run: the engine's memory in flight. */
    public int pending() {
        return queue.size();
    }

    /**
     * Runs {@code action} at {@code atNanos}; an instant in the past means "now, after what is
     * already due now".
     */
    public void schedule(long atNanos, Action action) {
        queue.add(Math.max(atNanos, now), sequence++, action);
    }

    /** Runs {@code action} {@code delayNanos} from now. */
    public void after(long delayNanos, Action action) {
        schedule(now + delayNanos, action);
    }

    /** Runs every action due up to and including {@code deadlineNanos}, then sets the clock to it. */
    public void runUntil(long deadlineNanos) {
        while (!queue.isEmpty() && queue.headTime() <= deadlineNanos) {
            now = queue.headTime();
            Action action = queue.poll();
            executed++;
            action.run(now);
        }
        if (deadlineNanos > now) {
            now = deadlineNanos;
        }
    }

    /** Runs for {@code nanos} of virtual time. */
    public void runFor(long nanos) {
        runUntil(now + nanos);
    }

    /** Drops every pending action without running it, handing each to {@code discarded}. */
    void clear(java.util.function.Consumer<Action> discarded) {
        for (Action a : queue.drain()) {
            discarded.accept(a);
        }
    }
}

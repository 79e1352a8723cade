package net.hopwise.overlay.testing;

import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import net.hopwise.overlay.sim.AgentTimer;
import net.hopwise.overlay.sim.Simulator;

/**
 * The timer of one sans-IO machine (a node engine, a router, a link monitor) in a test harness that
 * runs on a {@link Simulator}: one pending wake-up at the machine's next deadline, as the simulator's
 * nodes keep theirs.
 *
 * <p>The harness calls {@link #wake} after every input it gives the machine, and for every machine
 * when a run starts, since a test may have called one directly in between. A wake-up whose deadline
 * has since moved later only re-arms.
 *
 * <p>{@code originNanos} is the simulator instant the harness calls 0: a harness whose tests count
 * time from 0 passes {@link Simulator#START_NANOS}, one that shows the simulator's clock passes 0.
 */
public final class MachineTimer {
    private final Simulator simulator;
    private final long originNanos;
    private final LongSupplier deadline;
    private final LongConsumer fire;
    private final AgentTimer timer;

    /**
     * @param deadline the machine's next deadline on the harness's clock; MAX_VALUE when none
     *     (or when the machine is down)
     * @param fire runs the machine's timer at an instant of the harness's clock
     */
    public MachineTimer(Simulator simulator, long originNanos, int traceSubject, LongSupplier deadline,
            LongConsumer fire) {
        this.simulator = simulator;
        this.originNanos = originNanos;
        this.deadline = deadline;
        this.fire = fire;
        this.timer = new AgentTimer(simulator, traceSubject, now -> due());
    }

    /** Makes sure a wake-up is pending at the machine's deadline. */
    public void wake() {
        long d = deadline.getAsLong();
        if (d < Long.MAX_VALUE - originNanos) {
            timer.update(originNanos + d);
        }
    }

    /** Forgets the pending wake-up: the machine is gone or replaced. */
    public void cancel() {
        timer.cancel();
    }

    private void due() {
        long now = simulator.now() - originNanos;
        if (deadline.getAsLong() <= now) {
            fire.accept(now);
        }
        wake();
    }
}

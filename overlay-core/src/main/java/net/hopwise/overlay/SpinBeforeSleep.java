package net.hopwise.overlay;

import io.netty.channel.SelectStrategy;
import io.netty.util.IntSupplier;

/**
 * How an event loop waits for work: right after activity it keeps polling the sockets without
 * blocking for a short, bounded time, and only then sleeps in the kernel, as Aeron's idle strategies
 * spin before they park.
 *
 * <p>A sleeping thread pays a wake-up for the next datagram, and on a virtual machine whose idle
 * CPUs halt that wake-up (an interrupt into a halted virtual CPU) can cost more than the work. A
 * request is usually followed by its answer within tens of microseconds, so polling that long after
 * activity catches the answer without the wake-up. An idle loop never spins: the window opens only
 * when the loop has just done something (handled I/O, ran tasks, or was woken), and it closes after
 * {@code spinNanos} without any. While spinning the loop yields its CPU on every turn, so that a
 * thread waiting for that CPU runs first.
 *
 * <p>One instance per event loop; only that loop's thread calls it.
 */
final class SpinBeforeSleep implements SelectStrategy {
    private final long spinNanos;
    private long spinUntil;
    private boolean sleeping;

    SpinBeforeSleep(long spinNanos) {
        if (spinNanos <= 0) {
            throw new IllegalArgumentException("spin time must be positive, got " + spinNanos + " ns");
        }
        this.spinNanos = spinNanos;
    }

    @Override
    public int calculateStrategy(IntSupplier selectNow, boolean hasTasks) throws Exception {
        long now = System.nanoTime();
        if (hasTasks || sleeping) {
            // Work to do, or just woken from a sleep by I/O (handled in the turn that slept).
            sleeping = false;
            spinUntil = now + spinNanos;
            return selectNow.get();
        }
        if (now - spinUntil < 0) {
            int ready = selectNow.get();
            if (ready > 0) {
                spinUntil = now + spinNanos;
            } else {
                Thread.yield();
            }
            return ready;
        }
        sleeping = true;
        return SelectStrategy.SELECT;
    }
}

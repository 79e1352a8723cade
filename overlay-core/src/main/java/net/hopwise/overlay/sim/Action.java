package net.hopwise.overlay.sim;

/** Something the simulator runs at an instant of virtual time. */
@FunctionalInterface
public interface Action {
    /** Runs at virtual time {@code nowNanos}. */
    void run(long nowNanos);
}

package net.hopwise.overlay.node;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counters written on the node's thread and read from any (meters, the admin service): opaque
 * accesses make each value whole and visible to other threads without a fence on the hot path (on
 * x86 and ARM they compile to plain loads and stores), which plain long fields do not promise.
 */
final class Opaque {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private Opaque() {}

    /** Adds to a counter; only the node's thread writes, so read-then-write loses nothing. */
    static void add(long[] counts, int index, long delta) {
        LONGS.setOpaque(counts, index, (long) LONGS.getOpaque(counts, index) + delta);
    }

    static long get(long[] counts, int index) {
        return (long) LONGS.getOpaque(counts, index);
    }
}

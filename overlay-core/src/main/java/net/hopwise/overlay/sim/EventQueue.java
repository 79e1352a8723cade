package net.hopwise.overlay.sim;

import java.util.Arrays;

/**
 * Pending actions ordered by (time, sequence): a binary heap over parallel arrays, so scheduling
 * allocates nothing beyond the action itself and ties break by the order of scheduling, never by
 * identity or hash.
 *
 * <p>The heap moves only primitives: each action sits in a slot of its own from scheduling until it
 * runs, and the heap holds the slot's number. Moving the action references themselves cost a
 * garbage collector's write barrier on every step of every sift, which made the heap the largest
 * single item of a long simulation's profile.
 */
final class EventQueue {
    private long[] times = new long[1024];
    private long[] sequences = new long[1024];
    private int[] slotOf = new int[1024];
    /** Actions by slot; a slot is free while its entry is null. */
    private Action[] actions = new Action[1024];
    /** Free slots, a stack: the last freed is reused first, so the slots in use stay few and warm. */
    private int[] free = new int[1024];
    private int freeCount;
    private int slotsUsed;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    long headTime() {
        return times[0];
    }

    void add(long time, long sequence, Action action) {
        if (size == times.length) {
            int grown = size * 2;
            times = Arrays.copyOf(times, grown);
            sequences = Arrays.copyOf(sequences, grown);
            slotOf = Arrays.copyOf(slotOf, grown);
            actions = Arrays.copyOf(actions, grown);
            free = Arrays.copyOf(free, grown);
        }
        int slot = freeCount > 0 ? free[--freeCount] : slotsUsed++;
        actions[slot] = action;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(time, sequence, times[parent], sequences[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        times[i] = time;
        sequences[i] = sequence;
        slotOf[i] = slot;
    }

    /** Removes the head; read {@link #headTime()} first. */
    Action poll() {
        int headSlot = slotOf[0];
        Action head = actions[headSlot];
        actions[headSlot] = null;
        free[freeCount++] = headSlot;
        int last = --size;
        long time = times[last];
        long sequence = sequences[last];
        int slot = slotOf[last];
        if (last > 0) {
            int i = 0;
            int half = last >>> 1;
            while (i < half) {
                int child = 2 * i + 1;
                int right = child + 1;
                if (right < last && before(times[right], sequences[right], times[child], sequences[child])) {
                    child = right;
                }
                if (!before(times[child], sequences[child], time, sequence)) {
                    break;
                }
                move(child, i);
                i = child;
            }
            times[i] = time;
            sequences[i] = sequence;
            slotOf[i] = slot;
        }
        return head;
    }

    /** Every pending action, in no particular order; the queue is emptied. */
    Action[] drain() {
        Action[] pending = new Action[size];
        for (int i = 0; i < size; i++) {
            pending[i] = actions[slotOf[i]];
        }
        Arrays.fill(actions, null);
        size = 0;
        freeCount = 0;
        slotsUsed = 0;
        return pending;
    }

    private void move(int from, int to) {
        times[to] = times[from];
        sequences[to] = sequences[from];
        slotOf[to] = slotOf[from];
    }

    private static boolean before(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }
}

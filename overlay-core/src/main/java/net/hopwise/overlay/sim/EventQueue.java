package net.hopwise.overlay.sim;

import java.util.Arrays;

/**
 * Pending actions ordered by (time, sequence): a binary heap over parallel arrays, so scheduling
 * allocates nothing beyond the action itself and ties break by the order of scheduling, never by
 * identity or hash.
 */
final class EventQueue {
    private long[] times = new long[1024];
    private long[] sequences = new long[1024];
    private Action[] actions = new Action[1024];
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
            actions = Arrays.copyOf(actions, grown);
        }
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
        actions[i] = action;
    }

    /** Removes the head; read {@link #headTime()} first. */
    Action poll() {
        Action head = actions[0];
        int last = --size;
        long time = times[last];
        long sequence = sequences[last];
        Action action = actions[last];
        actions[last] = null;
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
            actions[i] = action;
        }
        return head;
    }

    /** Every pending action, in no particular order; the queue is emptied. */
    Action[] drain() {
        Action[] pending = Arrays.copyOf(actions, size);
        Arrays.fill(actions, 0, size, null);
        size = 0;
        return pending;
    }

    private void move(int from, int to) {
        times[to] = times[from];
        sequences[to] = sequences[from];
        actions[to] = actions[from];
    }

    private static boolean before(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }
}

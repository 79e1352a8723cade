package net.hopwise.multicast;

import java.util.Arrays;

/**
 * Which origins (by their small index) are members of which group, in primitive arrays: a view of a
 * million node memberships must fit a few tens of megabytes, and boxed maps of sets cost about ten
 * times the 12 bytes a single-member group costs here. An open-addressing table from group id (0 is
 * no group's, so it marks a free slot) to either the one origin of the group (the common case: a
 * value of 0 or more) or, as -(slot + 1), a list of origins in {@link #lists}, whose element 0 is its
 * length. An origin appears once per record that lists the group (an origin's records may overlap
 * while a restarted node replaces the records of its previous life), so adds and removes pair up.
 * Not thread-safe: {@link MembershipView} guards it.
 */
final class GroupMemberIndex {
    private static final int MIN_CAPACITY = 16;

    private long[] keys = new long[MIN_CAPACITY];
    private int[] values = new int[MIN_CAPACITY];
    private int size;
    private int[][] lists = new int[4][];
    /** Free slots of {@link #lists}, as a stack. */
    private int[] freeLists = new int[4];
    private int freeCount;
    private int listCount;
    private long memberships;

    /** Adds one listing of {@code origin} as a member of {@code group}; returns whether the group's member set grew. */
    boolean add(long group, int origin) {
        memberships++;
        int slot = find(group);
        if (keys[slot] == 0) {
            keys[slot] = group;
            values[slot] = origin;
            // Three quarters full at most: linear probing over mixed keys stays short, and a million
            // groups fit 2^21 slots (25 MB) rather than 2^22.
            if (++size * 4L > keys.length * 3L) {
                rehash(keys.length * 2);
            }
            return true;
        }
        int v = values[slot];
        int[] list;
        int li;
        if (v >= 0) {
            li = newList();
            list = new int[] {1, v, 0, 0};
            lists[li] = list;
            values[slot] = -(li + 1);
        } else {
            li = -v - 1;
            list = lists[li];
        }
        boolean grew = indexOf(list, origin) < 0;
        int n = list[0];
        if (n + 1 >= list.length) {
            list = Arrays.copyOf(list, list.length * 2);
            lists[li] = list;
        }
        list[n + 1] = origin;
        list[0] = n + 1;
        return grew;
    }

    /** Removes one listing; returns whether the group's member set shrank (false when it was not listed). */
    boolean remove(long group, int origin) {
        int slot = find(group);
        if (keys[slot] == 0) {
            return false;
        }
        int v = values[slot];
        if (v >= 0) {
            if (v != origin) {
                return false;
            }
            memberships--;
            delete(slot);
            return true;
        }
        int li = -v - 1;
        int[] list = lists[li];
        int at = indexOf(list, origin);
        if (at < 0) {
            return false;
        }
        memberships--;
        int n = list[0];
        list[at] = list[n];
        list[0] = --n;
        if (n == 1) {
            values[slot] = list[1];
            lists[li] = null;
            pushFree(li);
        }
        return indexOf(list, origin) < 0;
    }

    /**
     * The distinct origins of a group, or an empty array.
     */
    int[] origins(long group) {
        int slot = find(group);
        if (keys[slot] == 0) {
            return new int[0];
        }
        int v = values[slot];
        if (v >= 0) {
            return new int[] {v};
        }
        int[] list = lists[-v - 1];
        return Arrays.stream(list, 1, list[0] + 1).distinct().toArray();
    }

    /** Calls {@code action} with every group that has a member. */
    void forEachGroup(java.util.function.LongConsumer action) {
        for (long k : keys) {
            if (k != 0) {
                action.accept(k);
            }
        }
    }

    int groups() {
        return size;
    }

    /** Listings held: an origin's membership of a group counted once per record that lists it. */
    long memberships() {
        return memberships;
    }

    private static int indexOf(int[] list, int origin) {
        for (int i = 1; i <= list[0]; i++) {
            if (list[i] == origin) {
                return i;
            }
        }
        return -1;
    }

    private int newList() {
        if (freeCount > 0) {
            return freeLists[--freeCount];
        }
        if (listCount == lists.length) {
            lists = Arrays.copyOf(lists, lists.length * 2);
        }
        return listCount++;
    }

    private void pushFree(int li) {
        if (freeCount == freeLists.length) {
            freeLists = Arrays.copyOf(freeLists, freeLists.length * 2);
        }
        freeLists[freeCount++] = li;
    }

    private int find(long group) {
        int mask = keys.length - 1;
        int i = hash(group) & mask;
        while (keys[i] != 0 && keys[i] != group) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private static int hash(long group) {
        // Group ids are hash outputs already, but ids made by hand (tests, tools) are not: mix them.
        long h = group * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** Backward-shift deletion: keeps every probe chain whole without tombstones. */
    private void delete(int slot) {
        int mask = keys.length - 1;
        int hole = slot;
        int i = (slot + 1) & mask;
        while (keys[i] != 0) {
            int home = hash(keys[i]) & mask;
            // Move the entry into the hole when its home does not lie cyclically in (hole, i].
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                keys[hole] = keys[i];
                values[hole] = values[i];
                hole = i;
            }
            i = (i + 1) & mask;
        }
        keys[hole] = 0;
        values[hole] = 0;
        size--;
        if (keys.length > MIN_CAPACITY && size * 8 < keys.length) {
            rehash(keys.length / 2);
        }
    }

    private void rehash(int capacity) {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[capacity];
        values = new int[capacity];
        int mask = capacity - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            long k = oldKeys[j];
            if (k != 0) {
                int i = hash(k) & mask;
                while (keys[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = k;
                values[i] = oldValues[j];
            }
        }
    }
}

package net.hopwise.multicast;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** A node's counts per group, written on the node's thread and read from any. */
final class GroupCounters {
    /**
     * Groups counted at most: a relay counts every group flowing through it, and the bound keeps
     * forged groups from growing the table; groups past it go uncounted.
     */
    static final int MAX_GROUPS = 4096;

    static final class Counts {
        final AtomicLong sent = new AtomicLong();
        final AtomicLong sentFragments = new AtomicLong();
        final AtomicLong delivered = new AtomicLong();
        final AtomicLong forwarded = new AtomicLong();
    }

    private static final Counts UNCOUNTED = new Counts();
    private final ConcurrentHashMap<GroupId, Counts> counts = new ConcurrentHashMap<>();

    /** The group's counts; a throwaway set when the table is full and the group new. */
    Counts of(GroupId group) {
        Counts c = counts.get(group);
        if (c != null) {
            return c;
        }
        if (counts.size() >= MAX_GROUPS) {
            return new Counts();
        }
        return counts.computeIfAbsent(group, g -> new Counts());
    }

    /** The group's counts if it has any, without making them. */
    Counts peek(GroupId group) {
        return counts.getOrDefault(group, UNCOUNTED);
    }
}

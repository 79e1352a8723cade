package net.hopwise.overlay.routing;

import java.util.HashMap;
import java.util.Map;
import net.hopwise.overlay.NodeId;

/**
 * What a {@link Router} lets its neighbours make it store and flood. A separate class because it is
 * a policy against hostile neighbours, not part of the flooding protocol: the router asks it about
 * every advertisement newer than the one held, and every bound here only delays honest input.
 *
 * <p><b>Sequence window.</b> Sequences are wall-clock milliseconds (see {@link LinkStateAdvertisement}),
 * so no live origin's sequence runs far ahead of the clock. A newer copy whose sequence is beyond
 * {@link #ceiling this node's clock plus maxSequenceLead} is refused, whatever the origin, this node
 * included. That keeps every sequence any node holds or adopts below 2^62, so no input can exhaust
 * the sequence space: the bounded sequence space of OSPF, with a maximum that moves with the clock
 * instead of a wrap. A restarted origin starts at its clock, so it is inside the window however long
 * its previous life was; and since a forged copy is inside the window too, the real origin can always
 * answer it with a higher sequence that every node accepts (see {@link Router}).
 *
 * <p><b>Rates.</b> Per {@code advertisementLimitInterval}, at most maxAdvertisementsPerNeighbour newer
 * advertisements are taken from one neighbour, and at most maxAdvertisementsPerOrigin newer versions
 * of one origin from all neighbours but the origin itself (a neighbour speaking for itself is the
 * authority on its own advertisement, so a forger cannot use up the budget that the real origin needs
 * to win back). Fixed windows, started by the first advertisement after the previous one ended.
 *
 * <p><b>Signature checks.</b> A forged copy never reaches those limits, so with signed link state the
 * checks that admit nothing (a forgery, or a genuine copy refused for a limit after its check) have
 * windows of their own, per neighbour: while one is full the copies it covers are refused unchecked and
 * not acknowledged (an honest neighbour resends them). Not the admission windows, so that such checks
 * never cost a neighbour its limit for genuine copies. Per interval, with T = maxAdvertisementsPerNeighbour:
 * <ul>
 * <li>All of a neighbour's vain checks, of whatever origins, count against one window of T, the hard
 *     cap. So one neighbour costs at most 2T checks an interval: T in vain and at most T of copies it
 *     had admitted; by default 512 vain checks a second, under 50 ms of one core at 86 µs a check.
 * <li>The first S origins ({@link #trackedOrigins}: min(16, T/2), at least 1) whose copies from that
 *     neighbour fail in the interval also get a window each of w checks ({@link #vainChecksPerOrigin}:
 *     T/(2S), at least 1; 16 of each by default), which holds back that origin's copies only.
 * </ul>
 * Why two levels: with the cap alone, an honest neighbour relaying an origin this node no longer admits
 * (a revocation it has not heard of yet) faster than T a second would use the cap up and hold back its
 * genuine copies of every other origin. Now such an origin costs w checks an interval, and since
 * S·w ≤ T/2 (for T ≥ 2), up to S such origins leave the cap unreached. A window per origin alone
 * would be no bound: a forger invents origin ids at will. So the origins beyond the first S of an
 * interval get no window of their own and only share the cap, and a neighbour's state is at most S
 * origins, dropped when its window starts anew or it goes down. Only a neighbour whose copies of more
 * than S origins fail in one interval (a forger, or a relay of that many origins this node refuses)
 * can reach the cap, and then it holds back only its own copies. All of one neighbour's windows start
 * and end together, so an origin's window never straddles two of the cap's. No window of vain checks
 * covers an origin's copies from every neighbour: a forger would fill it and hold back what the others
 * relay of that origin.
 */
final class AdvertisementAdmission {
    /** Far beyond any wall clock (146 million years of milliseconds), far below 2^63. */
    static final long MAX_CEILING = 1L << 62;

    /** A fixed window and what it has taken. */
    private static final class Window {
        long startNanos;
        int taken;
    }

    /** A neighbour's window of vain checks and, inside it, the counts of its first origins to fail. */
    private static final class VainChecks {
        long startNanos;
        int taken;
        final Map<NodeId, Integer> byOrigin = new HashMap<>();
    }

    /** The most origins that get a window of vain checks of their own per neighbour; see the class comment. */
    private static final int MAX_TRACKED_ORIGINS = 16;

    private final long clockBaseMillis;
    private final long startNanos;
    private final long leadMillis;
    private final long intervalNanos;
    private final int perNeighbour;
    private final int perOrigin;
    private final int trackedOrigins;
    private final int vainPerOrigin;
    private final Map<NodeId, Window> neighbours = new HashMap<>();
    private final Map<NodeId, Window> origins = new HashMap<>();
    /** Per neighbour, the signature checks that admitted nothing (see the class comment). */
    private final Map<NodeId, VainChecks> wasted = new HashMap<>();

    private long beyondCeiling;
    private long neighbourLimited;
    private long originLimited;
    private long verificationLimited;

    /**
     * @param clockBaseMillis the wall clock in milliseconds at {@code startNanos}, at most {@link #MAX_CEILING}
     */
    AdvertisementAdmission(RoutingConfig config, long clockBaseMillis, long startNanos) {
        this.clockBaseMillis = clockBaseMillis;
        this.startNanos = startNanos;
        leadMillis = config.maxSequenceLead().toMillis();
        intervalNanos = config.advertisementLimitInterval().toNanos();
        perNeighbour = config.maxAdvertisementsPerNeighbour();
        perOrigin = config.maxAdvertisementsPerOrigin();
        trackedOrigins = trackedOrigins(config);
        vainPerOrigin = vainChecksPerOrigin(config);
    }

    /** S of the class comment: how many origins per neighbour and interval get a window of vain checks. */
    static int trackedOrigins(RoutingConfig config) {
        return Math.max(1, Math.min(MAX_TRACKED_ORIGINS, config.maxAdvertisementsPerNeighbour() / 2));
    }

    /** w of the class comment: the vain checks one tracked origin's copies from one neighbour may cost an interval. */
    static int vainChecksPerOrigin(RoutingConfig config) {
        return Math.max(1, config.maxAdvertisementsPerNeighbour() / (2 * trackedOrigins(config)));
    }

    /** The highest sequence a newer copy may carry now: the clock plus maxSequenceLead, at most {@link #MAX_CEILING}. */
    long ceiling(long nowNanos) {
        // Elapsed nanoseconds fit 2^63, so milliseconds plus a lead of at most ten years cannot overflow.
        long ahead = Math.max(0, nowNanos - startNanos) / 1_000_000L + leadMillis;
        return ahead >= MAX_CEILING - clockBaseMillis ? MAX_CEILING : clockBaseMillis + ahead;
    }

    /**
     * Whether to take a copy of {@code origin}, newer than the one held, from neighbour {@code from};
     * charges the limits if so. A copy of this node's own advertisement passes {@code origin == null}:
     * only the neighbour's limit applies, so the answer to a forged copy is never held back by the forger.
     */
    boolean admit(NodeId from, NodeId origin, long sequence, long nowNanos) {
        if (sequence > ceiling(nowNanos)) {
            beyondCeiling++;
            return false;
        }
        Window n = current(neighbours, from, nowNanos);
        if (n.taken >= perNeighbour) {
            neighbourLimited++;
            return false;
        }
        if (origin != null && !origin.equals(from)) {
            Window o = current(origins, origin, nowNanos);
            if (o.taken >= perOrigin) {
                originLimited++;
                return false;
            }
            o.taken++;
        }
        n.taken++;
        return true;
    }

    /**
     * Whether a copy of {@code origin} from {@code from}, newer than the one held, may have its
     * signature checked: its sequence inside the window, the windows that would admit it not full (a
     * check of a copy {@link #admit} then refuses would be spent for nothing), and neither the
     * neighbour's window of checks that admitted nothing nor the origin's within it full. Charges
     * nothing; a check that then admits nothing is charged by {@link #checkedInVain}.
     */
    boolean mayVerify(NodeId from, NodeId origin, long sequence, long nowNanos) {
        if (sequence > ceiling(nowNanos)) {
            beyondCeiling++;
            return false;
        }
        if (full(neighbours, from, perNeighbour, nowNanos)) {
            neighbourLimited++;
            return false;
        }
        if (!origin.equals(from) && full(origins, origin, perOrigin, nowNanos)) {
            originLimited++;
            return false;
        }
        VainChecks v = vain(from, nowNanos);
        if (v.taken >= perNeighbour || v.byOrigin.getOrDefault(origin, 0) >= vainPerOrigin) {
            verificationLimited++;
            return false;
        }
        return true;
    }

    /**
     * A newer copy of {@code origin} from {@code from} had its signature checked and was not taken:
     * forged, or refused for a limit. It counts against the neighbour's windows, never against one
     * that covers the origin's copies from other neighbours, which a forger must not be able to spend.
     */
    void checkedInVain(NodeId from, NodeId origin, long nowNanos) {
        VainChecks v = vain(from, nowNanos);
        v.taken++;
        if (v.byOrigin.size() < trackedOrigins || v.byOrigin.containsKey(origin)) {
            v.byOrigin.merge(origin, 1, Integer::sum);
        }
    }

    /** Newer copies refused unchecked because a window of vain checks that covers them was full. */
    long verificationLimited() {
        return verificationLimited;
    }

    /** The neighbour went down: a new link starts with a fresh window. */
    void forgetNeighbour(NodeId neighbour) {
        neighbours.remove(neighbour);
        wasted.remove(neighbour);
    }

    /** The origin is no longer held, so its window need not be either. */
    void forgetOrigin(NodeId origin) {
        origins.remove(origin);
    }

    /** Newer copies refused because their sequence was beyond the ceiling. */
    long beyondCeiling() {
        return beyondCeiling;
    }

    /** Newer copies refused because their neighbour had used up its interval's limit. */
    long neighbourLimited() {
        return neighbourLimited;
    }

    /** Newer copies refused because their origin had used up its interval's limit. */
    long originLimited() {
        return originLimited;
    }

    /** How many per-origin windows are held: never more than the origins the database held. */
    int originWindows() {
        return origins.size();
    }

    /** How many origins have a window of vain checks, over all neighbours: at most {@link #trackedOrigins} each. */
    int vainCheckOrigins() {
        int count = 0;
        for (VainChecks v : wasted.values()) {
            count += v.byOrigin.size();
        }
        return count;
    }

    /** How many neighbours have a window of vain checks: only those up. */
    int vainCheckNeighbours() {
        return wasted.size();
    }

    private VainChecks vain(NodeId from, long nowNanos) {
        VainChecks v = wasted.computeIfAbsent(from, k -> new VainChecks());
        if (v.taken == 0 || nowNanos - v.startNanos >= intervalNanos) {
            v.startNanos = nowNanos;
            v.taken = 0;
            v.byOrigin.clear();
        }
        return v;
    }

    /**
     * Whether {@code key}'s window is full now, without making one: an origin a forger invents must not
     * leave a window behind.
     */
    private boolean full(Map<NodeId, Window> windows, NodeId key, int limit, long nowNanos) {
        Window w = windows.get(key);
        return w != null && w.taken >= limit && nowNanos - w.startNanos < intervalNanos;
    }

    private Window current(Map<NodeId, Window> windows, NodeId key, long nowNanos) {
        Window w = windows.computeIfAbsent(key, k -> new Window());
        if (w.taken == 0 || nowNanos - w.startNanos >= intervalNanos) {
            w.startNanos = nowNanos;
            w.taken = 0;
        }
        return w;
    }
}

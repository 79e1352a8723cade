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
 * a window of their own per neighbour, of maxAdvertisementsPerNeighbour too: while it is full, that
 * neighbour's newer copies are refused unchecked. A window of its own, not the admission window, so
 * that an honest neighbour relaying an origin this node no longer admits (a revocation it has not
 * heard of yet) loses nothing of what it relays from other origins, unless it relays more than the
 * window of such copies in one interval; then its other newer copies wait for the next interval (they
 * are not acknowledged, so it resends them). The trade-off: without it an admitted node could make
 * this node check forged signatures as fast as its link carries them.
 */
final class AdvertisementAdmission {
    /** Far beyond any wall clock (146 million years of milliseconds), far below 2^63. */
    static final long MAX_CEILING = 1L << 62;

    /** A fixed window and what it has taken. */
    private static final class Window {
        long startNanos;
        int taken;
    }

    private final long clockBaseMillis;
    private final long startNanos;
    private final long leadMillis;
    private final long intervalNanos;
    private final int perNeighbour;
    private final int perOrigin;
    private final Map<NodeId, Window> neighbours = new HashMap<>();
    private final Map<NodeId, Window> origins = new HashMap<>();
    /** Per neighbour, the signature checks that admitted nothing (see the class comment). */
    private final Map<NodeId, Window> wasted = new HashMap<>();

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
     * Whether a copy from {@code from}, newer than the one held, may have its signature checked: its
     * sequence inside the window and the neighbour's window of checks that admitted nothing not full.
     * Charges nothing; a check that then admits nothing is charged by {@link #checkedInVain}. So at most
     * maxAdvertisementsPerNeighbour checks per interval are spent in vain on one neighbour's copies,
     * whatever it sends.
     */
    boolean mayVerify(NodeId from, long sequence, long nowNanos) {
        if (sequence > ceiling(nowNanos)) {
            beyondCeiling++;
            return false;
        }
        if (current(wasted, from, nowNanos).taken >= perNeighbour) {
            verificationLimited++;
            return false;
        }
        return true;
    }

    /**
     * A newer copy from {@code from} had its signature checked and was not taken: forged, or refused
     * for a limit. It counts against the neighbour's window of such checks, never an origin's, which a
     * forger must not be able to spend.
     */
    void checkedInVain(NodeId from, long nowNanos) {
        current(wasted, from, nowNanos).taken++;
    }

    /** Newer copies refused unchecked because their neighbour had used up its window of vain checks. */
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

    private Window current(Map<NodeId, Window> windows, NodeId key, long nowNanos) {
        Window w = windows.computeIfAbsent(key, k -> new Window());
        if (w.taken == 0 || nowNanos - w.startNanos >= intervalNanos) {
            w.startNanos = nowNanos;
            w.taken = 0;
        }
        return w;
    }
}

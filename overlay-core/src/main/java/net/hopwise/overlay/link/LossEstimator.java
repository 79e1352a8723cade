package net.hopwise.overlay.link;

import java.util.Arrays;

/**
 * Inbound loss on one link from its per-link sequence numbers, by the Spines rule: over the last
 * {@value #HISTORY} loss events, {@code p = Σlost / (Σlost + Σreceived)}, where a loss event is a run
 * of consecutive missing sequence numbers and carries the packets received since the event before
 * it. The packets received since the newest event count in the denominator too, so the estimate
 * decays once loss stops instead of freezing at its last value. No event, no loss: exactly 0.
 *
 * <p>Reordering. A missing number is declared lost only once a number {@value #DECLARE_AFTER} higher
 * has arrived, so ordinary reordering never shows up as loss, not even for a moment (a reported
 * transient would travel to the peer in a hello). A later arrival that fills a declared gap within
 * the last {@value #REORDER_WINDOW} numbers un-counts it, and an event left with nothing lost is
 * removed from the history, its packets merged into the next one: deep reordering costs a short
 * over-estimate, never a lasting one, and does not crowd real events out of the history. Beyond
 * that window a late packet is counted as received but its loss stays counted. Duplicates are
 * recognised in the same window and ignored.
 *
 * <p>Numbers are u32 and compared in serial arithmetic, so they wrap. A jump forward by more than
 * {@value #MAX_GAP}, or back by more than the reorder window, is a discontinuity (the peer's counter
 * restarted), not loss: after {@value #CONFIRM_RUN} such packets in order the estimator re-bases on
 * the new numbering; until then they are ignored. {@link #resync()} re-bases at the next packet, for
 * callers that know the numbering broke (peer restart, link down).
 */
final class LossEstimator {
    /** Loss events averaged over: Spines' LOSS_HISTORY. */
    static final int HISTORY = 50;

    /** How far back a late packet can still fill a gap (one {@code long} of bits). */
    static final int REORDER_WINDOW = 64;

    /**
     * Higher numbers that must arrive before a gap counts as loss; Spines tolerates 10 (MAX_REORDER),
     * and 8 declares loss within a second even on a link that carries only hellos.
     */
    static final int DECLARE_AFTER = 8;

    /** Largest forward jump still read as lost packets rather than a renumbered peer. */
    static final int MAX_GAP = 1 << 16;

    /** Discontinuous packets in order needed before trusting a new numbering. */
    static final int CONFIRM_RUN = 8;

    // The history, oldest first; serials only grow, so lookups are binary searches.
    private final long[] eventSerial = new long[HISTORY];
    private final long[] eventReceived = new long[HISTORY];
    private final long[] eventLost = new long[HISTORY];
    private int events;
    private long nextSerial;
    private long sumReceived;
    private long sumLost;
    /** Packets received since the newest event. */
    private long runReceived;

    private boolean based;
    private int highest;
    /** Bit i set: sequence number {@code highest - i} was received. */
    private long window;
    /** Positions of the window at or after the base (1..REORDER_WINDOW). */
    private int tracked;
    /** For each declared-lost number still in the window (indexed by its low bits): its event serial. */
    private final long[] eventOfMissing = new long[REORDER_WINDOW];
    /** The newest event ends at lastDeclared and a loss declared right after it extends the event. */
    private boolean burstOpen;
    private long burstSerial;
    private int lastDeclared;

    private int strayRun;
    private int lastStray;

    private long received;
    private long lost;
    private long duplicates;
    private long late;
    private long discontinuous;

    /**
     * Feeds one received sequence number (its low 32 bits). Returns true when the loss history
     * changed (a loss declared, or one un-counted), which is when a caller may report new quality.
     */
    boolean onPacket(long sequence) {
        int s = (int) sequence;
        if (!based) {
            rebase(s);
            return false;
        }
        int d = s - highest;
        if (d > 0 && d <= MAX_GAP) {
            return advance(s, d);
        }
        if (d <= 0 && d > -REORDER_WINDOW) {
            return fill(s, -d);
        }
        return discontinuity(s);
    }

    /**
     * Forgets the sequence position (not the history): the next packet starts a new numbering. Gaps
     * not yet declared are dropped, as they may be an outage rather than loss.
     */
    void resync() {
        based = false;
        strayRun = 0;
        burstOpen = false;
    }

    /** Forgets the history too; lifetime counters stay. */
    void reset() {
        resync();
        events = 0;
        sumReceived = 0;
        sumLost = 0;
        runReceived = 0;
    }

    /** The estimate in [0, 1]; exactly 0 while no loss event is in the history. */
    double lossRate() {
        if (sumLost == 0) {
            return 0;
        }
        return (double) sumLost / (double) (sumLost + sumReceived + runReceived);
    }

    /** Distinct packets received (duplicates not counted). */
    long received() {
        return received;
    }

    /** Packets declared lost, net of late arrivals that filled their gap. */
    long lost() {
        return lost;
    }

    long duplicates() {
        return duplicates;
    }

    /** Packets too old to place: before the base, or their position already left the window. */
    long late() {
        return late;
    }

    /** Packets that jumped out of the expected numbering. */
    long discontinuous() {
        return discontinuous;
    }

    int eventsInHistory() {
        return events;
    }

    /** For tests: the running sums match the events, and no event in the history lost nothing. */
    boolean historyConsistent() {
        long r = 0;
        long l = 0;
        for (int i = 0; i < events; i++) {
            if (eventLost[i] <= 0 || eventReceived[i] < 0 || (i > 0 && eventSerial[i] <= eventSerial[i - 1])) {
                return false;
            }
            r += eventReceived[i];
            l += eventLost[i];
        }
        return r == sumReceived && l == sumLost && runReceived >= 0;
    }

    private void rebase(int s) {
        based = true;
        highest = s;
        window = 1;
        tracked = 1;
        strayRun = 0;
        burstOpen = false;
        runReceived++;
        received++;
    }

    private boolean advance(int s, int d) {
        strayRun = 0;
        boolean declared = false;
        // Pending positions that the jump pushes past the declaration threshold, lowest number first.
        for (int back = Math.min(DECLARE_AFTER, tracked) - 1; back >= Math.max(0, DECLARE_AFTER - d); back--) {
            if ((window & (1L << back)) != 0) {
                burstOpen = false;
            } else {
                declareLost(highest - back, 1, s);
                declared = true;
            }
        }
        // Numbers skipped by the jump that are already past the threshold.
        if (d > DECLARE_AFTER) {
            declareLost(highest + 1, d - DECLARE_AFTER, s);
            declared = true;
        }
        window = (d >= Long.SIZE ? 0 : window << d) | 1;
        tracked = (int) Math.min(REORDER_WINDOW, (long) tracked + d);
        highest = s;
        runReceived++;
        received++;
        return declared;
    }

    /** Declares {@code count} consecutive numbers from {@code first} lost; {@code top} is the new highest. */
    private void declareLost(int first, int count, int top) {
        int index = burstOpen && lastDeclared == first - 1 ? indexOf(burstSerial) : -1;
        if (index >= 0) {
            eventLost[index] += count;
            sumLost += count;
        } else {
            burstSerial = push(runReceived, count);
            runReceived = 0;
        }
        burstOpen = true;
        lastDeclared = first + count - 1;
        lost += count;
        // Only numbers that stay inside the window can be filled later.
        int from = top - first > REORDER_WINDOW - 1 ? top - (REORDER_WINDOW - 1) : first;
        for (int q = from; q - lastDeclared <= 0; q++) {
            eventOfMissing[q & (REORDER_WINDOW - 1)] = burstSerial;
        }
    }

    private boolean fill(int s, int back) {
        strayRun = 0;
        if (back >= tracked) {
            // Before the base: never counted either way.
            late++;
            return false;
        }
        long bit = 1L << back;
        if ((window & bit) != 0) {
            duplicates++;
            return false;
        }
        window |= bit;
        received++;
        runReceived++;
        if (back < DECLARE_AFTER) {
            return false;
        }
        if (s == lastDeclared) {
            burstOpen = false;
        }
        lost--;
        int index = indexOf(eventOfMissing[s & (REORDER_WINDOW - 1)]);
        if (index >= 0) {
            eventLost[index]--;
            sumLost--;
            if (eventLost[index] == 0) {
                remove(index);
            }
        }
        return true;
    }

    private boolean discontinuity(int s) {
        discontinuous++;
        int fromLast = s - lastStray;
        strayRun = strayRun > 0 && fromLast > 0 && fromLast <= REORDER_WINDOW ? strayRun + 1 : 1;
        lastStray = s;
        if (strayRun >= CONFIRM_RUN) {
            // A single very late packet must not move the base; a run in order is a new numbering.
            rebase(s);
        }
        return false;
    }

    private long push(long eventRecv, long eventLoss) {
        if (events == HISTORY) {
            sumReceived -= eventReceived[0];
            sumLost -= eventLost[0];
            shiftDown(0);
        }
        eventSerial[events] = nextSerial;
        eventReceived[events] = eventRecv;
        eventLost[events] = eventLoss;
        events++;
        sumReceived += eventRecv;
        sumLost += eventLoss;
        return nextSerial++;
    }

    /** Removes an event that lost nothing after all; its packets join the next event (or the run). */
    private void remove(int index) {
        if (eventSerial[index] == burstSerial) {
            burstOpen = false;
        }
        if (index + 1 < events) {
            eventReceived[index + 1] += eventReceived[index];
        } else {
            sumReceived -= eventReceived[index];
            runReceived += eventReceived[index];
        }
        shiftDown(index);
    }

    private void shiftDown(int index) {
        int tail = events - index - 1;
        System.arraycopy(eventSerial, index + 1, eventSerial, index, tail);
        System.arraycopy(eventReceived, index + 1, eventReceived, index, tail);
        System.arraycopy(eventLost, index + 1, eventLost, index, tail);
        events--;
    }

    private int indexOf(long serial) {
        int i = Arrays.binarySearch(eventSerial, 0, events, serial);
        return i >= 0 ? i : -1;
    }
}

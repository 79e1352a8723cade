package net.hopwise.overlay;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import net.hopwise.overlay.spi.DatagramStage;

/**
 * The helper thread a runtime lends one event loop for its datagram stages' work aside (see {@link
 * DatagramStage.Aside}): a sealed link's cipher runs here while the loop routes and frames the next
 * datagrams, so that on a loop that sends as fast as it can the cipher no longer adds to the loop's
 * own time per datagram. The loop calls {@link #finish()} before anything it wrote reaches the
 * socket; there it runs what the helper has not started yet itself, so the loop never waits for
 * work that nobody runs, only for the one job the helper has in hand.
 *
 * <p>Work is taken in the order handed over, by whichever thread claims it first; each job is one
 * datagram's, so the order in which jobs finish does not matter: the datagrams leave in the order the
 * loop wrote them, after {@link #finish()}.
 */
final class DatagramHelper implements DatagramStage.Aside.Lender {
    /**
     * Jobs handed over and not finished at most: a loop's batch of sends (1024) fits, so a batch is
     * handed over whole before its run is written out; more wait for the loop to finish the oldest.
     */
    static final int CAPACITY = 2048;

    private final AtomicReferenceArray<DatagramStage.Aside.Work> slots = new AtomicReferenceArray<>(CAPACITY);
    private final AtomicLong claimed = new AtomicLong();
    private final AtomicLong finished = new AtomicLong();
    /** Jobs handed over; written by the loop only. */
    private volatile long published;
    private volatile boolean sleeping;
    private volatile boolean closed;
    private final Thread thread;
    private volatile long asideJobs; // one writer, the helper

    DatagramHelper(String name) {
        thread = new Thread(this::work, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Called on the loop only. */
    @Override
    public void lend(DatagramStage.Aside.Work work) {
        long at = published;
        if (slots.get((int) (at % CAPACITY)) != null) {
            finish(); // the ring is full of work not yet done
        }
        slots.set((int) (at % CAPACITY), work);
        published = at + 1;
        if (sleeping) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Runs on the loop before it writes to the socket: returns once everything handed over so far is
     * done, running itself what the helper has not claimed.
     */
    void finish() {
        long target = published;
        while (claimed.get() < target) {
            runOne(false, target); // the loop takes what is left rather than wait for the helper
        }
        int spins = 0;
        while (finished.get() < target) {
            // only the helper's job in hand is left: short, unless the helper lost its core
            if (++spins < 100) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /** Jobs the helper ran rather than the loop, so far (exact once {@link #finish()} returned). */
    long asideJobs() {
        return asideJobs;
    }

    /** Stops the helper once the loop has nothing more to hand over. */
    void close() {
        closed = true;
        LockSupport.unpark(thread);
    }

    /** Claims and runs the next job below {@code limit}, if this thread wins it. */
    private void runOne(boolean aside, long limit) {
        long c = claimed.get();
        if (c >= limit || !claimed.compareAndSet(c, c + 1)) {
            return;
        }
        int slot = (int) (c % CAPACITY);
        DatagramStage.Aside.Work w = slots.get(slot);
        try {
            w.run(aside);
        } catch (RuntimeException | Error e) {
            // A stage's job failed: what it wrote into its datagram is harmless by the contract of
            // Aside, and the datagram leaves as it is (a receiver drops it); the loop goes on.
            System.getLogger(DatagramHelper.class.getName()).log(System.Logger.Level.WARNING,
                    "a datagram stage's work aside failed", e);
        } finally {
            if (aside) {
                asideJobs++;
            }
            slots.set(slot, null);
            finished.incrementAndGet();
        }
    }

    /** Finishes the work handed over on the calling thread, when a helper was lent to it. */
    static void finishOnThisThread() {
        if (DatagramStage.Aside.lentToThisThread() instanceof DatagramHelper h) {
            h.finish();
        }
    }

    private void work() {
        while (!closed) {
            if (claimed.get() < published) {
                runOne(true, published);
                continue;
            }
            // No spinning: on a machine with few cores a spinning helper takes the core the loop or
            // the application needs; the loop wakes it once a batch instead.
            sleeping = true;
            if (claimed.get() >= published && !closed) {
                LockSupport.park(this);
            }
            sleeping = false;
        }
    }
}

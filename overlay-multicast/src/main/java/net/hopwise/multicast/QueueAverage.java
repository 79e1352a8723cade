package net.hopwise.multicast;

/**
 * The time-weighted average length of a link's buffer over one advertising period: the {@code n} of
 * the link cost (Eq 4.7), which the thesis calls the average number of packets in the buffer; taken
 * over exactly the period an update covers, so that each update reports what the link went through
 * since the last. Sans-IO.
 */
final class QueueAverage {
    private long periodStart;
    private long lastChange;
    private int current;
    private int peak;
    private double area;

    QueueAverage(long nowNanos) {
        periodStart = nowNanos;
        lastChange = nowNanos;
    }

    /** The buffer holds {@code packets} from {@code nowNanos} on. */
    void set(int packets, long nowNanos) {
        if (nowNanos > lastChange) {
            area += (double) current * (nowNanos - lastChange);
            lastChange = nowNanos;
        }
        current = packets;
        peak = Math.max(peak, packets);
    }

    /** Whether the buffer held a packet at any time of the current period. */
    boolean hadQueue() {
        return peak > 0;
    }

    /** The average since the period began, then a new period from {@code nowNanos}. */
    double takeAverage(long nowNanos) {
        set(current, nowNanos);
        long span = nowNanos - periodStart;
        double average = span > 0 ? area / span : current;
        periodStart = nowNanos;
        area = 0;
        peak = current;
        return average;
    }

    int current() {
        return current;
    }
}

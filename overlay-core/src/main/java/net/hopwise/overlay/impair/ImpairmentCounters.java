package net.hopwise.overlay.impair;

/**
 * What an {@link ImpairmentModel} has done so far.
 *
 * @param admitted every packet handed to {@link ImpairmentModel#admit}, whatever its fate
 * @param droppedByLoss packets the loss model dropped
 * @param droppedByQueue packets that found the rate-limited queue full
 * @param duplicated packets delivered twice (each counts once here)
 * @param reordered packets held back so that later packets could overtake them
 */
public record ImpairmentCounters(
        long admitted, long droppedByLoss, long droppedByQueue, long duplicated, long reordered) {
    public static final ImpairmentCounters ZERO = new ImpairmentCounters(0, 0, 0, 0, 0);

    /** Packets dropped for any reason. */
    public long dropped() {
        return droppedByLoss + droppedByQueue;
    }

    /** Packets that got through at least once. */
    public long delivered() {
        return admitted - dropped();
    }

    /** The sum of two sets of counters, for totals over several models. */
    public ImpairmentCounters plus(ImpairmentCounters other) {
        return new ImpairmentCounters(
                admitted + other.admitted,
                droppedByLoss + other.droppedByLoss,
                droppedByQueue + other.droppedByQueue,
                duplicated + other.duplicated,
                reordered + other.reordered);
    }
}

package net.hopwise.voip.relay;

import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What becomes of a call the relay forgets: its quality goes to the meters, its record to the call
 * records file when one is configured, and then it goes to the embedder's listener, which replaces
 * neither of the others (and whose failure, counted by the relay, costs them nothing). On the relay's
 * loop, like the calls.
 */
final class CallEnds implements Consumer<CallStatistics> {
    private final RelayMeters meters;
    private final CallRecords records;
    private final double accessDelayMs;
    private Consumer<CallStatistics> listener = c -> { };

    /**
     * @param records where records go, or null when calls are not recorded
     * @param accessDelayMs the access networks' delay the meters' MOS assumes, as the records'
     */
    CallEnds(RelayMeters meters, CallRecords records, double accessDelayMs) {
        this.meters = meters;
        this.records = records;
        this.accessDelayMs = accessDelayMs;
    }

    void listener(Consumer<CallStatistics> listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    @Override
    public void accept(CallStatistics call) {
        meters.callEnded(call, accessDelayMs);
        if (records != null) {
            records.add(call);
        }
        listener.accept(call);
    }

    /** The proxy's counters with the records written and lost beside them, when calls are recorded. */
    Map<String, Long> counters(Map<String, Long> proxyCounters) {
        return counters(proxyCounters, records);
    }

    /** As {@link #counters(Map)}, before the ends exist: the relay's meters are made from these names. */
    static Map<String, Long> counters(Map<String, Long> proxyCounters, CallRecords records) {
        if (records != null) {
            proxyCounters.putAll(records.counters());
        }
        return proxyCounters;
    }

    /** Writes the records still queued, waiting for them unless {@code wait} is false; then records nothing more. */
    void close(boolean wait) {
        if (records != null) {
            records.close(wait);
        }
    }
}

package net.hopwise.examples.bench;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import net.hopwise.overlay.NodeRuntime;

/**
 * How long and how big each scenario runs, and which scenarios run.
 *
 * @param scenarios the scenarios to run
 * @param roundTripWarmup round trips done and discarded before measuring, so the JIT has compiled
 *     the path
 * @param roundTripCount round trips measured per configuration and round
 * @param roundTripRounds how many times the round-trip scenarios run one after the other; each
 *     configuration's samples of all rounds are pooled, so that one round where the scheduler placed
 *     the threads well or badly does not decide a ratio
 * @param throughputWarmup how long the senders run before the measured window opens
 * @param throughputDuration the measured window of each throughput run
 * @param throughputRounds how many times the raw and the overlay run alternate; the median run of
 *     each is reported, which keeps a burst of load from elsewhere on the machine out of the ratio
 * @param overlayNodes nodes in the memory scenario's overlay
 * @param settle how long a started overlay runs idle before its heap is measured
 * @param spinBeforeSleep the event-loop setting ({@code NodeRuntime.Builder#spinBeforeSleep}) of every
 *     runtime in the round-trip and throughput scenarios, overlay and Netty baselines alike
 */
public record BenchmarkSettings(
        Set<Scenario> scenarios,
        int roundTripWarmup,
        int roundTripCount,
        int roundTripRounds,
        Duration throughputWarmup,
        Duration throughputDuration,
        int throughputRounds,
        int overlayNodes,
        Duration settle,
        Duration spinBeforeSleep) {

    /** The scenarios {@link FoundationBenchmark} knows. */
    public enum Scenario {
        RTT,
        THROUGHPUT,
        MEMORY
    }

    /**
     * The event-loop spin of the published run, overlay and Netty baselines alike: longer than a
     * 3-hop loopback round trip here (about 60 µs), so that a node waiting for the reply to what it
     * just forwarded is still awake when it comes. The library default is no spin; the benchmark also
     * measures that.
     */
    public static final Duration PUBLISHED_SPIN = Duration.ofNanos(100_000);

    /** Payload of a round-trip message: small, so the path's fixed costs dominate. */
    public static final int ROUND_TRIP_PAYLOAD_BYTES = 64;
    /** Payload of a throughput message: one datagram, well under the overlay's fragment size. */
    public static final int THROUGHPUT_PAYLOAD_BYTES = 1000;

    public BenchmarkSettings {
        scenarios = Set.copyOf(Objects.requireNonNull(scenarios, "scenarios"));
        if (scenarios.isEmpty()) {
            throw new IllegalArgumentException("choose at least one scenario");
        }
        if (roundTripWarmup < 0 || roundTripCount < 1 || roundTripRounds < 1) {
            throw new IllegalArgumentException("round trips: warm-up must be >= 0, count and rounds >= 1");
        }
        if (throughputWarmup.isNegative() || throughputDuration.isZero() || throughputDuration.isNegative()) {
            throw new IllegalArgumentException("throughput: warm-up must be >= 0 and duration > 0");
        }
        if (throughputRounds < 1) {
            throw new IllegalArgumentException("throughput: rounds must be >= 1, got " + throughputRounds);
        }
        if (overlayNodes < 3) {
            throw new IllegalArgumentException("the memory overlay needs at least 3 nodes, got " + overlayNodes);
        }
        Objects.requireNonNull(settle, "settle");
        Objects.requireNonNull(spinBeforeSleep, "spinBeforeSleep");
    }

    /** The published run: 3 rounds of N = 20000 round trips, 3 rounds of 5 s of throughput, 50 nodes. */
    public static BenchmarkSettings full() {
        return new BenchmarkSettings(EnumSet.allOf(Scenario.class), 5_000, 20_000, 3,
                Duration.ofSeconds(1), Duration.ofSeconds(5), 3, 50, Duration.ofSeconds(3),
                PUBLISHED_SPIN);
    }

    /** A shorter run to check a change quickly; numbers are noisier. */
    public static BenchmarkSettings quick() {
        return new BenchmarkSettings(EnumSet.allOf(Scenario.class), 1_000, 5_000, 1,
                Duration.ofMillis(500), Duration.ofSeconds(2), 1, 50, Duration.ofSeconds(1),
                PUBLISHED_SPIN);
    }

    public BenchmarkSettings withScenarios(Set<Scenario> only) {
        return new BenchmarkSettings(only, roundTripWarmup, roundTripCount, roundTripRounds, throughputWarmup,
                throughputDuration, throughputRounds, overlayNodes, settle, spinBeforeSleep);
    }

    public BenchmarkSettings withRoundTrips(int warmup, int count) {
        return new BenchmarkSettings(scenarios, warmup, count, roundTripRounds, throughputWarmup,
                throughputDuration, throughputRounds, overlayNodes, settle, spinBeforeSleep);
    }

    public BenchmarkSettings withRoundTripRounds(int rounds) {
        return new BenchmarkSettings(scenarios, roundTripWarmup, roundTripCount, rounds, throughputWarmup,
                throughputDuration, throughputRounds, overlayNodes, settle, spinBeforeSleep);
    }

    public BenchmarkSettings withThroughput(Duration warmup, Duration duration, int rounds) {
        return new BenchmarkSettings(scenarios, roundTripWarmup, roundTripCount, roundTripRounds, warmup, duration,
                rounds, overlayNodes, settle, spinBeforeSleep);
    }

    public BenchmarkSettings withOverlay(int nodes, Duration settleTime) {
        return new BenchmarkSettings(scenarios, roundTripWarmup, roundTripCount, roundTripRounds, throughputWarmup,
                throughputDuration, throughputRounds, nodes, settleTime, spinBeforeSleep);
    }

    public BenchmarkSettings withSpinBeforeSleep(Duration spin) {
        return new BenchmarkSettings(scenarios, roundTripWarmup, roundTripCount, roundTripRounds, throughputWarmup,
                throughputDuration, throughputRounds, overlayNodes, settle, spin);
    }

    /** A single-thread runtime with this run's event-loop setting. */
    NodeRuntime runtime() {
        return runtime(1);
    }

    NodeRuntime runtime(int threads) {
        return NodeRuntime.builder().threads(threads).spinBeforeSleep(spinBeforeSleep).build();
    }
}

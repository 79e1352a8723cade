package net.hopwise.examples.sim;

import net.hopwise.overlay.sim.DelayStatistics;

/** What one chain run measured. */
record ChainResult(ChainScenario scenario, DelayStatistics delays, long generated, long delivered, long events,
        double wallSeconds, double simulatedSeconds, String traceDigest) {
    double meanMillis() {
        return delays.meanMillis();
    }

    double jitterMillis() {
        return delays.stdDevMillis();
    }

    double percentAbove60() {
        return 100 * delays.fractionAbove(0);
    }

    double percentAbove100() {
        return 100 * delays.fractionAbove(1);
    }

    /** Messages generated but not delivered when the run ended (lost, or still waiting in TCP's buffer). */
    long undelivered() {
        return generated - delivered;
    }

    double eventsPerSecond() {
        return events / wallSeconds;
    }

    double speedUp() {
        return simulatedSeconds / wallSeconds;
    }
}

package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Many clients on one bottleneck, with the clients' budgets as they are and the link as a fluid queue
 * served at 2 Mbit/s of 1094-byte packets, its cost renewed every T_update from the queue's average over
 * the last interval: the thesis's S4 bottleneck with nothing but the rules, on virtual time.
 */
class CostBenefitCrowdTest {
    private static final long MS = 1_000_000L;
    private static final CostBenefitConfig THESIS = CostBenefitConfig.thesis();
    private static final double PACKETS_PER_SECOND = 2e6 / (1094 * 8);
    private static final long STEP = 5 * MS;

    /** Peak queue and share of the link's capacity used, from 20 to 30 s after the clients start. */
    private record Outcome(double peak, double used) {}

    @Test
    void eightHundredClientsKeepTheBottleneckFullWithoutTheBufferRunningAway() {
        long seed = 1;
        Outcome o = run(800, seed);
        // The thesis's S4 at 800 senders: under 170 packets, 1.979 of 2 Mbit/s. With the period bound
        // alone, the price had to exceed every purse to ration the link: the buffer swung to the hard bound.
        assertThat(o.peak()).as("seed " + seed + ": peak buffer").isLessThan(170);
        assertThat(o.used()).as("seed " + seed + ": share of the link used").isGreaterThan(0.97);
    }

    @Test
    void fewClientsAreNotPricedOutAndKeepTheirBound() {
        long seed = 2;
        Outcome o = run(20, seed);
        assertThat(o.peak()).as("seed " + seed + ": peak buffer").isLessThan(100);
        assertThat(o.used()).as("seed " + seed + ": share of the link used").isGreaterThan(0.97);
    }

    private static Outcome run(int clients, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ClientBudget[] budgets = new ClientBudget[clients];
        for (int c = 0; c < clients; c++) {
            budgets[c] = new ClientBudget(THESIS, random.nextLong(1000 * MS), random::nextDouble);
        }
        double queue = 0;
        double queueSum = 0;
        int steps = 0;
        double advertised = 0;
        double next = 0;
        double peak = 0;
        double served = 0;
        double capacity = 0;
        double perStep = PACKETS_PER_SECOND * STEP / 1e9;
        for (long now = 0; now < 30_000 * MS; now += STEP) {
            for (ClientBudget b : budgets) {
                b.paySalaries(now);
                // A greedy client: its next packet is offered again at each step while it is held back.
                while (b.offer(THESIS.fee() + advertised, random.nextDouble()) == ClientBudget.Decision.SEND) {
                    queue = Math.min(THESIS.hardBufferPackets(), queue + 1);
                }
            }
            double out = Math.min(queue, perStep);
            queue -= out;
            queueSum += queue;
            steps++;
            if (now >= 20_000 * MS) {
                peak = Math.max(peak, queue);
                served += out;
                capacity += perStep;
            }
            if ((now + STEP) % (THESIS.fastUpdateNanos()) == 0) {
                // The cost the clients see is one interval old: the flooding takes it to them.
                advertised = next;
                next = THESIS.linkCost(queueSum / steps);
                queueSum = 0;
                steps = 0;
            }
        }
        return new Outcome(peak, served / capacity);
    }
}

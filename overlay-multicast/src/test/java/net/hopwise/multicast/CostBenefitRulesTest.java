package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Cost-Benefit's rules one by one against the thesis's formulas (Danilov 2004, chapter 4). */
class CostBenefitRulesTest {
    private static final long MS = 1_000_000L;
    private static final CostBenefitConfig THESIS = CostBenefitConfig.thesis();
    /** Room for many halvings above the default bound. */
    private static final CostBenefitConfig LONG_PERIODS =
            CostBenefitConfig.builder().maxSalaryPeriod(Duration.ofSeconds(30)).build();

    @Test
    void theDefaultsAreTheThesisTable() {
        assertThat(THESIS.maxLinkCost()).isEqualTo(20);
        assertThat(THESIS.savings()).isEqualTo(20);
        assertThat(THESIS.salary()).isEqualTo(10);
        assertThat(THESIS.fee()).isEqualTo(1);
        assertThat(THESIS.threshold()).isEqualTo(2);
        assertThat(THESIS.softBufferPackets()).isEqualTo(100);
        assertThat(THESIS.initialSalaryPeriodNanos()).isEqualTo(1000 * MS);
        assertThat(THESIS.fastUpdateNanos()).isEqualTo(50 * MS);
        assertThat(THESIS.slowUpdateNanos()).isEqualTo(2500 * MS);
        assertThat(THESIS.randomised()).isTrue();
        // Not in the thesis, each with its reason in CostBenefitConfig.
        assertThat(THESIS.maxSalaryPeriodNanos()).isEqualTo(250 * MS);
        assertThat(THESIS.halvingSettleNanos()).isEqualTo(200 * MS);
        assertThat(THESIS.quietWhenIdle()).isTrue();
        assertThat(CostBenefitConfig.builder().quietWhenIdle(false).build().quietWhenIdle()).isFalse();
    }

    @Test
    void linkCostIsEq47AndZeroForAnEmptyBuffer() {
        assertThat(THESIS.linkCost(0)).isZero();
        for (double n : new double[] {1, 10, 25, 50, 75, 100, 150}) {
            assertThat(THESIS.linkCost(n)).isCloseTo(20 * (Math.exp(n / 100) - 1) / (Math.E - 1), within(1e-9));
        }
        // The digest's worked values.
        assertThat(THESIS.linkCost(10)).isCloseTo(1.22, within(0.01));
        assertThat(THESIS.linkCost(50)).isCloseTo(7.55, within(0.01));
        assertThat(THESIS.linkCost(100)).isCloseTo(20.0, within(1e-9));
        assertThat(THESIS.linkCost(150)).isCloseTo(40.5, within(0.05));
        // Reliable queues priced with the buffer may exceed its hard bound: they cost a full buffer's price.
        double full = THESIS.linkCost(THESIS.hardBufferPackets());
        assertThat(THESIS.linkCost(THESIS.hardBufferPackets() * 10.0)).isEqualTo(full);
        assertThat(THESIS.linkCost(THESIS.hardBufferPackets() - 1)).isLessThan(full);
    }

    @Test
    void benefitIsEq49FromOneToCmax() {
        assertThat(THESIS.benefit(0)).isEqualTo(1);
        assertThat(THESIS.benefit(10)).isEqualTo(10.5);
        assertThat(THESIS.benefit(20)).isEqualTo(20);
    }

    @Test
    void aPacketWithinTheBudgetIsBoughtAndCharged() {
        ClientBudget b = new ClientBudget(THESIS, 0);
        assertThat(b.tokens()).as("the first salary at once").isEqualTo(10);
        assertThat(b.offer(3, 0.0)).isEqualTo(ClientBudget.Decision.SEND);
        assertThat(b.tokens()).isEqualTo(7);
    }

    @Test
    void aPacketAboveTheBudgetBlocksTheClientAndChargesNothing() {
        ClientBudget b = new ClientBudget(THESIS, 0);
        assertThat(b.offer(10.5, 0.0)).isEqualTo(ClientBudget.Decision.BLOCKED);
        assertThat(b.tokens()).isEqualTo(10);
        assertThat(b.blocked()).isTrue();
    }

    @Test
    void theFeeCapsPacketsPerSalaryOnAnIdleNetwork() {
        ClientBudget b = new ClientBudget(THESIS, 0);
        int sent = 0;
        while (b.offer(THESIS.fee(), 0.0) == ClientBudget.Decision.SEND) {
            sent++;
        }
        assertThat(sent).as("salary / fee").isEqualTo(10);
    }

    @Test
    void anAffordablePacketGoesWithProbabilityOneOverItsCostAndAHoldChargesNothing() {
        ClientBudget b = new ClientBudget(THESIS, 0);
        // C_p = 4: a draw below 1/4 sends, one at or above holds.
        assertThat(b.offer(4, 0.26)).isEqualTo(ClientBudget.Decision.HOLD);
        assertThat(b.tokens()).isEqualTo(10);
        assertThat(b.offer(4, 0.24)).isEqualTo(ClientBudget.Decision.SEND);
        CostBenefitConfig plain = CostBenefitConfig.builder().randomised(false).build();
        assertThat(new ClientBudget(plain, 0).offer(4, 0.99)).isEqualTo(ClientBudget.Decision.SEND);
    }

    @Test
    void savingsAreCappedAtS() {
        ClientBudget b = new ClientBudget(THESIS, 0);
        b.paySalaries(5000 * MS);
        assertThat(b.tokens()).isEqualTo(20);
    }

    @Test
    void anUnblockedClientKeepsItsPeriod() {
        ClientBudget b = new ClientBudget(THESIS, 0);
        b.offer(5, 0.0);
        assertThat(b.paySalaries(1000 * MS)).isTrue();
        assertThat(b.periodNanos()).isEqualTo(1000 * MS);
        assertThat(b.nextSalaryNanos()).isEqualTo(2000 * MS);
    }

    @Test
    void aClientBlockedOnCheapPacketsGetsEq410AddingOneSalaryPerUpdateInterval() {
        ClientBudget b = new ClientBudget(THESIS, 0);
        buyUntilBlocked(b, 1.5);
        b.paySalaries(1000 * MS);
        // T_new = T_old T_update / (T_old + T_update): 1 s -> 47.6 ms.
        assertThat(b.periodNanos()).isEqualTo((long) (1000.0 * MS * 50 * MS / (1000 * MS + 50 * MS)));
        assertThat(b.nextSalaryNanos()).isEqualTo(1000 * MS + b.periodNanos());
        long before = b.periodNanos();
        buyUntilBlocked(b, 1.5);
        b.paySalaries(b.nextSalaryNanos());
        assertThat(b.periodNanos()).as("47.6 ms after the last adaptation: within T_update").isEqualTo(before);
        buyUntilBlocked(b, 1.5);
        b.paySalaries(b.nextSalaryNanos());
        assertThat(1e9 / b.periodNanos()).isCloseTo(1e9 / before + 1e9 / (50 * MS), within(0.01));
    }

    @Test
    void aClientBlockedAfterBuyingAtOrAboveHHalvesItsRateByEq411() {
        ClientBudget b = new ClientBudget(LONG_PERIODS, 0);
        buyUntilBlocked(b, 2.0);
        b.paySalaries(1000 * MS);
        assertThat(b.periodNanos()).isEqualTo(2000 * MS);
    }

    @Test
    void aClientBlockedWithoutBuyingAnythingIsJudgedByTheCostItWasRefusedAt() {
        // It "tried to buy expensive packets": above H, so its rate halves (Eq 4.11) instead of growing.
        ClientBudget dear = new ClientBudget(LONG_PERIODS, 0);
        assertThat(dear.offer(15, 0.0)).isEqualTo(ClientBudget.Decision.BLOCKED);
        dear.paySalaries(1000 * MS);
        assertThat(dear.periodNanos()).isEqualTo(2000 * MS);
        // Still priced out through the next period: halved again, not refilled faster.
        assertThat(dear.offer(25, 0.0)).isEqualTo(ClientBudget.Decision.BLOCKED);
        dear.paySalaries(3000 * MS);
        assertThat(dear.periodNanos()).isEqualTo(4000 * MS);
        // Refused below H (a purse emptied below the fee on idle links): the period shortens.
        CostBenefitConfig poor = CostBenefitConfig.builder().salary(0.5).build();
        ClientBudget cheap = new ClientBudget(poor, 0);
        assertThat(cheap.offer(1, 0.0)).isEqualTo(ClientBudget.Decision.BLOCKED);
        cheap.paySalaries(1000 * MS);
        assertThat(cheap.periodNanos()).isEqualTo((long) (1000.0 * MS * 50 * MS / (1000 * MS + 50 * MS)));
    }

    @Test
    void clientsPricedOutThroughACongestionDoNotAllComeBackWithFullPursesAndShortPeriods() {
        // Ten clients priced out for 10 s of virtual time, then the cost dips to the fee.
        ClientBudget[] clients = new ClientBudget[10];
        for (int c = 0; c < clients.length; c++) {
            clients[c] = new ClientBudget(THESIS, c * 37 * MS);
        }
        for (long now = 0; now <= 10_000 * MS; now += 50 * MS) {
            for (ClientBudget b : clients) {
                b.paySalaries(now);
                assertThat(b.offer(30, 0.0)).isEqualTo(ClientBudget.Decision.BLOCKED);
            }
        }
        for (ClientBudget b : clients) {
            assertThat(b.periodNanos()).as("backed off while priced out").isGreaterThan(THESIS.maxSalaryPeriodNanos());
        }
        // What they send before the next cost update, 50 ms: their savings and at most one salary each.
        int burst = 0;
        for (long now = 10_005 * MS; now <= 10_050 * MS; now += 5 * MS) {
            for (ClientBudget b : clients) {
                b.paySalaries(now);
                while (b.offer(THESIS.fee(), 0.0) == ClientBudget.Decision.SEND) {
                    burst++;
                }
            }
        }
        // Periods shortened while priced out would have refilled every purse at each step.
        assertThat(burst).isLessThanOrEqualTo(10 * (20 + 10));
    }

    @Test
    void aClientPricedOutOfItsPurseDoublesPastTheBoundAndHoldsThereWhileThePriceIsInReach() {
        ClientBudget b = new ClientBudget(THESIS, 0);
        assertThat(b.offer(15, 0.0)).as("$15 is within a full purse's reach").isEqualTo(ClientBudget.Decision.BLOCKED);
        b.paySalaries(1000 * MS);
        assertThat(b.periodNanos()).as("halved to the bound").isEqualTo(250 * MS);
        // Dearer than $20, what full savings buy: no purse can pay it, so the bound no longer holds.
        long now = 1000 * MS;
        for (long expected : new long[] {500, 1000, 2000}) {
            assertThat(b.offer(25, 0.0)).isEqualTo(ClientBudget.Decision.BLOCKED);
            now = b.nextSalaryNanos();
            b.paySalaries(now);
            assertThat(b.periodNanos()).as("priced out: doubled past the bound").isEqualTo(expected * MS);
        }
        // Within reach again, above H: held, where going back to the bound would price it out again.
        b.paySalaries(now + THESIS.halvingSettleNanos());
        buyUntilBlocked(b, 5);
        b.paySalaries(b.nextSalaryNanos());
        assertThat(b.periodNanos()).isEqualTo(2000 * MS);
        // Cheap: Eq 4.10 as ever.
        buyUntilBlocked(b, 1.5);
        b.paySalaries(b.nextSalaryNanos());
        assertThat(b.periodNanos()).isEqualTo((long) (2000.0 * MS * 50 * MS / (2000 * MS + 50 * MS)));
        // And no further than its own bound, however long it stays priced out.
        for (int i = 0; i < 100; i++) {
            b.offer(25, 0.0);
            b.paySalaries(b.nextSalaryNanos());
        }
        assertThat(b.periodNanos()).isEqualTo(THESIS.pricedOutSalaryPeriodNanos());
    }

    @Test
    void aClientWithPeriodsShorterThanTheUpdateIntervalAdaptsOncePerInterval() {
        // 10 ms periods, buying above H at each: the costs it judges by are renewed every 50 ms only.
        CostBenefitConfig fast = CostBenefitConfig.builder().initialSalaryPeriod(Duration.ofMillis(10)).build();
        ClientBudget b = new ClientBudget(fast, 0);
        while (b.nextSalaryNanos() < 50 * MS) {
            buyUntilBlocked(b, 3);
            b.paySalaries(b.nextSalaryNanos());
        }
        assertThat(b.periodNanos()).as("no adaptation before T_update has passed").isEqualTo(10 * MS);
        buyUntilBlocked(b, 3);
        b.paySalaries(b.nextSalaryNanos());
        assertThat(b.periodNanos()).as("halved once, T_update after the start").isEqualTo(20 * MS);
        // Increases likewise: one salary per T_update added once per T_update, not at each period.
        ClientBudget idle = new ClientBudget(fast, 0);
        while (idle.nextSalaryNanos() < 110 * MS) {
            buyUntilBlocked(idle, 1);
            idle.paySalaries(idle.nextSalaryNanos());
        }
        // Two increases, at the salaries of 50 and about 108 ms: 1/T = 100 + 2 x 20 per second.
        assertThat(1e9 / idle.periodNanos()).isCloseTo(140, within(1.0));
    }

    @Test
    void aHalvingIsNotRepeatedOnCostsThatPredateIt() {
        ClientBudget c = new ClientBudget(LONG_PERIODS, 0);
        buyUntilBlocked(c, 3);
        c.paySalaries(1000 * MS);
        assertThat(c.periodNanos()).isEqualTo(2000 * MS);
        // Bought at once after the halving, at a cost set before it could show: no news, the period stays.
        buyUntilBlocked(c, 3);
        c.paySalaries(3000 * MS);
        assertThat(c.periodNanos()).isEqualTo(2000 * MS);
        // Bought once the halving could show (200 ms after it) at a cost still above H: halved again.
        c.paySalaries(3000 * MS + 200 * MS);
        buyUntilBlocked(c, 3);
        c.paySalaries(5000 * MS);
        assertThat(c.periodNanos()).isEqualTo(4000 * MS);
    }

    @Test
    void jitteredSalariesComeBetweenHalfAndOneAndAHalfPeriodsApart() {
        long seed = 42;
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        ClientBudget b = new ClientBudget(THESIS, 0, random::nextDouble);
        long last = 0;
        double sum = 0;
        for (int i = 0; i < 1000; i++) {
            long next = b.nextSalaryNanos();
            assertThat(next - last).as("seed " + seed).isBetween(500 * MS, 1500 * MS);
            sum += next - last;
            last = next;
            b.paySalaries(next);
        }
        assertThat(sum / 1000 / MS).as("seed " + seed + ": the mean period").isCloseTo(1000, within(40.0));
    }

    @Test
    void clientsHalvingTogetherDoNotKeepTheirSalariesInOneInstant() {
        long seed = 7;
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        ClientBudget[] clients = new ClientBudget[100];
        for (int c = 0; c < clients.length; c++) {
            // Started within 50 ms of each other, as clients whose periods were short together are.
            clients[c] = new ClientBudget(LONG_PERIODS, c * MS / 2, random::nextDouble);
        }
        // Priced out together for 30 s: each halves at each salary.
        for (long now = 0; now <= 30_000 * MS; now += 10 * MS) {
            for (ClientBudget b : clients) {
                b.paySalaries(now);
                b.offer(30, 0.0);
            }
        }
        long[] next = new long[clients.length];
        for (int c = 0; c < clients.length; c++) {
            next[c] = clients[c].nextSalaryNanos();
        }
        java.util.Arrays.sort(next);
        int most = 0;
        for (int i = 0, j = 0; i < next.length; i++) {
            while (next[i] - next[j] > 50 * MS) {
                j++;
            }
            most = Math.max(most, i - j + 1);
        }
        assertThat(most).as("seed " + seed + ": salaries within one 50 ms").isLessThan(20);
    }

    @Test
    void theSalaryPeriodStaysWithinItsBounds() {
        ClientBudget b = new ClientBudget(LONG_PERIODS, 0);
        for (int i = 0; i < 5000; i++) {
            buyUntilBlocked(b, 1.0);
            b.paySalaries(b.nextSalaryNanos());
        }
        assertThat(b.periodNanos()).isEqualTo(THESIS.minSalaryPeriodNanos());
        for (int i = 0; i < 5000; i++) {
            b.offer(100, 0.0);
            b.paySalaries(b.nextSalaryNanos());
        }
        assertThat(b.periodNanos()).isEqualTo(LONG_PERIODS.maxSalaryPeriodNanos());
    }

    @Test
    void theQueueAverageIsTimeWeightedOverThePeriod() {
        QueueAverage q = new QueueAverage(0);
        q.set(10, 0);
        q.set(30, 25 * MS);
        assertThat(q.takeAverage(50 * MS)).isCloseTo(20, within(1e-9));
        assertThat(q.hadQueue()).as("still 30 waiting").isTrue();
        q.set(0, 50 * MS);
        assertThat(q.takeAverage(100 * MS)).isZero();
        assertThat(q.hadQueue()).isFalse();
    }

    @Test
    void badParametersAreRefusedWithTheirName() {
        assertThatThrownBy(() -> CostBenefitConfig.builder().fee(0).build()).hasMessageContaining("fee");
        assertThatThrownBy(() -> CostBenefitConfig.builder().threshold(1).build()).hasMessageContaining("threshold");
        assertThatThrownBy(() -> CostBenefitConfig.builder().slowUpdate(Duration.ofMillis(10)).build())
                .hasMessageContaining("slowUpdate");
    }

    private static void buyUntilBlocked(ClientBudget b, double cost) {
        for (int i = 0; i < 100 && b.offer(cost, 0.0) == ClientBudget.Decision.SEND; i++) {
            // spend
        }
        assertThat(b.blocked()).isTrue();
    }
}

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
        assertThat(1e9 / b.periodNanos()).isCloseTo(1e9 / before + 1e9 / (50 * MS), within(0.01));
    }

    @Test
    void aClientBlockedAfterBuyingAtOrAboveHHalvesItsRateByEq411() {
        ClientBudget b = new ClientBudget(THESIS, 0);
        buyUntilBlocked(b, 2.0);
        b.paySalaries(1000 * MS);
        assertThat(b.periodNanos()).isEqualTo(2000 * MS);
    }

    @Test
    void aClientBlockedWithoutBuyingAnythingShortensItsPeriod() {
        // The most expensive packet it sent: none, below H.
        ClientBudget dear = new ClientBudget(THESIS, 0);
        assertThat(dear.offer(15, 0.0)).isEqualTo(ClientBudget.Decision.BLOCKED);
        dear.paySalaries(1000 * MS);
        assertThat(dear.periodNanos()).isEqualTo((long) (1000.0 * MS * 50 * MS / (1000 * MS + 50 * MS)));
    }

    @Test
    void theSalaryPeriodStaysWithinItsBounds() {
        ClientBudget b = new ClientBudget(THESIS, 0);
        for (int i = 0; i < 100; i++) {
            buyUntilBlocked(b, 1.0);
            b.paySalaries(b.nextSalaryNanos());
        }
        assertThat(b.periodNanos()).isEqualTo(THESIS.minSalaryPeriodNanos());
        for (int i = 0; i < 100; i++) {
            b.offer(2, 0.0);
            b.offer(100, 0.0);
            b.paySalaries(b.nextSalaryNanos());
        }
        assertThat(b.periodNanos()).isEqualTo(THESIS.maxSalaryPeriodNanos());
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

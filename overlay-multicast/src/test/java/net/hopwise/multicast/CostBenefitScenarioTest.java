package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The thesis's scenarios S1 and S2 (Danilov 2004, section 4.5, figures 4.2-4.4) on the simulator with the
 * unchanged module and the thesis's parameters; see {@link CostBenefitScenarios} for the topology.
 * Thesis: S_acfg 1.977 Mbit/s on its 2 Mbit/s bottleneck, S_cdg 0.992 Mbit/s on its 1 Mbit/s one.
 *
 * <p>The tolerance: both bottleneck wires must be busy all the time (at least 99.5% of their capacity
 * carried) and each class must get within 2% of the thesis's figure, its packets counted as the wire
 * carries them (IPv4 and UDP headers included) and measured where they crossed the bottleneck (the
 * messages delivered behind it): over a span of seconds a sending rate also counts the buffers'
 * drift, up to 200 packets either way. The cost updates ride on the packets crossing the links, as the
 * thesis's did, so the bottleneck carries little else: the hellos (ten a second) and a little link
 * state; flooded as datagrams of their own they were 50 more a second on each bottleneck, and S_cdg
 * got 0.957 Mbit/s. The clients of a class are within 4.6% of each other in S2 (the spread the
 * thesis reports for its 20 clients there) and within 12% over S1's shorter span, and no buffer
 * reaches its hard limit.
 */
class CostBenefitScenarioTest {
    @Test
    void twoClassesFillTheirBottlenecksAndShareThemEvenly() {
        CostBenefitScenarios.S1Result r = CostBenefitScenarios.s1(1, Duration.ofSeconds(8), Duration.ofSeconds(10));
        System.out.println("S1: " + r);
        assertThat(r.efMbps()).as("E-F busy").isGreaterThan(2 * 0.995);
        assertThat(r.bdMbps()).as("B-D busy").isGreaterThan(0.995);
        assertThat(r.receivedMbps().get("acfg@f")).as("S_acfg across E-F, thesis 1.977").isBetween(1.977 * 0.98, 2.0);
        assertThat(r.receivedMbps().get("cdg@d")).as("S_cdg across B-D, thesis 0.992").isBetween(0.992 * 0.98, 1.0);
        assertThat(r.efControlPerSecond()).as("datagrams on E-F besides S_acfg's").isLessThan(15);
        assertThat(r.bdControlPerSecond()).as("datagrams on B-D besides S_cdg's").isLessThan(15);
        // 56 to 113 packets per client over these 10 s, bought at 1/C_p draws and salaries a few hundred
        // ms apart: a client a few packets ahead shows as several per cent. The thesis's 4.6% is over a
        // long run, where the spread here is 1.2-1.4% (120 s, docs/multicast.md). What this catches is
        // starvation: clients left behind for good made it 40%.
        assertThat(r.acfg().spreadPercent()).isLessThan(12);
        assertThat(r.cdg().spreadPercent()).isLessThan(12);
        assertThat(r.peakBuffers().values()).allSatisfy(p -> assertThat(p)
                .isLessThan(CostBenefitConfig.DEFAULT_HARD_BUFFER_PACKETS));
    }

    /**
     * S2 (figures 4.5-4.6): E-G at 2 Mbit/s is both classes' bottleneck; thesis 997.3 and 997.6 Kbit/s,
     * the clients within 4.6%. The two classes' packets delivered at G within 2% of the thesis's sum,
     * each class at least 94% of its figure and the two within 4% of each other: they cross E-G at the
     * same price, but over 15 s which class's packets fill E-G's buffer drifts by a few per cent. E-G's
     * peak under the thesis's 150 packets (it was 272 while clients priced out shortened their periods).
     */
    @Test
    void twoClassesShareOneBottleneckEvenly() {
        CostBenefitScenarios.S1Result r = CostBenefitScenarios.s2(1, Duration.ofSeconds(10), Duration.ofSeconds(15));
        System.out.println("S2: " + r);
        assertThat(r.egMbps()).as("E-G busy").isGreaterThan(2 * 0.995);
        double a = r.receivedMbps().get("acfg@g");
        double c = r.receivedMbps().get("cdg@g");
        assertThat(a + c).as("both across E-G, thesis 1.9949").isBetween((0.9973 + 0.9976) * 0.98, 2.0);
        assertThat(a).as("S_acfg across E-G, thesis 0.9973").isGreaterThan(0.9973 * 0.94);
        assertThat(c).as("S_cdg across E-G, thesis 0.9976").isGreaterThan(0.9976 * 0.94);
        assertThat(Math.abs(a - c) / (a + c)).isLessThan(0.04);
        assertThat(r.peakBuffers().get("e-g")).as("E-G's peak buffer, thesis under 150").isLessThan(150);
        assertThat(r.acfg().spreadPercent()).isLessThan(4.6);
        assertThat(r.cdg().spreadPercent()).isLessThan(4.6);
        assertThat(r.peakBuffers().values()).allSatisfy(p -> assertThat(p)
                .isLessThan(CostBenefitConfig.DEFAULT_HARD_BUFFER_PACKETS));
    }

    /**
     * Two hundred greedy clients on one 2 Mbit/s link (the randomisation experiment's link, figure
     * 4.1): their salaries must not come together, and when the cost dips under their bids the 1/C_p
     * draw must hold most of them back. Clients priced out that shortened their periods, or halved
     * theirs in lockstep, filled the buffer to its hard bound of 400 packets; a held packet that went
     * without drawing again made the draw a mere delay, and the peak was 290.
     */
    @Test
    void twoHundredClientsOnOneLinkKeepItsBufferBelowHalfItsBound() {
        RandomisationExperiment.Result r = RandomisationExperiment.run(1, 200, true, false, Duration.ofSeconds(5),
                Duration.ofSeconds(5));
        System.out.println("200 clients: peak " + r.max() + ", aggregate " + r.aggregateMbps());
        assertThat(r.max()).as("the A-B buffer's peak").isLessThan(CostBenefitConfig.DEFAULT_HARD_BUFFER_PACKETS / 2);
        assertThat(r.aggregateMbps()).as("the link busy").isBetween(2 * 0.97, 2.0);
    }

    /**
     * One greedy client alone on a 2 Mbit/s link, as each of S3's one-link clients is: its salary
     * periods are of tens of milliseconds, shorter than the cost feedback. Judged on stale costs at
     * each period it halved two or three times for one congestion and its link stood idle for much of
     * the time (S3's chain: 5.5 of 10 Mbit/s).
     */
    @Test
    void aClientAloneOnALinkKeepsItBusy() {
        RandomisationExperiment.Result r = RandomisationExperiment.run(1, 1, true, false, Duration.ofSeconds(5),
                Duration.ofSeconds(5));
        System.out.println("1 client: peak " + r.max() + ", aggregate " + r.aggregateMbps());
        assertThat(r.aggregateMbps()).as("one client on a 2 Mbit/s link").isBetween(2 * 0.93, 2.0);
    }
}

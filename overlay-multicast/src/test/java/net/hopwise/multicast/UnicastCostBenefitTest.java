package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import net.hopwise.overlay.sim.SimNetwork;
import org.junit.jupiter.api.Test;

/**
 * Cost-Benefit over a unicast reliable session, on virtual time: a session sharing a bottleneck with
 * multicast senders whose trees cross the same links pays the same price per packet, so under the
 * thesis's rules it gets one client's share; with the switch off (the default) it is not a client and
 * takes what its own windows give it.
 */
class UnicastCostBenefitTest {
    private static final Duration WARMUP = Duration.ofSeconds(8);
    private static final Duration MEASURED = Duration.ofSeconds(12);

    @Test
    void aMeteredSessionGetsOneClientsShareOfTheBottleneck() {
        UnicastCostBenefitScenario.Result r = UnicastCostBenefitScenario.run(1, 4, true, WARMUP, MEASURED);
        assertThat(r.metered()).isTrue();
        // Every new packet was bought once, and only once.
        assertThat(r.bought()).isEqualTo(r.sessionPackets()).isPositive();
        // Five clients share the link by their salaries as much as by the price: over 12 s one client's
        // rate swings by half with its increases and halvings (over 60 s the session gets 0.79-0.95 of
        // the mean sender, docs/multicast.md); switched off it takes five times the senders' share.
        assertThat(r.sessionShare()).as("session %.3f against the mean sender of %s", r.session(),
                java.util.Arrays.toString(r.senders())).isBetween(0.5, 2.0);
        assertThat(r.total()).as("B-C carries the clients' payload").isGreaterThan(0.75);
    }

    @Test
    void switchedOffTheSessionIsNoClientAndOutrunsTheSenders() {
        assertThat(new MulticastModule().unicastCostBenefit()).isFalse();
        UnicastCostBenefitScenario.Result r = UnicastCostBenefitScenario.run(1, 4, false, Duration.ofSeconds(5), Duration.ofSeconds(5));
        assertThat(r.metered()).isFalse();
        assertThat(r.bought()).isZero();
        // Its queue at the bottleneck counts in the price the senders pay (docs/multicast.md), so they
        // back off for it as for each other: it took 5-7 senders' shares while only their own buffer
        // was priced, 4-7 since.
        assertThat(r.sessionShare()).isGreaterThan(3);
    }

    @Test
    void theSwitchNeedsCostBenefit() {
        MulticastModule module = new MulticastModule().withUnicastCostBenefit(true);
        assertThat(module.withReliable(ReliableConfig.defaults()).unicastCostBenefit()).isTrue();
        try (SimNetwork net = new SimNetwork(1, b -> b.module(module))) {
            assertThatThrownBy(() -> {
                net.node("a");
                net.start();
            }).hasStackTraceContaining("withCostBenefit");
        }
    }
}

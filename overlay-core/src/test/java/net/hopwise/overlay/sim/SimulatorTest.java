package net.hopwise.overlay.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The event engine: order by time, ties by scheduling order, the clock never goes back. */
class SimulatorTest {
    @Test
    void actionsAtTheSameInstantRunInTheOrderTheyWereScheduled() {
        Simulator sim = new Simulator();
        List<String> ran = new ArrayList<>();
        long t = sim.now() + 10;
        sim.schedule(t, now -> ran.add("a"));
        sim.schedule(t - 5, now -> ran.add("early"));
        sim.schedule(t, now -> ran.add("b"));
        sim.schedule(t, now -> sim.schedule(now, later -> ran.add("scheduled-during")));
        sim.schedule(t, now -> ran.add("c"));
        sim.runUntil(t);
        assertThat(ran).containsExactly("early", "a", "b", "c", "scheduled-during");
        assertThat(sim.now()).isEqualTo(t);
        assertThat(sim.eventsExecuted()).isEqualTo(6);
    }

    @Test
    void thePastMeansNowAndTheClockStopsAtTheDeadline() {
        Simulator sim = new Simulator();
        sim.runFor(1_000);
        long[] seen = new long[1];
        sim.schedule(0, now -> seen[0] = now);
        sim.schedule(sim.now() + 5_000, now -> seen[0] = -1);
        sim.runFor(10);
        assertThat(seen[0]).isEqualTo(Simulator.START_NANOS + 1_000);
        assertThat(sim.now()).isEqualTo(Simulator.START_NANOS + 1_010);
        assertThat(sim.pending()).isEqualTo(1);
    }

    @Property(tries = 50)
    void manyRandomActionsRunSortedByTimeThenScheduleOrder(@ForAll long seed, @ForAll @IntRange(min = 1, max = 3000) int n) {
        Simulator sim = new Simulator();
        SplittableRandom random = new SplittableRandom(seed);
        long[] times = new long[n];
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            times[i] = sim.now() + random.nextInt(50);
            int id = i;
            sim.schedule(times[i], now -> order.add(id));
        }
        sim.runUntil(Long.MAX_VALUE - 1);
        assertThat(order).hasSize(n);
        for (int k = 1; k < n; k++) {
            int a = order.get(k - 1);
            int b = order.get(k);
            assertThat(times[a] < times[b] || (times[a] == times[b] && a < b)).as("%d before %d", a, b).isTrue();
        }
    }
}

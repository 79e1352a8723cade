package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.SelectStrategy;
import io.netty.util.IntSupplier;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The event-loop idle strategy's decisions. A spin window of an hour stays open for the whole test
 * and one of a nanosecond is over by the next call, so no test waits for time to pass.
 */
class SpinBeforeSleepTest {
    private static final long HOUR = Duration.ofHours(1).toNanos();

    /** A selectNow that answers from a script and counts its calls. */
    private static final class ScriptedPoll implements IntSupplier {
        int ready;
        int polls;

        @Override
        public int get() {
            polls++;
            return ready;
        }
    }

    @Test
    void anIdleLoopThatNeverDidAnythingSleepsAtOnce() throws Exception {
        SpinBeforeSleep strategy = new SpinBeforeSleep(HOUR);
        ScriptedPoll poll = new ScriptedPoll();

        assertThat(strategy.calculateStrategy(poll, false)).isEqualTo(SelectStrategy.SELECT);
        assertThat(poll.polls).isZero();
    }

    @Test
    void afterTasksTheLoopKeepsPollingWithoutBlockingWhileTheWindowIsOpen() throws Exception {
        SpinBeforeSleep strategy = new SpinBeforeSleep(HOUR);
        ScriptedPoll poll = new ScriptedPoll();
        poll.ready = 2;

        assertThat(strategy.calculateStrategy(poll, true)).isEqualTo(2);
        poll.ready = 0;
        for (int i = 0; i < 100; i++) {
            assertThat(strategy.calculateStrategy(poll, false)).isZero();
        }
        assertThat(poll.polls).isEqualTo(101);
    }

    @Test
    void theWindowClosesAfterTheSpinTimeWithoutActivity() throws Exception {
        SpinBeforeSleep strategy = new SpinBeforeSleep(1);
        ScriptedPoll poll = new ScriptedPoll();

        assertThat(strategy.calculateStrategy(poll, true)).isZero();
        // System.nanoTime() has advanced by at least a nanosecond since: the window is over.
        long before = System.nanoTime();
        while (System.nanoTime() == before) {
            Thread.onSpinWait();
        }
        assertThat(strategy.calculateStrategy(poll, false)).isEqualTo(SelectStrategy.SELECT);
        assertThat(poll.polls).isEqualTo(1);
    }

    @Test
    void wakingFromASleepOpensTheWindowAgain() throws Exception {
        SpinBeforeSleep strategy = new SpinBeforeSleep(HOUR);
        ScriptedPoll poll = new ScriptedPoll();

        assertThat(strategy.calculateStrategy(poll, false)).isEqualTo(SelectStrategy.SELECT);
        // The loop slept and was woken (by a datagram it has handled in that turn): poll again.
        assertThat(strategy.calculateStrategy(poll, false)).isZero();
        assertThat(strategy.calculateStrategy(poll, false)).isZero();
        assertThat(poll.polls).isEqualTo(2);
    }

    @Test
    void readyEventsAreHandedToTheLoop() throws Exception {
        SpinBeforeSleep strategy = new SpinBeforeSleep(HOUR);
        ScriptedPoll poll = new ScriptedPoll();
        strategy.calculateStrategy(poll, true);
        poll.ready = 3;

        assertThat(strategy.calculateStrategy(poll, false)).isEqualTo(3);
    }

    @Test
    void aSpinMustBePositive() {
        assertThatThrownBy(() -> new SpinBeforeSleep(0)).isInstanceOf(IllegalArgumentException.class);
    }
}

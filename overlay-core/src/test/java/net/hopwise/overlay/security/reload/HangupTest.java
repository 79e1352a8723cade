package net.hopwise.overlay.security.reload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * One SIGHUP handler per JVM serves every node in it: each registered reload runs, a failing one does
 * not stop the next, and a closed registration runs no more. The signal itself is raised in a daemon
 * process of its own ({@code DaemonHangupProcessTest}); here the handler's dispatch is called directly.
 */
class HangupTest {
    @Test
    void everyRegisteredReloadRunsUntilItsRegistrationCloses() {
        List<String> ran = new CopyOnWriteArrayList<>();
        Hangup.Registration first = Hangup.register(() -> ran.add("first"));
        Hangup.Registration failing = Hangup.register(() -> {
            throw new IllegalStateException("a reload that fails");
        });
        Hangup.Registration second = Hangup.register(() -> ran.add("second"));
        try {
            // Under `nohup ./test` the suite's JVM keeps SIGHUP ignored and nothing can be registered;
            // DaemonHangupProcessTest starts its daemons with either disposition whatever the suite's is.
            assumeTrue(first.unavailable() == null, () -> "SIGHUP is not handled in this JVM: " + first.unavailable());
            Hangup.raise();
            assertThat(ran).containsExactly("first", "second");

            first.close();
            first.close();
            Hangup.raise();
            assertThat(ran).containsExactly("first", "second", "second");
        } finally {
            failing.close();
            second.close();
        }
        Hangup.raise();
        assertThat(ran).as("nothing registered, nothing runs").hasSize(3);
    }
}

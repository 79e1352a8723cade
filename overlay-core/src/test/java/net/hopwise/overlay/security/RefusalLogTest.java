package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.List;
import net.hopwise.overlay.testing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The refusal log's limit, on a clock the test hands it: a flood of refused handshakes reaches the
 * operator's log as one line per ten seconds, each with the count of the refusals it stood for.
 */
class RefusalLogTest {
    private static final long S = 1_000_000_000L;
    /** A name no other test claims, so that only this test's lines are kept. */
    private static final String CLAIMED = "refusal-log-test";
    private static final String LINE = "link security: refused /192.0.2.7:4000 claiming to be '" + CLAIMED + "': ";

    private LogCapture log;

    @BeforeEach
    void listen() {
        log = LogCapture.of(LinkSecurity.class);
    }

    @AfterEach
    void stop() {
        log.close();
    }

    /** This test's lines, each as its level and message. */
    private List<String> lines() {
        return log.records().stream().filter(r -> r.getMessage().contains("'" + CLAIMED + "'"))
                .map(r -> r.getLevel() + " " + r.getMessage()).toList();
    }

    @Test
    void aFloodOfRefusalsIsOneLineEveryTenSecondsWithTheCountOfThoseNotLogged() {
        RefusalLog log = new RefusalLog();
        InetSocketAddress from = new InetSocketAddress("192.0.2.7", 4000);
        long t0 = -5 * S; // a monotonic clock's readings may be negative
        log.refused(from, CLAIMED, "first", t0);
        for (int i = 1; i <= 5; i++) {
            log.refused(from, CLAIMED, "flood " + i, t0 + i * S);
        }
        log.refused(from, CLAIMED, "a nanosecond short of ten seconds", t0 + 10 * S - 1);
        assertThat(lines()).as("one line for the first seven").hasSize(1);

        log.refused(from, CLAIMED, "ten seconds on", t0 + 10 * S);
        log.refused(from, CLAIMED, "right after", t0 + 10 * S + 1);
        log.refused(from, CLAIMED, "twenty seconds later", t0 + 30 * S);
        log.refused(from, CLAIMED, "after a quiet while", t0 + 300 * S);

        assertThat(lines()).containsExactly(
                "WARNING " + LINE + "first",
                "WARNING " + LINE + "ten seconds on (6 more refusals not logged)",
                "WARNING " + LINE + "twenty seconds later (1 more refusals not logged)",
                "WARNING " + LINE + "after a quiet while");
    }
}

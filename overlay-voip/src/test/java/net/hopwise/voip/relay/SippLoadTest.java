package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 1000 SIPp calls at 20 calls a second, each streaming a second of RTP both ways, through two relays:
 * every call completes and both relays end holding nothing, with no Netty buffer leaked. About a minute,
 * which the rate sets (1000 calls at 20 a second).
 */
class SippLoadTest {
    @TempDir
    Path dir;

    @AfterEach
    void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    @Test
    void aThousandCallsAtTwentyASecondAllCompleteAndLeaveNoState() throws IOException {
        Sipp.binary();
        LoadRun.Result r = LoadRun.run(dir, 1000, 20, 1);
        System.out.printf(Locale.ROOT, "load: 1000 calls at 20/s: SIPp exits %d / %d in %.1f s, relays idle %.1f s"
                + " later; ended %d / %d %s; RTP %d from the caller, %d to the callee (lost %d, late %d, duplicates"
                + " %d), %d echoed; relay a %s, relay b %s%n", r.uacExit(), r.uasExit(), r.sippSeconds(),
                r.idleSeconds(), r.endedA(), r.endedB(), r.endReasonsA(), r.fromCaller(), r.toCallee(), r.lost(),
                r.late(), r.duplicates(), r.echoed(), r.countersA(), r.countersB());
        // SIPp exits 0 only when every one of its calls went as its scenario says, BYE and its 200 included.
        assertThat(r.uacExit()).as("SIPp uac exit; logs in %s; output:%n%s", r.logs(), r.sippOutput()).isZero();
        assertThat(r.uasExit()).as("SIPp uas exit; logs in %s", r.logs()).isZero();
        assertThat(r.endedA()).isEqualTo(1000);
        assertThat(r.endedB()).isEqualTo(1000);
        assertThat(r.endReasonsA()).isEqualTo(Map.of("bye", 1000));
        // Every call's media crossed the relays both ways, and hardly any of it was missed on the way.
        assertThat(r.callsWithoutMedia()).isZero();
        assertThat(r.toCallee()).isGreaterThan(r.fromCaller() * 99 / 100);
        assertThat(r.echoed()).isGreaterThan(r.toCallee() * 98 / 100);
        // Nothing held: no call, transaction, media port or registration left at either relay.
        assertThat(r.stateA().idle()).as("relay a holds %s", r.stateA()).isTrue();
        assertThat(r.stateB().idle()).as("relay b holds %s", r.stateB()).isTrue();
        // And nothing was refused, given up on or thrown on the way (the maps hold only counters above 0).
        String[] failures = {"faults", "transactionTimeouts", "noRoute", "nodeSendFailures", "portsExhausted",
            "overloadRefused", "sdpUnreadable", "mediaTimeouts", "malformedDropped", "listenerFailures"};
        assertThat(r.countersA()).doesNotContainKeys(failures);
        assertThat(r.countersB()).doesNotContainKeys(failures);
    }
}

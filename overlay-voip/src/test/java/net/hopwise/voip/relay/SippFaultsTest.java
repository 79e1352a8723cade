package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults in the middle of a SIPp call with media through two relays: the overlay link under the
 * call dies while a second path exists, and the callee's relay is restarted. The gap's figures of
 * record come from {@code FaultExperiment}; here the outcomes are checked, the gap's bound included.
 */
class SippFaultsTest {
    @TempDir
    Path dir;

    @AfterEach
    void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    @Test
    void aLinkKilledMidCallMovesTheMediaToTheOtherPathAndThePhonesSeeOnlyAGap() throws IOException {
        Sipp.binary();
        LinkFailureRun.Result r = LinkFailureRun.run(dir, 41, 3);
        System.out.printf(Locale.ROOT, "link killed mid-call: gap %.0f ms (%d packets caller to callee, %d back)"
                + " against at most %.0f ms, %d packets after the kill, path after %s, counters moved %s%n", r.gapMs(),
                r.callerToCallee(), r.calleeToCaller(), r.gapBoundMs(), r.receivedAfterKill(), r.pathAfter(),
                r.signallingAfterKill());
        // SIPp aborts a call on any message its scenario does not expect: exit 0 means the phones saw
        // exactly INVITE, 180, 200, ACK, BYE and 200, the reroute included.
        assertThat(r.sippOk()).as("SIPp exit codes; uac output:\n%s", r.sippOutput()).isTrue();
        assertThat(r.pathAfter()).contains("m");
        // The stream went on after the kill: well over the second it took to find the link dead.
        assertThat(r.receivedAfterKill()).isGreaterThan(50);
        assertThat(r.callerToCallee()).as("a gap, since the link died under the call").isPositive();
        // Media resumes within the dead interval (1000 ms) plus one flood (50 ms: pacing, the two links of
        // the second path, the route recompute), plus one 20 ms packet: at most 53 packets missing where the
        // runs of record miss 50. Both ends find the link dead themselves and reroute at once.
        assertThat(r.gapMs()).as("media gap after the kill (ms), the dead interval %.0f ms and one flood %.0f ms",
                r.deadIntervalMs(), r.floodMs()).isLessThanOrEqualTo(r.gapBoundMs());
        // Only the caller's BYE and the callee's 200 came from the phones after the kill, and no
        // transaction towards them was given up on.
        assertThat(r.signallingAfterKill()).containsEntry("a.requestsFromPhones", 1L)
                .containsEntry("b.responsesFromPhones", 1L).containsEntry("a.transactionTimeouts", 0L)
                .containsEntry("b.transactionTimeouts", 0L).containsEntry("a.unknownDialog", 0L)
                .containsEntry("b.unknownDialog", 0L);
    }

    @Test
    void aRelayRestartedMidCallGivesBackItsPortsAndBothRelaysEndIdle() throws IOException, SocketException {
        Sipp.binary();
        byte[] alaw = new byte[8000];
        Arrays.fill(alaw, (byte) 0xD5);
        Files.write(dir.resolve("silence.al"), alaw);
        try (InputStream in = getClass().getResourceAsStream("/sipp/uac_rtp.xml")) {
            Files.copy(in, dir.resolve("uac_rtp.xml"), StandardCopyOption.REPLACE_EXISTING);
        }
        // The caller's relay may learn the call is gone from its media going quiet; transactions live
        // 64 T1, 1.3 s with this T1. The short T1 stays here (RelaySites' relays have RFC 3261's): with
        // a T1 of 500 ms the relays still held state 30 s after the restart, which Timer B/F (64 T1)
        // clears here within seconds. A SIPp slow to answer may see a retransmitted INVITE here.
        try (RelaySites sites = new RelaySites(List.of(new RelaySites.Link("a", "b", ImpairmentConfig.none())), 51,
                38000, b -> b.mediaTimeout(Duration.ofSeconds(1)).timers(Duration.ofMillis(20), Duration.ofMillis(400))
                        .transactionWait(Duration.ofMillis(1280)))) {
            int uasPort = Sipp.freeUdpPort();
            Sipp uas = Sipp.start(dir, "uas", "-sn", "uas", "-i", "127.0.0.1", "-p", Integer.toString(uasPort),
                    "-mi", "127.0.0.1", "-mp", Integer.toString(Sipp.freeMediaPort()), "-rtp_echo", "-m", "1",
                    "-nostdin", "-timeout", "30s");
            Sipp uac = Sipp.start(dir, "uac", "127.0.0.1:" + uasPort, "-rsa",
                    "127.0.0.1:" + sites.relayA.sipAddress().getPort(), "-sf", "uac_rtp.xml", "-s", "bob",
                    "-i", "127.0.0.1", "-p", Integer.toString(Sipp.freeUdpPort()), "-mi", "127.0.0.1",
                    "-mp", Integer.toString(Sipp.freeMediaPort()), "-d", "1200", "-m", "1", "-nostdin",
                    "-timeout", "30s");
            SipRelay restarted = null;
            try {
                Eventually.await("media flows through relay b", () -> sites.relayB.calls().stream()
                        .anyMatch(c -> !c.streams().isEmpty() && c.streams().get(0).deliveredToPhone() >= 10));
                StreamStatistics held = sites.relayB.calls().get(0).streams().get(0);
                InetSocketAddress sip = sites.relayB.sipAddress();
                sites.relayB.close();
                // A restart binds what the old relay held: its SIP port, its overlay signalling port,
                // and (round-robin from the start of the range) the media ports the call had.
                restarted = SipRelay.start(sites.node("b"), RelaySites.relay(38500).mediaTimeout(Duration.ofSeconds(1))
                        .timers(Duration.ofMillis(20), Duration.ofMillis(400)).transactionWait(Duration.ofMillis(1280))
                        .sipAddress(new InetSocketAddress("127.0.0.1", sip.getPort())).build());
                assertThat(restarted.sipAddress().getPort()).isEqualTo(sip.getPort());
                assertBindable(held.rtpPort());
                assertBindable(held.rtpPort() + 1);
                SipRelay b = restarted;
                // The caller's BYE reaches a relay that never saw the dialog, which answers 481; the
                // caller's relay ends the call by the BYE or its media timeout, whichever comes first.
                Eventually.await("both relays hold nothing", () -> sites.relayA.state().idle() && b.state().idle());
                assertThat(sites.endedA).hasSize(1);
                assertThat(sites.relayA.calls()).isEmpty();
                assertThat(b.calls()).isEmpty();
            } finally {
                uac.kill();
                uas.kill();
                if (restarted != null) {
                    restarted.close();
                }
            }
        }
    }

    private static void assertBindable(int port) throws SocketException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
            assertThat(s.getLocalPort()).isEqualTo(port);
        }
    }
}

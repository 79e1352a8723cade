package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SIPp's uas (echoing RTP) behind relay b and a SIPp uac streaming RTP behind relay a, with the two
 * relays on two overlay nodes over loopback UDP: every call completes, media crosses both relays in
 * both directions (counted by each), and both relays hold nothing once the calls ended. Then a
 * signalling matrix of custom SIPp scenario pairs (caller and callee) through the same relays.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SippThroughTwoRelaysTest {
    private static final int CALLS = 4;

    private NodeRuntime runtime;
    private OverlayNode a;
    private OverlayNode b;
    private SipRelay relayA;
    private SipRelay relayB;
    private final List<CallStatistics> endedA = new CopyOnWriteArrayList<>();
    private final List<CallStatistics> endedB = new CopyOnWriteArrayList<>();
    private Map<String, Long> countersAtStartA;
    private Map<String, Long> countersAtStartB;
    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path dir;

    @BeforeAll
    void start() {
        Sipp.binary();
        runtime = NodeRuntime.create(1);
        a = OverlayNode.start(NodeConfig.builder("a").loopback(0).build(), runtime);
        b = OverlayNode.start(NodeConfig.builder("b").loopback(0).build(), runtime);
        a.addNeighbour(new NeighbourConfig("b", b.localAddress()));
        b.addNeighbour(new NeighbourConfig("a", a.localAddress()));
        Eventually.await("a and b reach each other", () -> a.reachableNodes(a.config().defaultMetric()).contains("b")
                && b.reachableNodes(b.config().defaultMetric()).contains("a")
                && a.reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("b")
                && b.reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("a"));
        relayA = SipRelay.start(a, relay(31000));
        relayB = SipRelay.start(b, relay(31500));
        relayA.onCallEnded(endedA::add);
        relayB.onCallEnded(endedB::add);
    }

    private static RelayConfig relay(int mediaPorts) {
        return RelayConfig.builder().sipAddress(new InetSocketAddress("127.0.0.1", 0)).mediaAddress("127.0.0.1")
                .mediaPorts(mediaPorts, mediaPorts + 199).route("prefix:bob=b").route("prefix:carol=b").linger(Duration.ZERO)
                // RFC 3261's T1 (500 ms), as SIPp and real phones have it: with a T1 of 50 ms, on a
                // loaded machine (CI's two busy cores) the INVITE to the callee and its 180 back took
                // longer than T1, the relay retransmitted the INVITE after SIPp's uas had answered 180
                // and 200, and SIPp, which absorbs a retransmission only of a request it answered with
                // one message, aborted the call; its BYE then timed out at relay b. Transactions
                // are forgotten 3.2 s after their final response instead of 64 T1 (32 s), so that
                // the class does not wait half a minute for them.
                .transactionWait(Duration.ofMillis(3200))
                // A relay of both kinds of call: the first call held on the node's loop, calls that
                // overlap it on the media loop (the media test's four calls start 250 ms apart and
                // last 1.5 s), so that SIPp's media crosses both paths.
                .mediaThread(MediaThread.AUTO).mediaThreadCalls(1).build();
    }

    /**
     * The relays live for the whole class: each test checks what its own calls counted, so that a
     * failure shows in the test that caused it and not in every test that runs after it.
     */
    @BeforeEach
    void noteCounters() {
        countersAtStartA = relayA.counters();
        countersAtStartB = relayB.counters();
    }

    private static Map<String, Long> countedSince(SipRelay relay, Map<String, Long> start) {
        Map<String, Long> now = new TreeMap<>(relay.counters());
        now.replaceAll((k, v) -> v - start.getOrDefault(k, 0L));
        return now;
    }

    private Map<String, Long> countedA() {
        return countedSince(relayA, countersAtStartA);
    }

    private Map<String, Long> countedB() {
        return countedSince(relayB, countersAtStartB);
    }

    @AfterAll
    void stop() {
        try {
            if (relayA != null) {
                // The matrix rows wait only for their calls; every transaction must lapse too.
                Eventually.await("both relays idle after the matrix", () -> relayA.state().idle()
                        && relayB.state().idle());
                // A transaction that timed out after its test ended is counted here.
                assertThat(relayA.counters()).containsEntry("transactionTimeouts", 0L);
                assertThat(relayB.counters()).containsEntry("transactionTimeouts", 0L);
            }
        } finally {
            closeAll();
        }
    }

    private void closeAll() {
        if (relayA != null) {
            relayA.close();
            relayB.close();
        }
        if (a != null) {
            a.stop();
            b.stop();
            runtime.close();
        }
        LeakDetection.assertNoLeaks();
    }

    @ParameterizedTest(name = "{0} with the caller on {2}")
    @CsvSource({"late_offer, bye, u1", "busy, rejected 486, u1", "hold, bye, u1", "hold, bye, t1",
            "cancel, cancelled, u1", "early_media, bye, u1", "early_fork, bye, u1", "callee_bye, bye, u1",
            "unhold, bye, u1", "unhold_callee, bye, u1", "lost, bye, u1"})
    void aSignallingScenarioCompletesThroughTwoRelaysAndLeavesNoState(String scenario, String endReason,
            String callerTransport) throws IOException {
        endedA.clear();
        endedB.clear();
        Files.write(dir.resolve("silence.al"), silence());
        for (String side : List.of("uac_", "uas_")) {
            try (InputStream in = getClass().getResourceAsStream("/sipp/" + side + scenario + ".xml")) {
                Files.copy(in, dir.resolve(side + scenario + ".xml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        int calls = 2;
        int uasPort = Sipp.freeUdpPort();
        Sipp uas = Sipp.start(dir, "uas_" + scenario, "-sf", "uas_" + scenario + ".xml", "-i", "127.0.0.1",
                "-p", Integer.toString(uasPort), "-mi", "127.0.0.1", "-mp", Integer.toString(Sipp.freeMediaPort()),
                "-m", Integer.toString(calls), "-nostdin", "-timeout", "60s", "-timeout_error");
        try {
            Sipp uac = Sipp.start(dir, "uac_" + scenario, "127.0.0.1:" + uasPort, "-rsa",
                    "127.0.0.1:" + relayA.sipAddress().getPort(), "-sf", "uac_" + scenario + ".xml", "-s", "bob",
                    "-i", "127.0.0.1", "-p", Integer.toString(Sipp.freeUdpPort()), "-mi", "127.0.0.1",
                    "-mp", Integer.toString(Sipp.freeMediaPort()), "-m", Integer.toString(calls), "-r", "4",
                    "-t", callerTransport, "-nostdin", "-timeout", "60s", "-timeout_error");
            assertThat(uac.await()).as("sipp uac exit code; output:\n%s\nuas:\n%s", uac.output(), uas.output())
                    .isZero();
            assertThat(uas.await()).as("sipp uas exit code; output:\n%s", uas.output()).isZero();
        } finally {
            uas.kill();
        }
        awaitCallsGone(calls);
        assertThat(endedA).allSatisfy(c -> assertThat(c.endReason()).isEqualTo(endReason));
        assertThat(endedB).allSatisfy(c -> assertThat(c.endReason()).isEqualTo(endReason));
        if (scenario.equals("hold")) {
            // The caller's last SDP put its stream on hold, and the relay read it so.
            assertThat(endedA).allSatisfy(c -> assertThat(c.streams().get(0).held()).isTrue());
        }
        if (scenario.startsWith("unhold")) {
            // The last re-INVITE took the hold back, whichever side sent it.
            assertThat(endedA).allSatisfy(c -> assertThat(c.streams().get(0).held()).isFalse());
            assertThat(endedB).allSatisfy(c -> assertThat(c.streams().get(0).held()).isFalse());
        }
        if (scenario.startsWith("early")) {
            // The callee's RTP after its 183 crossed both relays to the caller's address.
            assertThat(endedA).allSatisfy(c -> assertThat(c.streams().get(0).deliveredToPhone()).isPositive());
        }
        assertThat(countedA()).containsEntry("unmatchedResponses", 0L).containsEntry("malformedDropped", 0L)
                .containsEntry("transactionTimeouts", 0L);
        assertThat(countedB()).containsEntry("unmatchedResponses", 0L).containsEntry("unknownDialog", 0L)
                .containsEntry("transactionTimeouts", 0L);
    }

    /**
     * Carol registered from two SIPp phones at relay b: a call from a's side rings both (parallel
     * forking). One answers; the other is busy, or rings and is cancelled by the relay once the first
     * answered. The caller sees one call, completed; both relays end it and hold nothing.
     */
    @ParameterizedTest(name = "one phone answers, the other {0}")
    @CsvSource({"busy", "cancel"})
    void aCallToAUserRegisteredFromTwoPhonesRingsBothAndTheAnswerWins(String other) throws IOException {
        endedA.clear();
        endedB.clear();
        for (String scenario : List.of("reg_callee.xml", "uas_echo.xml", "uas_" + other + ".xml")) {
            try (InputStream in = getClass().getResourceAsStream("/sipp/" + scenario)) {
                Files.copy(in, dir.resolve(scenario), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        int answering = Sipp.freeUdpPort();
        int refusing = Sipp.freeUdpPort();
        register(answering, 300);
        register(refusing, 300);
        assertThat(relayB.registrations().get("carol@example.org")).hasSize(2);
        // uas_echo: SIPp's uas with a short time-wait, the built-in one waits 4 s after the BYE.
        String echoPort = Integer.toString(Sipp.freeMediaPort());
        Sipp uas = Sipp.start(dir, "uas_answering", "-sf", "uas_echo.xml", "-i", "127.0.0.1",
                "-p", Integer.toString(answering), "-mi", "127.0.0.1", "-mp", echoPort, "-key", "sdp_port", echoPort,
                "-m", "1", "-nostdin",
                "-timeout", "30s", "-timeout_error");
        Sipp uas2 = Sipp.start(dir, "uas_" + other, "-sf", "uas_" + other + ".xml", "-i", "127.0.0.1",
                "-p", Integer.toString(refusing), "-mi", "127.0.0.1", "-mp", Integer.toString(Sipp.freeMediaPort()),
                "-m", "1", "-nostdin", "-timeout", "30s", "-timeout_error");
        try {
            Sipp uac = Sipp.start(dir, "uac_fork_" + other, "127.0.0.1:" + relayA.sipAddress().getPort(), "-sn", "uac",
                    "-s", "carol", "-i", "127.0.0.1", "-p", Integer.toString(Sipp.freeUdpPort()), "-mi", "127.0.0.1",
                    "-mp", Integer.toString(Sipp.freeMediaPort()), "-m", "1", "-nostdin", "-timeout", "30s",
                    "-timeout_error");
            assertThat(uac.await()).as("sipp uac exit code; output:\n%s\nuas:\n%s\n%s", uac.output(), uas.output(),
                    uas2.output()).isZero();
            assertThat(uas.await()).as("answering uas; output:\n%s", uas.output()).isZero();
            assertThat(uas2.await()).as("%s uas; output:\n%s", other, uas2.output()).isZero();
        } finally {
            uas.kill();
            uas2.kill();
            register(answering, 0);
            register(refusing, 0);
        }
        awaitCallsGone(1);
        assertThat(endedA).singleElement().satisfies(c -> assertThat(c.endReason()).isEqualTo("bye"));
        assertThat(endedB).singleElement().satisfies(c -> assertThat(c.endReason()).isEqualTo("bye"));
        assertThat(relayB.registrations()).doesNotContainKey("carol@example.org");
        assertThat(countedB()).containsEntry("unmatchedResponses", 0L).containsEntry("faults", 0L)
                .containsEntry("transactionTimeouts", 0L);
        assertThat(countedA()).containsEntry("unmatchedResponses", 0L).containsEntry("faults", 0L)
                .containsEntry("transactionTimeouts", 0L);
    }

    /** Registers carol at relay b from {@code port} (expires 0: removes the binding), as a phone there would. */
    private void register(int port, int expires) {
        Sipp reg = Sipp.start(dir, "reg_" + port + "_" + expires, "127.0.0.1:" + relayB.sipAddress().getPort(),
                "-sf", "reg_callee.xml", "-s", "carol", "-key", "expires", Integer.toString(expires),
                "-i", "127.0.0.1", "-p", Integer.toString(port), "-m", "1", "-nostdin", "-timeout", "20s",
                "-timeout_error");
        assertThat(reg.await()).as("sipp register; output:\n%s", reg.output()).isZero();
    }

    private static byte[] silence() {
        byte[] alaw = new byte[8000];
        Arrays.fill(alaw, (byte) 0xD5);
        return alaw;
    }

    /**
     * The calls of one scenario ended on both relays and hold no media; transactions live on for 64 T1,
     * and are checked once, after the whole matrix, so that each row does not wait for them.
     */
    private void awaitCallsGone(int calls) {
        Eventually.await("both relays end the calls", () -> endedA.size() == calls && endedB.size() == calls
                && relayA.state().calls() == 0 && relayB.state().calls() == 0
                && relayA.state().mediaPortPairs() == 0 && relayB.state().mediaPortPairs() == 0);
    }

    private void awaitIdle(int calls) {
        try {
            Eventually.await("both relays forget the calls", () -> endedA.size() == calls
                    && endedB.size() == calls && relayA.state().idle() && relayB.state().idle());
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ": a " + relayA.state() + " " + relayA.calls() + " ended "
                    + endedA.size() + "; b " + relayB.state() + " " + relayB.calls() + " ended " + endedB.size(), e);
        }
    }

    @Test
    void sippCallsWithMediaCompleteThroughTwoRelaysAndLeaveNoState() throws IOException {
        endedA.clear();
        endedB.clear();
        Path audio = dir.resolve("silence.al");
        byte[] alaw = new byte[8000];
        Arrays.fill(alaw, (byte) 0xD5);
        Files.write(audio, alaw);
        try (InputStream in = getClass().getResourceAsStream("/sipp/uac_rtp.xml")) {
            Files.copy(in, dir.resolve("uac_rtp.xml"));
        }
        int uasPort = Sipp.freeUdpPort();
        Sipp uas = Sipp.start(dir, "uas", "-sn", "uas", "-i", "127.0.0.1", "-p", Integer.toString(uasPort),
                "-mi", "127.0.0.1", "-mp", Integer.toString(Sipp.freeMediaPort()), "-rtp_echo",
                "-m", Integer.toString(CALLS), "-nostdin", "-timeout", "60s", "-timeout_error");
        Sipp uac;
        try {
            uac = Sipp.start(dir, "uac", "127.0.0.1:" + uasPort, "-rsa", "127.0.0.1:" + relayA.sipAddress().getPort(),
                    "-sf", "uac_rtp.xml", "-s", "bob", "-i", "127.0.0.1",
                    "-p", Integer.toString(Sipp.freeUdpPort()), "-mi", "127.0.0.1",
                    "-mp", Integer.toString(Sipp.freeMediaPort()), "-d", "1500", "-m", Integer.toString(CALLS),
                    "-r", "4", "-nostdin", "-timeout", "60s", "-timeout_error");
            int uacExit = uac.await();
            assertThat(uacExit).as("sipp uac exit code; output:\n%s\nuas:\n%s", uac.output(), uas.output())
                    .isZero();
            assertThat(uas.await()).as("sipp uas exit code; output:\n%s", uas.output()).isZero();
        } finally {
            uas.kill();
        }

        awaitIdle(CALLS);
        for (CallStatistics call : endedA) {
            assertThat(call.endReason()).isEqualTo("bye");
            StreamStatistics s = call.streams().get(0);
            // One second of 20 ms packets left the caller, and the callee's echo came back through b.
            assertThat(s.fromPhone().received()).as("RTP from the caller at a").isGreaterThanOrEqualTo(40);
            assertThat(s.sentToNode()).isEqualTo(s.fromPhone().received() + s.fromPhone().rtcp());
            assertThat(s.deliveredToPhone()).as("echo delivered to the caller by a").isGreaterThan(0);
            assertThat(s.latched()).isNotNull();
        }
        for (CallStatistics call : endedB) {
            StreamStatistics s = call.streams().get(0);
            assertThat(s.deliveredToPhone()).as("RTP delivered to the callee by b").isGreaterThanOrEqualTo(40);
            assertThat(s.fromPhone().received()).as("echo from the callee at b").isGreaterThan(0);
            assertThat(s.toPhone().lost()).isZero();
            assertThat(s.toPhone().duplicates()).isZero();
        }
        assertThat(countedA()).containsEntry("nodeSendFailures", 0L).containsEntry("unmatchedResponses", 0L)
                .containsEntry("malformedDropped", 0L).containsEntry("transactionTimeouts", 0L);
        assertThat(countedB()).containsEntry("nodeSendFailures", 0L).containsEntry("unmatchedResponses", 0L)
                .containsEntry("transactionTimeouts", 0L);
        // The node's registry carries the relay's meters, refreshed by its timer.
        Eventually.await("relay a's meters count the calls' requests", () -> {
            var c = a.meterRegistry().find("hopwise.voip.events").tag("kind", "requestsFromPhones").functionCounter();
            return c != null && c.count() >= 3 * CALLS;
        });
        assertThat(a.meterRegistry().find("hopwise.voip.calls").gauge().value()).isZero();
    }
}

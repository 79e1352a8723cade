package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real user agents, baresip to baresip, through two relays on two overlay nodes: the caller
 * (a 440 Hz tone, opus) dials through relay a as its outbound proxy, the callee answers at once and
 * echoes what it hears. The call is established, each phone's media comes from its own relay's port,
 * the callee's RTCP summary shows the packets, no loss and loopback's jitter, both phones' recordings
 * (baresip's sndfile) hold the tone unbroken, and both relays count the media and end with nothing
 * held. Then the same call with the overlay link between the relays losing 5% each way: the callee's
 * summary shows the residual loss of real-time recovery, not the link's, and the jitter its
 * retransmissions add, and the tone still goes on.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BaresipThroughTwoRelaysTest {
    /** rtcpsummary's line: packets received and sent, lost each way, jitter each way, and the media addresses. */
    private static final Pattern SUMMARY = Pattern.compile("EX=BareSip;CS=\\d+;CD=\\d+;PR=(\\d+);PS=(\\d+);PL=(-?\\d+),"
            + "(-?\\d+);PD=-?\\d+,-?\\d+;JI=([0-9.]+),([0-9.]+);.*IP=[^,]+,127\\.0\\.0\\.1:(\\d+);");
    private static final double TONE_HZ = 440;
    private static final double LINK_LOSS = 0.05;
    /**
     * The thesis's residual loss at 5%, 2p^2 - 3p^3 = 0.46%, is about one packet of the call's 250; 2.5%
     * is six (a Poisson count of mean 1.15 reaches seven once in 3000 calls), half what plain UDP loses.
     */
    private static final double RESIDUAL_BOUND = 0.025;
    /**
     * A recovered packet comes about an overlay round trip (2 x 10 ms) late, one packet in twenty, and
     * RFC 3550's jitter moves a sixteenth of each step, up and again down: about 4-5 ms in the steady
     * state, more when recoveries bunch just before the call ends (4.4-10.6 ms in seven runs). A
     * recovery that came a packet time or more late would take it far past this.
     */
    private static final double LOSSY_JITTER_MS = 20;
    /** The callee's jitter on loopback, ms as rtcpsummary prints it (1.1-1.6 in eight runs). */
    private static final double JITTER_MS = 5;

    private NodeRuntime runtime;
    private OverlayNode a;
    private OverlayNode b;
    private SipRelay relayA;
    private SipRelay relayB;
    private final List<CallStatistics> endedA = new CopyOnWriteArrayList<>();
    private final List<CallStatistics> endedB = new CopyOnWriteArrayList<>();
    @TempDir
    Path dir;

    @BeforeAll
    void start() {
        Assumptions.assumeTrue(onPath("baresip"), "baresip (Debian package baresip-core) is not installed: the"
                + " baresip test is skipped; ./test installs it");
        runtime = NodeRuntime.create(1);
        a = OverlayNode.start(NodeConfig.builder("a").loopback(0).impairmentSeed(11).build(), runtime);
        b = OverlayNode.start(NodeConfig.builder("b").loopback(0).impairmentSeed(12).build(), runtime);
        a.addNeighbour(new NeighbourConfig("b", b.localAddress()));
        b.addNeighbour(new NeighbourConfig("a", a.localAddress()));
        Eventually.await("a and b reach each other", () -> a.reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("b")
                && b.reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("a")
                && a.reachableNodes(a.config().defaultMetric()).contains("b")
                && b.reachableNodes(b.config().defaultMetric()).contains("a"));
        relayA = SipRelay.start(a, relay(37000));
        relayB = SipRelay.start(b, relay(37500));
        relayA.onCallEnded(endedA::add);
        relayB.onCallEnded(endedB::add);
    }

    private static RelayConfig relay(int mediaPorts) {
        return RelayConfig.builder().sipAddress(new InetSocketAddress("127.0.0.1", 0)).mediaAddress("127.0.0.1")
                .mediaPorts(mediaPorts, mediaPorts + 99).route("prefix:bob=b").linger(Duration.ZERO)
                .timers(Duration.ofMillis(50), Duration.ofMillis(400)).build();
    }

    private static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }

    @AfterAll
    void stop() {
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

    private Path agent(String name, int sipPort, String rtpPorts, String audio, String account) throws IOException {
        Path d = Files.createDirectories(dir.resolve(name));
        Path recordings = Files.createDirectories(d.resolve("recordings"));
        Files.writeString(d.resolve("config"), String.join("\n",
                "sip_listen 127.0.0.1:" + sipPort,
                // baresip 1.0 cannot read lo's address here; the address itself binds and goes in the SDP.
                "net_interface 127.0.0.1",
                "rtp_ports " + rtpPorts,
                "rtcp_mux no",
                audio,
                "audio_alert aubridge,alert",
                "module_path /usr/lib/baresip/modules",
                // ausine makes 48 kHz only, so the call uses opus.
                "module opus.so",
                "module ausine.so",
                "module aubridge.so",
                "module rtcpsummary.so",
                // Records what the phone sends (-enc.wav) and what it decodes from the network (-dec.wav).
                "module sndfile.so",
                "snd_path " + recordings,
                "module_tmp account.so",
                "module_app menu.so", ""));
        Files.writeString(d.resolve("accounts"), account + "\n");
        return d;
    }

    private static Process run(Path home, Path log, String... args) throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of("baresip", "-f", home.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    }

    private static void await(Process p, Path log) throws IOException, InterruptedException {
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("baresip did not finish:\n" + Files.readString(log));
        }
    }

    /** One call's outcome: both phones' output and what each decoded from the network. */
    private record Call(String callerOut, String calleeOut, RecordedTone callerHeard, RecordedTone calleeHeard) {
    }

    /**
     * A call from a tone-generating caller (440 Hz, 6 s) to an auto-answering callee that echoes what
     * it hears, through relay a; {@code tag} keeps each call's files apart.
     */
    private Call call(String tag) throws Exception {
        int calleePort = Sipp.freeUdpPort();
        int callerPort = Sipp.freeUdpPort();
        Path callee = agent(tag + "-callee", calleePort, "43000-43099", "audio_player aubridge,echo\naudio_source aubridge,echo",
                "<sip:bob@127.0.0.1:" + calleePort + ">;regint=0;answermode=auto;audio_codecs=opus");
        Path caller = agent(tag + "-caller", callerPort, "44000-44099", "audio_source ausine," + (int) TONE_HZ
                + "\naudio_player aubridge,sink", "<sip:alice@127.0.0.1:" + callerPort + ">;regint=0;outbound=\"sip:127.0.0.1:"
                        + relayA.sipAddress().getPort() + ";lr\";audio_codecs=opus");
        Path calleeLog = dir.resolve(tag + "-callee.log");
        Path callerLog = dir.resolve(tag + "-caller.log");
        Process b = run(callee, calleeLog, "-t", "12");
        Process a;
        try {
            // The callee's socket is bound within its first second; the relay retransmits the INVITE meanwhile.
            a = run(caller, callerLog, "-e", "/dial sip:bob@127.0.0.1:" + calleePort, "-t", "6");
            await(a, callerLog);
            // The callee prints its RTCP summary when the call ends, and its recording is closed by
            // then; its own 12 s are only an upper bound, so it is stopped once the summary is out.
            Eventually.await("the callee's call ends", () -> !b.isAlive() || logHas(calleeLog, "EX=BareSip"));
            b.destroy();
            await(b, calleeLog);
        } finally {
            b.destroyForcibly();
        }
        return new Call(Files.readString(callerLog), Files.readString(calleeLog), heard(caller), heard(callee));
    }

    private static boolean logHas(Path log, String text) {
        try {
            return Files.readString(log).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    /** The tone in what a phone decoded from the network, from sndfile's recording of it. */
    private static RecordedTone heard(Path agent) throws IOException {
        try (var files = Files.list(agent.resolve("recordings"))) {
            List<Path> decoded = files.filter(f -> f.getFileName().toString().endsWith("-dec.wav")).toList();
            assertThat(decoded).as("recordings of what %s decoded", agent.getFileName()).hasSize(1);
            RecordedTone t = RecordedTone.of(decoded.get(0), TONE_HZ);
            System.out.printf(Locale.ROOT, "%s heard: %s, %.2f s of tone, %.1f%% of the frames from its first to its last%n",
                    agent.getFileName(), t, t.tonedSeconds(), 100 * t.tonedShareOfSpan());
            return t;
        }
    }

    /** Waits until each relay has ended one call more than {@code before} and holds nothing. */
    private void awaitBothRelaysForget(int before) {
        Eventually.await("both relays forget the call", () -> endedA.size() == before + 1 && endedB.size() == before + 1
                && relayA.state().idle() && relayB.state().idle());
    }

    /** The callee's RTCP summary line (rtcpsummary): packets received and lost, jitter, media peer. */
    private static Matcher summary(String calleeOut) {
        Matcher m = SUMMARY.matcher(calleeOut);
        assertThat(m.find()).as("the callee's RTCP summary in:\n%s", calleeOut).isTrue();
        System.out.println("callee's RTCP summary: " + m.group());
        return m;
    }

    @Test
    void aBaresipCallThroughTwoRelaysCarriesAudioBothWays() throws Exception {
        int before = endedA.size();
        Call c = call("clean");
        assertThat(c.callerOut()).as(c.callerOut()).contains("Call established");
        // Each phone hears its own relay, never the other phone.
        assertThat(c.callerOut()).containsPattern("receiving from 127\\.0\\.0\\.1:370\\d\\d");
        Matcher m = summary(c.calleeOut());
        assertThat(Integer.parseInt(m.group(1))).as("packets the callee received").isGreaterThan(100);
        assertThat(Integer.parseInt(m.group(3))).as("packets the callee lost").isZero();
        assertThat(Double.parseDouble(m.group(5))).as("the callee's jitter, ms, on loopback").isLessThan(JITTER_MS);
        assertThat(Integer.parseInt(m.group(7))).as("the callee's media peer").isBetween(37500, 37599);
        // The tone itself, decoded by the callee and, echoed, by the caller: seconds of it, unbroken.
        assertThat(c.calleeHeard().tonedSeconds()).as("tone the callee heard, s").isGreaterThan(2);
        assertThat(c.callerHeard().tonedSeconds()).as("echo the caller heard, s").isGreaterThan(2);
        assertThat(c.calleeHeard().tonedShareOfSpan()).as("the callee's tone unbroken").isGreaterThan(0.98);
        assertThat(c.callerHeard().tonedShareOfSpan()).as("the caller's echo unbroken").isGreaterThan(0.98);

        awaitBothRelaysForget(before);
        StreamStatistics atA = endedA.get(before).streams().get(0);
        StreamStatistics atB = endedB.get(before).streams().get(0);
        assertThat(atA.fromPhone().received()).as("tone from the caller at a").isGreaterThan(100);
        assertThat(atB.deliveredToPhone()).as("tone delivered to the callee by b").isGreaterThan(100);
        assertThat(atB.fromPhone().received()).as("echo from the callee at b").isGreaterThan(100);
        assertThat(atA.deliveredToPhone()).as("echo delivered to the caller by a").isGreaterThan(100);
        assertThat(atB.toPhone().rtcp() + atA.toPhone().rtcp()).as("RTCP carried").isGreaterThan(0);
    }

    @Test
    void underFivePercentLossBetweenTheRelaysTheCalleeLosesFewPacketsAndTheToneGoesOn() throws Exception {
        int before = endedA.size();
        ImpairmentConfig lossy = ImpairmentConfig.builder().bernoulliLoss(LINK_LOSS).delay(Duration.ofMillis(10)).build();
        a.impair("b", Direction.OUTBOUND, lossy);
        b.impair("a", Direction.OUTBOUND, lossy);
        Call c;
        try {
            c = call("lossy");
        } finally {
            a.impair("b", Direction.OUTBOUND, ImpairmentConfig.none());
            b.impair("a", Direction.OUTBOUND, ImpairmentConfig.none());
        }
        assertThat(c.callerOut()).as(c.callerOut()).contains("Call established");
        Matcher m = summary(c.calleeOut());
        int received = Integer.parseInt(m.group(1));
        int lost = Integer.parseInt(m.group(3));
        assertThat(received).as("packets the callee received").isGreaterThan(100);
        // The real-time link recovers a loss while it can still be played: the thesis's residual
        // 2p^2 - 3p^3 is 0.46% at 5%, where plain UDP would lose 5%.
        assertThat((double) lost / (received + lost)).as("the callee's loss, of %d packets", received + lost)
                .isLessThan(RESIDUAL_BOUND);
        assertThat(Double.parseDouble(m.group(5))).as("the callee's jitter, ms").isLessThan(LOSSY_JITTER_MS);
        assertThat(c.calleeHeard().tonedSeconds()).as("tone the callee heard, s").isGreaterThan(2);
        assertThat(c.calleeHeard().tonedShareOfSpan()).as("the callee's tone unbroken").isGreaterThan(0.95);
        assertThat(c.callerHeard().tonedShareOfSpan()).as("the caller's echo unbroken").isGreaterThan(0.95);
        awaitBothRelaysForget(before);
        // The relay's own view of what crossed the overlay toward the callee agrees with the phone's.
        StreamStatistics atB = endedB.get(before).streams().get(0);
        assertThat(atB.toPhone().expected()).as("packets toward the callee at b").isGreaterThan(100);
        assertThat(atB.toPhone().missedPercent()).as("missed toward the callee at b, %").isLessThan(100 * RESIDUAL_BOUND);
    }
}

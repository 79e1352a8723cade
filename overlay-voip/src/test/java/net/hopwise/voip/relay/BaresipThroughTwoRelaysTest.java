package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
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
 * the callee's RTCP summary shows the packets and no loss, and both relays count the media and end
 * with nothing held.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BaresipThroughTwoRelaysTest {
    private static final Pattern SUMMARY = Pattern.compile("EX=BareSip;CS=\\d+;CD=\\d+;PR=(\\d+);PS=(\\d+);PL=(-?\\d+),"
            + "(-?\\d+);.*IP=[^,]+,127\\.0\\.0\\.1:(\\d+);");

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
        a = OverlayNode.start(NodeConfig.builder("a").loopback(0).build(), runtime);
        b = OverlayNode.start(NodeConfig.builder("b").loopback(0).build(), runtime);
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

    @Test
    void aBaresipCallThroughTwoRelaysCarriesAudioBothWays() throws Exception {
        int calleePort = Sipp.freeUdpPort();
        int callerPort = Sipp.freeUdpPort();
        Path callee = agent("callee", calleePort, "43000-43099", "audio_player aubridge,echo\naudio_source aubridge,echo",
                "<sip:bob@127.0.0.1:" + calleePort + ">;regint=0;answermode=auto;audio_codecs=opus");
        Path caller = agent("caller", callerPort, "44000-44099", "audio_source ausine,440\naudio_player aubridge,sink",
                "<sip:alice@127.0.0.1:" + callerPort + ">;regint=0;outbound=\"sip:127.0.0.1:"
                        + relayA.sipAddress().getPort() + ";lr\";audio_codecs=opus");
        Path calleeLog = dir.resolve("callee.log");
        Path callerLog = dir.resolve("caller.log");
        Process b = run(callee, calleeLog, "-t", "12");
        Process a;
        try {
            // The callee's socket is bound within its first second; the relay retransmits the INVITE meanwhile.
            a = run(caller, callerLog, "-e", "/dial sip:bob@127.0.0.1:" + calleePort, "-t", "6");
            await(a, callerLog);
            await(b, calleeLog);
        } finally {
            b.destroyForcibly();
        }
        String callerOut = Files.readString(callerLog);
        String calleeOut = Files.readString(calleeLog);
        assertThat(callerOut).as(callerOut).contains("Call established");
        // Each phone hears its own relay, never the other phone.
        assertThat(callerOut).containsPattern("receiving from 127\\.0\\.0\\.1:370\\d\\d");
        Matcher m = SUMMARY.matcher(calleeOut);
        assertThat(m.find()).as("the callee's RTCP summary in:\n%s", calleeOut).isTrue();
        assertThat(Integer.parseInt(m.group(1))).as("packets the callee received").isGreaterThan(100);
        assertThat(Integer.parseInt(m.group(3))).as("packets the callee lost").isZero();
        assertThat(Integer.parseInt(m.group(5))).as("the callee's media peer").isBetween(37500, 37599);

        Eventually.await("both relays forget the call", () -> endedA.size() == 1 && endedB.size() == 1
                && relayA.state().idle() && relayB.state().idle());
        StreamStatistics atA = endedA.get(0).streams().get(0);
        StreamStatistics atB = endedB.get(0).streams().get(0);
        assertThat(atA.fromPhone().received()).as("tone from the caller at a").isGreaterThan(100);
        assertThat(atB.deliveredToPhone()).as("tone delivered to the callee by b").isGreaterThan(100);
        assertThat(atB.fromPhone().received()).as("echo from the callee at b").isGreaterThan(100);
        assertThat(atA.deliveredToPhone()).as("echo delivered to the caller by a").isGreaterThan(100);
        assertThat(atB.toPhone().rtcp() + atA.toPhone().rtcp()).as("RTCP carried").isGreaterThan(0);
    }
}

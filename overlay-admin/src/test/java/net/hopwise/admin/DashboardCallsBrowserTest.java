package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.hopwise.admin.overlay.LocalNodes;
import net.hopwise.admin.voip.VoipRelay;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.voip.relay.RelayConfig;
import net.hopwise.voip.relay.SipRelay;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The dashboard's calls panel in a real headless Chromium, for a real call: SIPp's uac (streaming
 * A-law RTP) behind this service's relay on node site-a calls SIPp's uas (echoing the RTP) behind a
 * relay on node site-b, across the overlay. The panel lists the call, confirmed, with a MOS and its
 * history, then ended.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DashboardCallsBrowserTest {
    private static OverlayNode siteB;
    private static SipRelay relayB;

    @LocalServerPort
    int port;

    @Autowired
    LocalNodes nodes;

    @Autowired
    VoipRelay voip;

    @TempDir
    Path dir;

    private WebDriver browser;
    private final List<Process> sipps = new ArrayList<>();

    @DynamicPropertySource
    static void settings(DynamicPropertyRegistry registry) {
        siteB = OverlayNode.start(NodeConfig.builder("site-b").loopback(0).build());
        relayB = SipRelay.start(siteB, RelayConfig.builder().sipAddress(new InetSocketAddress("127.0.0.1", 0))
                .mediaAddress("127.0.0.1").mediaPorts(42000, 42199).route("prefix:bob=site-b").build());
        registry.add("hopwise.node.name", () -> "site-a");
        registry.add("hopwise.link-security.insecure", () -> "true");
        registry.add("hopwise.node.bind", () -> "127.0.0.1:0");
        registry.add("hopwise.node.neighbours[0]", () -> "site-b@127.0.0.1:" + siteB.localAddress().getPort());
        registry.add("hopwise.node.hello.interval", () -> "50ms");
        registry.add("hopwise.voip.enabled", () -> "true");
        registry.add("hopwise.voip.sip-address", () -> "127.0.0.1:0");
        registry.add("hopwise.voip.media-address", () -> "127.0.0.1");
        registry.add("hopwise.voip.media-port-min", () -> "41200");
        registry.add("hopwise.voip.media-port-max", () -> "41399");
        registry.add("hopwise.voip.routes[0]", () -> "prefix:bob=site-b");
    }

    @AfterAll
    static void stopSiteB() {
        relayB.close();
        siteB.stop();
    }

    @BeforeEach
    void linkAndOpen() {
        siteB.addNeighbour(NeighbourConfig.parse("site-a@127.0.0.1:" + nodes.self().localAddress().getPort()));
        Conditions.await("site-a and site-b reach each other by expected latency", () ->
                nodes.self().reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("site-b")
                        && siteB.reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("site-a"));
        browser = Chromium.open();
    }

    @AfterEach
    void closeAll() {
        sipps.forEach(Process::destroyForcibly);
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void aRealCallShowsConfirmedWithItsMosOverTimeThenEnded() throws Exception {
        String sipp = sippBinary();
        // Six seconds of A-law silence (0xD5), streamed by the caller after the ACK.
        byte[] silence = new byte[6 * 8000];
        Arrays.fill(silence, (byte) 0xD5);
        Files.write(dir.resolve("silence.al"), silence);
        try (InputStream scenario = getClass().getResourceAsStream("/sipp/uac_rtp.xml")) {
            Files.write(dir.resolve("uac_rtp.xml"), scenario.readAllBytes());
        }
        int uasPort = freeUdpPort();
        Process uas = sipp(sipp, "uas", "-sn", "uas", "-i", "127.0.0.1", "-p", Integer.toString(uasPort), "-mi", "127.0.0.1",
                "-mp", Integer.toString(freeMediaPort()), "-rtp_echo", "-m", "1", "-nostdin", "-timeout", "60s",
                "-timeout_error");
        browser.get("http://localhost:" + port + "/");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(40), Duration.ofMillis(200));
        // The page redraws every two seconds: an element read as it is replaced is read again next poll.
        wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
        wait.withMessage("the calls card, shown because the relay is enabled")
                .until(b -> b.findElement(By.id("calls-card")).isDisplayed());

        int relayPort = voip.relay().orElseThrow().sipAddress().getPort();
        Process uac = sipp(sipp, "uac", "127.0.0.1:" + uasPort, "-rsa", "127.0.0.1:" + relayPort, "-sf", "uac_rtp.xml",
                "-s", "bob", "-i", "127.0.0.1", "-p", Integer.toString(freeUdpPort()), "-mi", "127.0.0.1",
                "-mp", Integer.toString(freeMediaPort()), "-d", "8000", "-m", "1", "-nostdin", "-timeout", "60s",
                "-timeout_error");

        String row = "#calls-table tbody tr";
        try {
            awaitConfirmedWithMos(wait, row);
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError(e.getMessage() + "\ncalls: " + voip.calls() + "\nuac:\n" + log("uac") + "\nuas:\n"
                    + log("uas"), e);
        }
        checkPhonesMos(row, wait);
        checkPhonesRoundTrip(row, wait);
        checkConfirmedCall(row, uac, uas, wait);
    }

    /**
     * SIPp sends no RTCP, so the phones' MOS shows none; once a receiver report reaches the relay's
     * RTCP port for the caller's stream (10% lost, 20 ms jitter), it shows that report's MOS, lower than
     * the relay's own estimate of the clean loopback call.
     */
    private void checkPhonesMos(String row, WebDriverWait wait) throws Exception {
        String confirmed = row + "[data-state='CONFIRMED']";
        assertThat(browser.findElement(By.cssSelector(confirmed + " td.phone-mos")).getText()).isEqualTo("–");
        int rtcpPort = voip.relay().orElseThrow().calls().get(0).streams().get(0).rtpPort() + 1;
        ByteBuffer report = ByteBuffer.allocate(32);
        report.put((byte) 0x81).put((byte) 201).putShort((short) 7).putInt(0x1234_5678); // RR, one block
        report.putInt(0x0bad_cafe).put((byte) 26).put(new byte[] {0, 0, 40}); // 26/256 lost, 40 in all
        report.putInt(1000).putInt(160).putInt(0).putInt(0); // highest sequence, jitter 160 units = 20 ms at 8 kHz
        try (DatagramChannel phone = DatagramChannel.open()) {
            phone.send(report.flip(), new InetSocketAddress("127.0.0.1", rtcpPort));
        }
        wait.withMessage("the phones' MOS from the receiver report").until(b ->
                b.findElement(By.cssSelector(confirmed + " td.phone-mos")).getText().matches("\\d\\.\\d\\d"));
        WebElement call = browser.findElement(By.cssSelector(confirmed));
        double phones = Double.parseDouble(call.findElement(By.cssSelector("td.phone-mos")).getText());
        double relays = Double.parseDouble(call.findElement(By.cssSelector("td.mos")).getText());
        assertThat(phones).as("10%% loss reported by the phone").isBetween(1.0, 3.9).isLessThan(relays);
    }

    /**
     * The phones' round trip, as each phone computes it from the other's reports (RFC 3550 section
     * 6.4.1), shows once reports went both ways: a sender report from the caller answered by the
     * callee's receiver report quoting it (the far part, across the overlay), and one from the callee
     * answered by the caller (the access part). SIPp sends no RTCP: the test is both phones.
     */
    private void checkPhonesRoundTrip(String row, WebDriverWait wait) throws Exception {
        String confirmed = row + "[data-state='CONFIRMED']";
        assertThat(browser.findElement(By.cssSelector(confirmed + " td.phone-rtt")).getText()).isEqualTo("–");
        assertThat(json(get("api/calls")).get(0).get("phoneRttMs").asDouble()).isEqualTo(-1);
        InetSocketAddress callerSide = new InetSocketAddress("127.0.0.1",
                voip.relay().orElseThrow().calls().get(0).streams().get(0).rtpPort() + 1);
        InetSocketAddress calleeSide = new InetSocketAddress("127.0.0.1", relayB.calls().get(0).streams().get(0).rtpPort() + 1);
        try (DatagramChannel caller = DatagramChannel.open(); DatagramChannel callee = DatagramChannel.open()) {
            long towardsCallee = relayB.calls().get(0).streams().get(0).toPhone().rtcp();
            caller.send(senderReport(0x0001_2345, 0x6789_0000), callerSide);
            Conditions.await("the caller's sender report reached the callee's side",
                    () -> relayB.calls().get(0).streams().get(0).toPhone().rtcp() > towardsCallee);
            callee.send(receiverReport(0x2345_6789), calleeSide);
            Conditions.await("the callee's answer came back to the caller's relay",
                    () -> voip.calls().get(0).streams().get(0).farRttMs() >= 0);
            long towardsCaller = voip.calls().get(0).streams().get(0).toPhone().rtcp();
            callee.send(senderReport(0x0002_1111, 0x2222_0000), calleeSide);
            Conditions.await("the callee's sender report reached the caller's side",
                    () -> voip.calls().get(0).streams().get(0).toPhone().rtcp() > towardsCaller);
            caller.send(receiverReport(0x1111_2222), callerSide);
        }
        wait.withMessage("the phones' round trip from their reports").until(b ->
                b.findElement(By.cssSelector(confirmed + " td.phone-rtt")).getText().matches("[0-9.]+"));
        double shown = Double.parseDouble(browser.findElement(By.cssSelector(confirmed + " td.phone-rtt")).getText());
        double api = json(get("api/calls")).get(0).get("phoneRttMs").asDouble();
        // Both reports answered at once on loopback: a positive round trip, well under a second.
        assertThat(api).isPositive().isLessThan(1000);
        assertThat(shown).isCloseTo(api, org.assertj.core.data.Offset.offset(Math.max(0.5, api * 0.2)));
    }

    /** An RTCP sender report with no report block, its NTP timestamp's words as given. */
    private static ByteBuffer senderReport(int ntpMsw, int ntpLsw) {
        ByteBuffer sr = ByteBuffer.allocate(28);
        sr.put((byte) 0x80).put((byte) 200).putShort((short) 6).putInt(0x0bad_f00d);
        sr.putInt(ntpMsw).putInt(ntpLsw).putInt(0).putInt(0).putInt(0); // RTP time, packets, octets
        return sr.flip();
    }

    /** An RTCP receiver report whose one block quotes {@code lsr}, answered at once (DLSR 0). */
    private static ByteBuffer receiverReport(int lsr) {
        ByteBuffer rr = ByteBuffer.allocate(32);
        rr.put((byte) 0x81).put((byte) 201).putShort((short) 7).putInt(0x0bad_beef);
        rr.putInt(0x0bad_f00d).putInt(0).putInt(1000).putInt(0).putInt(lsr).putInt(0);
        return rr.flip();
    }

    private String get(String path) throws Exception {
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                .newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/" + path)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return r.body();
    }

    private static com.fasterxml.jackson.databind.JsonNode json(String body) throws IOException {
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
    }

    private void awaitConfirmedWithMos(WebDriverWait wait, String row) {
        wait.withMessage("a confirmed call with a MOS and at least two points of history").until(b -> {
            List<WebElement> rows = b.findElements(By.cssSelector(row + "[data-state='CONFIRMED']"));
            if (rows.isEmpty()) {
                return false;
            }
            String mos = rows.get(0).findElement(By.cssSelector("td.mos")).getText();
            String points = rows.get(0).findElement(By.cssSelector("svg.spark")).getDomAttribute("data-points");
            return mos.matches("\\d\\.\\d\\d") && Integer.parseInt(points) >= 2;
        });
    }

    private void checkConfirmedCall(String row, Process uac, Process uas, WebDriverWait wait) throws Exception {
        WebElement call = browser.findElement(By.cssSelector(row + "[data-state='CONFIRMED']"));
        // A clean loopback call: toll quality.
        assertThat(Double.parseDouble(call.findElement(By.cssSelector("td.mos")).getText())).isGreaterThan(4.0);
        assertThat(call.findElement(By.cssSelector("td.call")).getText()).contains("bob");
        assertThat(call.findElement(By.cssSelector("td.missed")).getText()).endsWith("%");
        // Nothing to recover on loopback: the overlay's own count, shown as a share like the misses.
        assertThat(call.findElement(By.cssSelector("td.recovered")).getText()).isEqualTo("0.00 %");
        assertThat(call.findElement(By.cssSelector("svg.spark path")).getDomAttribute("d")).startsWith("M");

        assertThat(uac.waitFor(60, TimeUnit.SECONDS)).as("the caller finished").isTrue();
        assertThat(uac.exitValue()).as("SIPp uac: every call succeeded\n" + log("uac")).isZero();
        assertThat(uas.waitFor(60, TimeUnit.SECONDS)).isTrue();
        wait.withMessage("the call shown as ended").until(b ->
                !b.findElements(By.cssSelector(row + "[data-state='ENDED']")).isEmpty());
    }

    private Process sipp(String binary, String name, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(binary);
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile()).start();
        sipps.add(p);
        return p;
    }

    private String log(String name) {
        try {
            return Files.readString(dir.resolve(name + ".log"));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /** SIPp from Debian's sip-tester, which ./test installs: without it the test fails and says so. */
    private static String sippBinary() {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            File f = new File(d, "sipp");
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        throw new AssertionError("the calls panel test needs sipp: apt-get install sip-tester (./test does)");
    }

    /** A port for SIPp's -mp: it binds audio there and video two above, and gives up if either is taken. */
    private static int freeMediaPort() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (DatagramSocket audio = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
                int port = audio.getLocalPort();
                if (port + 2 <= 65535) {
                    try (DatagramSocket video = new DatagramSocket(new InetSocketAddress("127.0.0.1", port + 2))) {
                        return port;
                    } catch (java.net.SocketException taken) {
                        // the next attempt draws another port
                    }
                }
            }
        }
        throw new IllegalStateException("no UDP port with the one two above it free in 100 attempts");
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            return s.getLocalPort();
        }
    }
}

package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.hopwise.admin.overlay.LocalNodes;
import net.hopwise.admin.voip.VoipRelay;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.voip.relay.EModel;
import net.hopwise.voip.relay.RelayConfig;
import net.hopwise.voip.relay.SipRelay;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A real call's quality as the service shows it: two phones (UDP sockets speaking SIP and RTP) call
 * through this service's relay on node site-a and a relay on node site-b, across the overlay. While
 * the call is up, the API gives its E-model R beside its MOS; once it ends, the call records file holds
 * one line for it with the same figures, and the quality meters count it. The Call-ID and the caller's
 * URI carry characters JSON must escape.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureObservability(tracing = false)
class VoipCallQualityTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String CALL_ID = "q\"uote'call@admin-test";
    private static final int PACKETS = 50;
    private static OverlayNode siteB;
    private static SipRelay relayB;
    private static Path records;

    @LocalServerPort
    int port;

    @Autowired
    ObjectMapper json;

    @Autowired
    VoipRelay voip;

    @Autowired
    LocalNodes nodes;

    @DynamicPropertySource
    static void settings(DynamicPropertyRegistry registry) throws IOException {
        siteB = OverlayNode.start(NodeConfig.builder("site-b").loopback(0).build());
        relayB = SipRelay.start(siteB, RelayConfig.builder().sipAddress(new InetSocketAddress("127.0.0.1", 0))
                .tcp(false).mediaAddress("127.0.0.1").mediaPorts(42400, 42499).route("prefix:bob=site-b")
                .linger(java.time.Duration.ZERO).build());
        records = Files.createTempDirectory("hopwise-call-records").resolve("records/calls.jsonl");
        registry.add("hopwise.node.name", () -> "site-a");
        registry.add("hopwise.link-security.insecure", () -> "true");
        registry.add("hopwise.node.bind", () -> "127.0.0.1:0");
        registry.add("hopwise.node.neighbours[0]", () -> "site-b@127.0.0.1:" + siteB.localAddress().getPort());
        registry.add("hopwise.node.hello.interval", () -> "50ms");
        registry.add("hopwise.voip.enabled", () -> "true");
        registry.add("hopwise.voip.sip-address", () -> "127.0.0.1:0");
        registry.add("hopwise.voip.tcp", () -> "false");
        registry.add("hopwise.voip.media-address", () -> "127.0.0.1");
        registry.add("hopwise.voip.media-port-min", () -> "41400");
        registry.add("hopwise.voip.media-port-max", () -> "41499");
        registry.add("hopwise.voip.routes[0]", () -> "prefix:bob=site-b");
        // Forgotten, hence recorded and metered, as soon as it ends.
        registry.add("hopwise.voip.linger", () -> "0s");
        registry.add("hopwise.voip.access-delay", () -> "20ms");
        registry.add("hopwise.voip.call-records", () -> records.toString());
    }

    @AfterAll
    static void stopSiteB() throws IOException {
        relayB.close();
        siteB.stop();
        try (var files = Files.walk(records.getParent().getParent())) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @BeforeEach
    void link() {
        siteB.addNeighbour(NeighbourConfig.parse("site-a@127.0.0.1:" + nodes.self().localAddress().getPort()));
        Conditions.await("site-a and site-b reach each other by expected latency", () ->
                nodes.self().reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("site-b")
                        && siteB.reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("site-a"));
    }

    @Test
    void aCallsRatingIsInTheApiItsRecordInTheFileAndItsQualityInTheMeters() throws Exception {
        assertThat(metrics()).contains("hopwise_voip_call_mos_count{node=\"site-a\",source=\"relay\"} 0");
        InetSocketAddress relayA = voip.relay().orElseThrow().sipAddress();
        try (Phone caller = new Phone(); Phone callee = new Phone()) {
            String from = "sip:o\"dd\\caller@127.0.0.1:" + caller.sipPort();
            String to = "sip:bob@127.0.0.1:" + callee.sipPort();
            caller.send(relayA, "INVITE " + to + " SIP/2.0\r\n"
                    + "Via: SIP/2.0/UDP 127.0.0.1:" + caller.sipPort() + ";branch=z9hG4bK-q1\r\n"
                    + "From: <" + from + ">;tag=tagA\r\nTo: <" + to + ">\r\nCall-ID: " + CALL_ID + "\r\n"
                    + "CSeq: 1 INVITE\r\nContact: <sip:caller@127.0.0.1:" + caller.sipPort() + ">\r\n"
                    + "Max-Forwards: 70\r\n", caller.sdp());
            Received invite = callee.await(m -> m.startsWith("INVITE "));
            callee.send(invite.from(), answer(invite.text(), "200 OK", "tagB"), callee.sdp());
            String ok = caller.await(m -> m.startsWith("SIP/2.0 200") && m.contains("INVITE\r\n")).text();
            caller.send(relayA, "ACK " + to + " SIP/2.0\r\n"
                    + "Via: SIP/2.0/UDP 127.0.0.1:" + caller.sipPort() + ";branch=z9hG4bK-q2\r\n"
                    + "From: <" + from + ">;tag=tagA\r\nTo: <" + to + ">;tag=tagB\r\nCall-ID: " + CALL_ID + "\r\n"
                    + "CSeq: 1 ACK\r\nMax-Forwards: 70\r\n", null);

            // Media both ways: each phone streams to its own relay's port, as the SDP it got says.
            caller.stream(new InetSocketAddress("127.0.0.1", mediaPort(ok)));
            callee.stream(new InetSocketAddress("127.0.0.1", mediaPort(invite.text())));
            Conditions.await("the callee's media reached the caller's relay", () ->
                    !voip.calls().isEmpty() && voip.calls().get(0).streams().get(0).toPhone().received() == PACKETS);

            JsonNode listed = json.readTree(get("/api/calls").body()).get(0);
            JsonNode detail = json.readTree(get("/api/calls/" + URLEncoder.encode(CALL_ID, StandardCharsets.UTF_8))
                    .body());
            for (JsonNode view : List.of(listed, detail)) {
                assertThat(view.get("callId").asText()).isEqualTo(CALL_ID);
                assertThat(view.get("state").asText()).isEqualTo("CONFIRMED");
                // No loss on loopback: close to G.711's ceiling, under 20 ms of access delay and the overlay's own.
                assertThat(view.get("rating").asDouble()).isBetween(85.0, EModel.R_DEFAULT);
                assertThat(view.get("mos").asDouble()).isCloseTo(EModel.mos(view.get("rating").asDouble()), within(0.01));
                // SIPp-like phones send no RTCP: nothing from the phones.
                assertThat(view.get("phoneRating").asDouble()).isZero();
                assertThat(view.get("phoneMos").asDouble()).isZero();
            }
            double rating = listed.get("rating").asDouble();
            double mos = listed.get("mos").asDouble();

            caller.send(relayA, "BYE " + to + " SIP/2.0\r\n"
                    + "Via: SIP/2.0/UDP 127.0.0.1:" + caller.sipPort() + ";branch=z9hG4bK-q3\r\n"
                    + "From: <" + from + ">;tag=tagA\r\nTo: <" + to + ">;tag=tagB\r\nCall-ID: " + CALL_ID + "\r\n"
                    + "CSeq: 2 BYE\r\nMax-Forwards: 70\r\n", null);
            Received bye = callee.await(m -> m.startsWith("BYE "));
            callee.send(bye.from(), answer(bye.text(), "200 OK", null), null);
            caller.await(m -> m.startsWith("SIP/2.0 200") && m.contains("BYE\r\n"));

            Conditions.await("the call's record", () -> lines().size() == 1);
            JsonNode record = json.readTree(lines().get(0));
            assertThat(record.get("node").asText()).isEqualTo("site-a");
            assertThat(record.get("callId").asText()).isEqualTo(CALL_ID);
            assertThat(record.get("from").asText()).isEqualTo(from);
            assertThat(record.get("to").asText()).isEqualTo(to);
            assertThat(record.get("state").asText()).isEqualTo("ENDED");
            assertThat(record.get("endReason").asText()).isEqualTo("bye");
            assertThat(record.get("durationMs").asLong()).isPositive();
            assertThat(java.time.Instant.parse(record.get("end").asText()))
                    .isAfter(java.time.Instant.parse(record.get("start").asText()));
            assertThat(record.get("accessDelayMs").asDouble()).isEqualTo(20.0);
            // No media after the API's view: the record's figures are the ones it showed.
            assertThat(record.get("rating").asDouble()).isEqualTo(rating);
            assertThat(record.get("mos").asDouble()).isEqualTo(mos);
            JsonNode stream = record.get("streams").get(0);
            assertThat(stream.get("toPhone").get("received").asLong()).isEqualTo(PACKETS);
            assertThat(stream.get("toPhone").get("lost").asLong()).isZero();
            assertThat(stream.get("fromPhone").get("received").asLong()).isEqualTo(PACKETS);
            assertThat(stream.get("latched").asText()).isEqualTo("127.0.0.1:" + caller.rtpPort());
        }

        String metrics = metrics();
        assertThat(metrics).contains("hopwise_voip_call_mos_count{node=\"site-a\",source=\"relay\"} 1");
        assertThat(sample(metrics, "hopwise_voip_call_mos_sum{node=\"site-a\",source=\"relay\"}"))
                .isBetween(EModel.mos(85), 4.5);
        // Without RTCP from the phones there is no phones' MOS to count.
        assertThat(metrics).contains("hopwise_voip_call_mos_count{node=\"site-a\",source=\"phones\"} 0");
        assertThat(metrics).contains("hopwise_voip_call_missed_percent_count{node=\"site-a\"} 1");
        assertThat(sample(metrics, "hopwise_voip_call_missed_percent_sum{node=\"site-a\"}")).isZero();
        assertThat(sample(metrics, "hopwise_voip_media_packets_total{direction=\"toPhone\",kind=\"received\","
                + "node=\"site-a\"}")).isEqualTo(PACKETS);
        assertThat(sample(metrics, "hopwise_voip_media_packets_total{direction=\"fromPhone\",kind=\"received\","
                + "node=\"site-a\"}")).isEqualTo(PACKETS);
        assertThat(sample(metrics, "hopwise_voip_media_packets_total{direction=\"toPhone\",kind=\"lost\","
                + "node=\"site-a\"}")).isZero();
        // The event counters follow at the relay's next timer run, at most a second later.
        Conditions.await("the record counted among the relay's events", () -> metrics()
                .contains("hopwise_voip_events_total{kind=\"callRecordsWritten\",node=\"site-a\"} 1.0"));
        assertThat(metrics()).contains("hopwise_voip_events_total{kind=\"callRecordFailures\",node=\"site-a\"} 0.0");
    }

    /** The value of one sample of the Prometheus text; fails when the sample is missing. */
    private static double sample(String metrics, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(metrics);
        assertThat(m.find()).as("%s in the scrape", series).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static List<String> lines() {
        try {
            return Files.exists(records) ? Files.readAllLines(records, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String metrics() {
        try {
            return get("/actuator/prometheus").body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A response written as a UAS does: Vias, Record-Routes, From, Call-ID and CSeq copied, To tagged. */
    private static String answer(String request, String status, String toTag) {
        StringBuilder sb = new StringBuilder("SIP/2.0 " + status + "\r\n");
        for (String line : request.substring(0, request.indexOf("\r\n\r\n")).split("\r\n")) {
            String name = line.contains(":") ? line.substring(0, line.indexOf(':')).trim().toLowerCase() : "";
            if (List.of("via", "record-route", "from", "call-id", "cseq").contains(name)) {
                sb.append(line).append("\r\n");
            } else if (name.equals("to")) {
                sb.append(line).append(toTag != null && !line.contains("tag=") ? ";tag=" + toTag : "").append("\r\n");
            }
        }
        return sb.toString();
    }

    private static int mediaPort(String message) {
        Matcher m = Pattern.compile("m=audio (\\d+) ").matcher(message);
        assertThat(m.find()).as("an m= line in %s", message).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private record Received(String text, SocketAddress from) {}

    /** A phone: a SIP socket and an RTP socket on loopback. */
    private static final class Phone implements AutoCloseable {
        private final DatagramSocket sip = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        private final DatagramSocket rtp = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));

        Phone() throws IOException {
            sip.setSoTimeout(10_000);
        }

        int sipPort() {
            return sip.getLocalPort();
        }

        int rtpPort() {
            return rtp.getLocalPort();
        }

        String sdp() {
            return "v=0\r\no=phone 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"
                    + "m=audio " + rtpPort() + " RTP/AVP 8\r\na=rtpmap:8 PCMA/8000\r\n";
        }

        void send(SocketAddress to, String headers, String body) throws IOException {
            byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            String head = headers + (body == null ? "" : "Content-Type: application/sdp\r\n")
                    + "Content-Length: " + content.length + "\r\n\r\n";
            byte[] h = head.getBytes(StandardCharsets.UTF_8);
            byte[] all = java.util.Arrays.copyOf(h, h.length + content.length);
            System.arraycopy(content, 0, all, h.length, content.length);
            sip.send(new DatagramPacket(all, all.length, to));
        }

        /** The next SIP message that matches, skipping others (100 Trying, retransmissions). */
        Received await(Predicate<String> wanted) throws IOException {
            List<String> skipped = new ArrayList<>();
            while (true) {
                DatagramPacket p = new DatagramPacket(new byte[8192], 8192);
                try {
                    sip.receive(p);
                } catch (java.net.SocketTimeoutException e) {
                    throw new AssertionError("no such message; received " + skipped, e);
                }
                String text = new String(p.getData(), 0, p.getLength(), StandardCharsets.UTF_8);
                if (wanted.test(text)) {
                    return new Received(text, p.getSocketAddress());
                }
                skipped.add(text.substring(0, text.indexOf("\r\n")));
            }
        }

        /** A second of 20 ms A-law packets, sent at once: on loopback none is late or lost. */
        void stream(InetSocketAddress to) throws IOException {
            for (int seq = 0; seq < PACKETS; seq++) {
                byte[] packet = new byte[172];
                packet[0] = (byte) 0x80;
                packet[1] = 8;
                packet[2] = (byte) (seq >> 8);
                packet[3] = (byte) seq;
                int ts = seq * 160;
                packet[4] = (byte) (ts >> 24);
                packet[5] = (byte) (ts >> 16);
                packet[6] = (byte) (ts >> 8);
                packet[7] = (byte) ts;
                packet[11] = (byte) rtpPort();
                java.util.Arrays.fill(packet, 12, 172, (byte) 0xD5);
                rtp.send(new DatagramPacket(packet, packet.length, to));
            }
        }

        @Override
        public void close() {
            sip.close();
            rtp.close();
        }
    }
}

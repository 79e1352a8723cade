package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import net.hopwise.admin.voip.VoipRelay;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The SIP relay run by the service beside its node: enabled by configuration, seen through the API and meters. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureObservability(tracing = false)
class VoipApiTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    ObjectMapper json;

    @Autowired
    VoipRelay voip;

    @DynamicPropertySource
    static void settings(DynamicPropertyRegistry registry) {
        registry.add("hopwise.node.name", () -> "site-a");
        registry.add("hopwise.link-security.insecure", () -> "true");
        registry.add("hopwise.node.bind", () -> "127.0.0.1:0");
        registry.add("hopwise.voip.enabled", () -> "true");
        registry.add("hopwise.voip.sip-address", () -> "127.0.0.1:0");
        registry.add("hopwise.voip.tcp", () -> "false");
        registry.add("hopwise.voip.media-port-min", () -> "41000");
        registry.add("hopwise.voip.media-port-max", () -> "41099");
        registry.add("hopwise.voip.routes[0]", () -> "example.net=site-b");
    }

    HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPhoneRegistersWithTheRelayAndTheApiAndMetersShowIt() throws Exception {
        assertThat(voip.enabled()).isTrue();
        HttpResponse<String> calls = get("/api/calls");
        assertThat(calls.statusCode()).isEqualTo(200);
        assertThat(json.readTree(calls.body()).isArray()).isTrue();
        assertThat(json.readTree(calls.body())).isEmpty();

        InetSocketAddress relay = voip.relay().orElseThrow().sipAddress();
        try (DatagramSocket phone = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            phone.setSoTimeout(10_000);
            int p = phone.getLocalPort();
            String register = "REGISTER sip:example.com SIP/2.0\r\n"
                    + "Via: SIP/2.0/UDP 127.0.0.1:" + p + ";branch=z9hG4bK-admin-1;rport\r\n"
                    + "Max-Forwards: 70\r\n"
                    + "From: <sip:alice@example.com>;tag=a1\r\n"
                    + "To: <sip:alice@example.com>\r\n"
                    + "Call-ID: register-1@admin-test\r\n"
                    + "CSeq: 1 REGISTER\r\n"
                    + "Contact: <sip:alice@127.0.0.1:" + p + ">\r\n"
                    + "Expires: 300\r\n"
                    + "Content-Length: 0\r\n\r\n";
            byte[] bytes = register.getBytes(StandardCharsets.US_ASCII);
            phone.send(new DatagramPacket(bytes, bytes.length, relay));
            DatagramPacket answer = new DatagramPacket(new byte[4096], 4096);
            phone.receive(answer);
            String response = new String(answer.getData(), 0, answer.getLength(), StandardCharsets.US_ASCII);
            assertThat(response).startsWith("SIP/2.0 200");
        }

        JsonNode relayView = json.readTree(get("/api/voip").body());
        assertThat(relayView.get("sipAddress").asText()).contains(String.valueOf(relay.getPort()));
        assertThat(relayView.get("registrations").toString()).contains("alice@example.com");
        assertThat(relayView.get("counters").get("requestsFromPhones").asLong()).isEqualTo(1);

        HttpResponse<String> unknown = get("/api/calls/nothing-like-it");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json.readTree(unknown.body()).get("type").asText()).isEqualTo("urn:hopwise:problem:unknown-call");

        String metrics = get("/actuator/prometheus").body();
        assertThat(metrics).contains("hopwise_voip_events_total{kind=\"requestsFromPhones\",node=\"site-a\"} 1.0");
        assertThat(metrics).contains("hopwise_voip_registrations{node=\"site-a\"} 1.0");
        assertThat(metrics).contains("hopwise_voip_calls{node=\"site-a\"} 0.0");
    }
}

package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import net.hopwise.admin.config.InvalidSettingsException;
import net.hopwise.admin.config.VoipProperties;
import net.hopwise.admin.voip.VoipRelay;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Without hopwise.voip.enabled the service runs no relay, and its calls API says why. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class VoipDisabledTest {
    @LocalServerPort
    int port;

    @Autowired
    ObjectMapper json;

    @Autowired
    VoipRelay voip;

    @DynamicPropertySource
    static void settings(DynamicPropertyRegistry registry) {
        registry.add("hopwise.node.name", () -> "quiet");
        registry.add("hopwise.link-security.insecure", () -> "true");
        registry.add("hopwise.node.bind", () -> "127.0.0.1:0");
    }

    @Test
    void theCallsApiAnswersThatTheRelayIsNotEnabled() throws Exception {
        assertThat(voip.enabled()).isFalse();
        HttpResponse<String> r = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/calls")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(json.readTree(r.body()).get("type").asText()).isEqualTo("urn:hopwise:problem:voip-disabled");
        assertThat(json.readTree(r.body()).get("detail").asText()).contains("hopwise.voip.enabled");
    }

    @Test
    void badSettingsAreNamedTogether() {
        VoipProperties p = new VoipProperties();
        p.setEnabled(true);
        p.setSipAddress("no-port-here");
        p.getRoutes().add("=");
        p.setAccessDelay(java.time.Duration.ofMillis(-1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> VoipRelay.start(p, null, null))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("hopwise.voip.sip-address: 'no-port-here' is not of the form host:port")
                .hasMessageContaining("hopwise.voip.routes: '='")
                .hasMessageContaining("hopwise.voip.access-delay");
    }
}

package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import net.hopwise.admin.config.InvalidSettingsException;
import net.hopwise.admin.config.InvalidSettingsFailureAnalyzer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** Start-up as an operator meets it: bad settings stop it with a clear report; no credentials, no changes. */
class StartupTest {
    @Test
    void badSettingsStopTheStartWithEveryBadValueNamed() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(AdminApplication.class)
                .web(WebApplicationType.NONE)
                .properties("hopwise.node.name=a", "hopwise.node.hop-limit=0",
                        "hopwise.node.neighbours[0]=b-nowhere", "hopwise.node.hello.dead-count=-1",
                        "spring.main.banner-mode=off");
        assertThatThrownBy(() -> app.run()).hasRootCauseInstanceOf(InvalidSettingsException.class)
                .satisfies(e -> {
                    Throwable root = e;
                    while (root.getCause() != null) {
                        root = root.getCause();
                    }
                    FailureAnalysis analysis = new InvalidSettingsFailureAnalyzer().analyze(root);
                    assertThat(analysis.getDescription()).contains("hopwise.node.hop-limit: hopLimit must be 1-255")
                            .contains("hopwise.node.neighbours[0]: neighbour 'b-nowhere'")
                            .contains("hopwise.node.hello.dead-count: deadCount must be at least 1");
                    assertThat(analysis.getAction()).contains("docs/configuration.md");
                });
    }

    @Test
    void aValueOfTheWrongTypeStopsTheStart() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(AdminApplication.class)
                .web(WebApplicationType.NONE)
                .properties("hopwise.node.name=a", "hopwise.node.hello.interval=often", "spring.main.banner-mode=off");
        assertThatThrownBy(() -> app.run()).hasStackTraceContaining("hopwise.node.hello.interval");
    }

    @Test
    void aTraceTimeoutBeyondTomcatsAsyncTimeoutStopsTheStart() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(AdminApplication.class)
                .web(WebApplicationType.NONE)
                .properties("hopwise.node.name=a", "hopwise.admin.trace-timeout=1m", "spring.main.banner-mode=off");
        assertThatThrownBy(() -> app.run()).hasStackTraceContaining("property trace-timeout")
                .hasStackTraceContaining("at most 30 s, got PT1M");
    }

    @Test
    void badMulticastRelayQueueingStopsTheStart() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(AdminApplication.class)
                .web(WebApplicationType.NONE)
                .properties("hopwise.node.name=a", "hopwise.link-security.insecure=true",
                        "hopwise.multicast.relay-queueing-rate=-5", "hopwise.multicast.relay-queueing-packets=0",
                        "spring.main.banner-mode=off");
        assertThatThrownBy(() -> app.run()).hasRootCauseInstanceOf(InvalidSettingsException.class)
                .hasStackTraceContaining("hopwise.multicast.relay-queueing-rate: bits a second, 0 for none, got -5")
                .hasStackTraceContaining("hopwise.multicast.relay-queueing-packets: at least 1, got 0");
    }

    @Test
    void theDemoRefusesBadRelayQueueingAndMulticastTurnedOff() {
        SpringApplicationBuilder bad = new SpringApplicationBuilder(AdminApplication.class)
                .web(WebApplicationType.NONE)
                .properties("hopwise.demo.enabled=true", "hopwise.multicast.relay-queueing-rate=-5",
                        "spring.main.banner-mode=off");
        assertThatThrownBy(() -> bad.run()).hasRootCauseInstanceOf(InvalidSettingsException.class)
                .hasStackTraceContaining("hopwise.multicast.relay-queueing-rate: bits a second, 0 for none, got -5");
        SpringApplicationBuilder off = new SpringApplicationBuilder(AdminApplication.class)
                .web(WebApplicationType.NONE)
                .properties("hopwise.demo.enabled=true", "hopwise.multicast.enabled=false", "spring.main.banner-mode=off");
        assertThatThrownBy(() -> off.run()).hasRootCauseInstanceOf(InvalidSettingsException.class)
                .hasStackTraceContaining("the demo's nodes always run multicast");
    }

    @Test
    void theDemosNodesTakeTheRelayQueueingTheyAreGiven() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(AdminApplication.class)
                .properties("hopwise.demo.enabled=true", "server.port=0", "hopwise.multicast.relay-queueing-rate=800000",
                        "hopwise.multicast.relay-queueing-packets=12", "spring.main.banner-mode=off");
        try (ConfigurableApplicationContext context = app.run()) {
            var nodes = context.getBean(net.hopwise.admin.overlay.LocalNodes.class).all();
            assertThat(nodes).hasSizeGreaterThan(1);
            for (var node : nodes.values()) {
                assertThat(node.module(net.hopwise.multicast.Multicast.class).layered().relayQueueing())
                        .as(node.name()).isEqualTo(net.hopwise.multicast.layered.RelayQueueing.fair(800_000, 12));
            }
        }
    }

    @Test
    void theDemoAndANamedNodeExcludeEachOther() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(AdminApplication.class)
                .web(WebApplicationType.NONE)
                .properties("hopwise.node.name=a", "hopwise.demo.enabled=true", "spring.main.banner-mode=off");
        assertThatThrownBy(() -> app.run()).hasStackTraceContaining("hopwise.demo.enabled: the demo runs its own nodes");
    }

    @Test
    void halfBasicCredentialsStopTheStart() {
        SpringApplicationBuilder app = new SpringApplicationBuilder(AdminApplication.class)
                .properties("hopwise.node.name=a", "hopwise.node.bind=127.0.0.1:0", "server.port=0",
                        "hopwise.link-security.insecure=true", "hopwise.admin.security.username=ops", "spring.main.banner-mode=off");
        assertThatThrownBy(() -> app.run()).hasRootCauseInstanceOf(InvalidSettingsException.class)
                .hasStackTraceContaining("set both username and password");
    }

    @Test
    void withoutCredentialsChangesAreDisabledAndReadsStayOpen() throws Exception {
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(AdminApplication.class)
                .properties("hopwise.node.name=solo", "hopwise.node.bind=127.0.0.1:0", "server.port=0",
                        "hopwise.link-security.insecure=true", "spring.main.banner-mode=off")
                .run()) {
            int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> read = http.send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + "/api/topology")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(read.statusCode()).isEqualTo(200);
            assertThat(read.body()).contains("\"self\":\"solo\"", "\"demo\":false");
            HttpResponse<String> change = http.send(HttpRequest.newBuilder(
                            URI.create("http://localhost:" + port + "/api/links/solo/b/impairment"))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Basic ZGVtbzpkZW1v") // demo:demo is no credential outside the demo
                    .PUT(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(change.statusCode()).isEqualTo(403);
            assertThat(change.headers().firstValue("Content-Type").orElse("")).contains("application/problem+json");
            assertThat(change.body()).contains("Changes disabled");
            // With no neighbours the node is ready at once: nothing to wait for.
            HttpResponse<String> ready = http.send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + "/actuator/health/readiness")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).isEqualTo(200);
        }
    }
}

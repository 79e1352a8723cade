package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import net.hopwise.admin.overlay.LocalNodes;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.trace.TraceModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Traces from a configured node, "gateway", into an overlay it does not run: gateway - b - c, where b
 * answers traces and c runs no trace module, so its probe goes unanswered until the probe times out
 * (2 s), longer than this service waits for a trace (1 s here): the request ends in a 504.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureObservability(tracing = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TraceNodeModeTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static OverlayNode b;
    private static OverlayNode c;

    @LocalServerPort
    int port;

    @Autowired
    ObjectMapper json;

    @Autowired
    LocalNodes nodes;

    @DynamicPropertySource
    static void overlay(DynamicPropertyRegistry registry) {
        b = OverlayNode.start(NodeConfig.builder("b").loopback(0).module(new TraceModule()).build());
        c = OverlayNode.start(NodeConfig.builder("c").loopback(0)
                .neighbour(NeighbourConfig.parse("b@127.0.0.1:" + b.localAddress().getPort())).build());
        b.addNeighbour(NeighbourConfig.parse("c@127.0.0.1:" + c.localAddress().getPort()));
        registry.add("hopwise.node.name", () -> "gateway");
        registry.add("hopwise.link-security.insecure", () -> "true");
        registry.add("hopwise.node.bind", () -> "127.0.0.1:0");
        registry.add("hopwise.node.neighbours[0]", () -> "b@127.0.0.1:" + b.localAddress().getPort());
        registry.add("hopwise.node.hello.interval", () -> "50ms");
        registry.add("hopwise.admin.trace-timeout", () -> "1s");
        registry.add("hopwise.multicast.enabled", () -> "false");
    }

    @AfterAll
    static void stopOthers() {
        b.stop();
        c.stop();
    }

    @BeforeEach
    void joined() {
        b.addNeighbour(NeighbourConfig.parse("gateway@127.0.0.1:" + nodes.self().localAddress().getPort()));
    }

    @Test
    @Order(1)
    void theConfiguredNodeTracesItsNeighbour() {
        Conditions.await("gateway to reach c", () -> nodes.self().reachableNodes(RoutingMetric.HOPS).contains("c"));
        // Until b has a route back to the freshly started gateway, its answer has no way home.
        AtomicReference<JsonNode> trace = new AtomicReference<>();
        Conditions.await("a trace to b that b answered", () -> {
            trace.set(get("/api/trace/b?metric=HOPS").body());
            return trace.get().get("reached").asBoolean();
        });
        JsonNode t = trace.get();
        assertThat(t.get("source").asText()).isEqualTo("gateway");
        assertThat(t.get("error").isNull()).isTrue();
        assertThat(t.get("hops")).hasSize(1);
        assertThat(t.get("hops").get(0).get("node").asText()).isEqualTo("b");
        assertThat(t.get("hops").get(0).get("roundTripMillis").isNumber()).isTrue();
    }

    @Test
    @Order(2)
    void aTraceThatOutlastsTheServicesWaitIsA504Problem() {
        Conditions.await("gateway to reach c", () -> nodes.self().reachableNodes(RoutingMetric.HOPS).contains("c"));
        Answer a = get("/api/trace/c?metric=HOPS");
        assertThat(a.status()).as("%s", a).isEqualTo(504);
        assertThat(a.contentType()).startsWith("application/problem+json");
        assertThat(a.body().get("type").asText()).isEqualTo("urn:hopwise:problem:trace-timeout");
        assertThat(a.body().get("title").asText()).isEqualTo("Trace timed out");
        assertThat(a.body().get("detail").asText()).contains("to c", "1000 ms", "hopwise.admin.trace-timeout");
    }

    @Test
    @Order(3)
    void aKnownNodeWithoutARouteIsTracedAsNotReachedWithTheReason() {
        c.stop();
        Conditions.await("c unreachable from gateway",
                () -> !nodes.self().reachableNodes(RoutingMetric.HOPS).contains("c"));
        Answer a = get("/api/trace/c?metric=HOPS");
        assertThat(a.status()).as("%s", a).isEqualTo(200);
        assertThat(a.body().get("reached").asBoolean()).isFalse();
        assertThat(a.body().get("hops")).isEmpty();
        assertThat(a.body().get("error").asText()).contains("c");
    }

    @Test
    @Order(4)
    void aNodeWithoutMulticastSaysSo() {
        Answer a = get("/api/multicast");
        assertThat(a.status()).isEqualTo(404);
        assertThat(a.body().get("type").asText()).isEqualTo("urn:hopwise:problem:multicast-disabled");
        assertThat(a.body().get("detail").asText()).contains("hopwise.multicast.enabled");
    }

    record Answer(int status, String contentType, JsonNode body) {}

    private Answer get(String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                    .header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""),
                    json.readTree(r.body()));
        } catch (IOException e) {
            throw new AssertionError("GET " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("GET " + path, e);
        }
    }
}

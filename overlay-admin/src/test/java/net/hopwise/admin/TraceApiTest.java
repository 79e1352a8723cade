package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import net.hopwise.admin.overlay.LocalNodes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * {@code GET /api/trace/{node}} against the demo overlay, over real HTTP: the answer is asynchronous,
 * so it goes through Tomcat's async dispatch as a browser's request does.
 */
@DemoServiceTest
class TraceApiTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    ObjectMapper json;

    @Autowired
    LocalNodes nodes;

    record Answer(int status, String contentType, JsonNode body) {}

    @BeforeEach
    void routesComputed() {
        Conditions.await("amsterdam to reach every demo node under every metric", () -> {
            JsonNode routes = get("/api/routes").body().get("routes");
            if (routes.size() != 4) {
                return false;
            }
            for (JsonNode r : routes) {
                for (JsonNode p : r.get("metrics")) {
                    if (!p.get("reachable").asBoolean()) {
                        return false;
                    }
                }
            }
            return true;
        });
    }

    @Test
    void aTraceFollowsTheRouteOfTheMomentAndMeasuresEveryHop() {
        // Two routes to denver are two hops long (by edinburgh and by the chord to chicago): the trace
        // must follow whichever the node uses, so trace and route are read until they agree.
        AtomicReference<JsonNode> trace = new AtomicReference<>();
        AtomicReference<String> noRoute = new AtomicReference<>();
        Conditions.await("a trace to denver along the HOPS route", () -> {
            List<String> route = new ArrayList<>();
            get("/api/routes/denver").body().get("metrics").get("HOPS").get("path").forEach(n -> route.add(n.asText()));
            if (route.isEmpty() && noRoute.get() == null) {
                // Seen once in CI after every node had been reachable; the events show whether every link
                // went down at one moment, as a stall of the demo's one thread makes them (below).
                StringBuilder stalls = new StringBuilder();
                nodes.all().forEach((name, node) -> stalls.append(' ').append(name).append(' ')
                        .append(node.loopStalls()).append(" (longest ").append(node.longestLoopStallNanos() / 1_000_000)
                        .append(" ms)"));
                noRoute.set(java.time.Instant.now() + "; loop stalls:" + stalls + "; topology "
                        + get("/api/topology").body() + "; events " + get("/api/events/recent").body());
            }
            Answer a = get("/api/trace/denver?metric=HOPS");
            assertThat(a.status()).as("%s", a).isEqualTo(200);
            trace.set(a.body());
            // The chord to chicago loses 10% each way: a probe across it may go unanswered, and is sent again.
            boolean answered = true;
            for (JsonNode h : a.body().get("hops")) {
                answered &= h.get("roundTripMillis").isNumber();
            }
            // An empty path: no route to denver at that moment, so wait. The demo's nodes share one
            // thread, and a stall of it longer than the dead interval takes every link down and up at
            // once, and every route with them: each end finds the other silent for the interval
            // (holding a loop two nodes share for 1.5 s does it). The suite's leak check held it up to
            // 990 ms with back-to-back full collections until System.gc() ran as a concurrent cycle.
            return !route.isEmpty() && nodes(a.body()).equals(route.subList(1, route.size()))
                    && a.body().get("reached").asBoolean() && answered;
        });
        if (noRoute.get() != null) {
            System.out.println("TraceApiTest: amsterdam had no HOPS route to denver for a while, at " + noRoute.get());
        }
        JsonNode t = trace.get();
        assertThat(t.get("source").asText()).isEqualTo("amsterdam");
        assertThat(t.get("destination").asText()).isEqualTo("denver");
        assertThat(t.get("metric").asText()).isEqualTo("HOPS");
        assertThat(t.get("unit").asText()).isEqualTo("hops");
        assertThat(t.get("error").isNull()).isTrue();
        JsonNode hops = t.get("hops");
        assertThat(hops).hasSize(2);
        for (int i = 0; i < hops.size(); i++) {
            JsonNode h = hops.get(i);
            assertThat(h.get("hop").asInt()).isEqualTo(i + 1);
            assertThat(h.get("linkCost").asDouble()).isEqualTo(1.0);
            assertThat(h.get("linkRttMillis").isNumber()).as("%s", h).isTrue();
            assertThat(h.get("roundTripMillis").isNumber()).as("%s", h).isTrue();
        }
        assertThat(hops.get(1).get("node").asText()).isEqualTo("denver");
        // Either way to denver is delayed by at least 44 ms each way (5 + 40 or 32 + 12): the probe's
        // round trip crossed the delayed links.
        assertThat(hops.get(1).get("roundTripMillis").asDouble()).isGreaterThan(80);
    }

    @Test
    void linkCostsAreUnderTheAskedMetricWhoseNameMayBeInAnyCase() {
        JsonNode t = ok("/api/trace/berlin?metric=latency");
        assertThat(t.get("metric").asText()).isEqualTo("LATENCY");
        assertThat(t.get("unit").asText()).isEqualTo("ms");
        assertThat(t.get("reached").asBoolean()).as("%s", t).isTrue();
        // amsterdam~berlin is delayed 6 ms each way: its latency cost and RTT show it.
        JsonNode hop = t.get("hops").get(0);
        assertThat(hop.get("node").asText()).isEqualTo("berlin");
        assertThat(hop.get("linkCost").asDouble()).isGreaterThanOrEqualTo(5.5);
        assertThat(hop.get("linkRttMillis").asDouble()).isGreaterThanOrEqualTo(11);
        assertThat(ok("/api/trace/berlin?metric=Expected_Latency").get("metric").asText())
                .isEqualTo("EXPECTED_LATENCY");
        // Left out, the metric is the node's default.
        assertThat(ok("/api/trace/berlin").get("metric").asText())
                .isEqualTo(nodes.self().config().defaultMetric().name());
    }

    @Test
    void badRequestsAreProblems() {
        Answer metric = get("/api/trace/berlin?metric=fastest");
        assertProblem(metric, 400, "urn:hopwise:problem:wrong-type");
        assertThat(metric.body().get("detail").asText()).contains("metric", "HOPS, LATENCY, LOSS, EXPECTED_LATENCY",
                "fastest");
        Answer unknown = get("/api/trace/atlantis");
        assertProblem(unknown, 404, "urn:hopwise:problem:unknown-node");
        assertThat(unknown.body().get("detail").asText()).contains("atlantis");
        Answer self = get("/api/trace/amsterdam");
        assertProblem(self, 400, "urn:hopwise:problem:invalid-value");
        assertThat(self.body().get("detail").asText()).contains("itself");
        assertThat(get("/v3/api-docs").body().get("paths").has("/api/trace/{node}")).isTrue();
    }

    private void assertProblem(Answer a, int status, String type) {
        assertThat(a.status()).as("%s", a).isEqualTo(status);
        assertThat(a.contentType()).as("%s", a).startsWith("application/problem+json");
        assertThat(a.body().get("status").asInt()).isEqualTo(status);
        assertThat(a.body().get("type").asText()).isEqualTo(type);
    }

    private static List<String> nodes(JsonNode trace) {
        List<String> names = new ArrayList<>();
        trace.get("hops").forEach(h -> names.add(h.get("node").asText()));
        return names;
    }

    private JsonNode ok(String path) {
        Answer a = get(path);
        assertThat(a.status()).as("%s", a).isEqualTo(200);
        return a.body();
    }

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

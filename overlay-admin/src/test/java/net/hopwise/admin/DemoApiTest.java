package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Stream;
import net.hopwise.admin.overlay.DemoOverlay;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * Every endpoint against the demo overlay, the service's configuration when nothing is configured.
 * Over 400 lines: every endpoint's checks share this class's helpers (requests, JSON reads, waits on
 * the running overlay), which classes of their own would repeat.
 */
@DemoServiceTest
class DemoApiTest {
    private static final String PROBLEM = "application/problem+json";

    @Autowired
    MockMvc mvc;

    @Autowired
    ObjectMapper json;

    @LocalServerPort
    int port;

    @BeforeEach
    void overlayIsUp() {
        Conditions.await("every demo link up and every route computed", () -> {
            JsonNode t = read(get("/api/topology"));
            JsonNode r = read(get("/api/routes"));
            return t.get("links").size() == 6
                    && stream(t.get("links")).allMatch(l -> l.get("state").asText().equals("UP"))
                    && r.get("routes").size() == 4
                    && stream(r.get("routes")).allMatch(x -> stream(x.get("metrics")).allMatch(
                            p -> p.get("reachable").asBoolean()));
        });
    }

    // ---------------------------------------------------------------- nodes, topology, routes

    @Test
    void nodesListsTheWholeDemoOverlay() throws Exception {
        mvc.perform(get("/api/nodes")).andExpect(status().isOk())
                .andExpect(jsonPath("$[*].name").value(hasItems(DemoOverlay.NODES.toArray())))
                .andExpect(jsonPath("$", hasSize(5)))
                .andExpect(jsonPath("$[?(@.name=='amsterdam')].self").value(hasItems(true)))
                .andExpect(jsonPath("$[*].local").value(everyItem(org.hamcrest.Matchers.is(true))));
        mvc.perform(get("/api/nodes/chicago")).andExpect(status().isOk())
                .andExpect(jsonPath("$.name").value("chicago"))
                .andExpect(jsonPath("$.reachable").value(true))
                .andExpect(jsonPath("$.advertisedLinks").value(3))
                .andExpect(jsonPath("$.loopStalls").isNumber())
                .andExpect(jsonPath("$.longestLoopStallMillis").isNumber());
    }

    @Test
    void unknownNodeIsAProblem404() throws Exception {
        mvc.perform(get("/api/nodes/atlantis")).andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.status").value(404))
                .andExpect(jsonPath("$.title").value("Unknown node"))
                .andExpect(jsonPath("$.detail", containsString("atlantis")));
    }

    @Test
    void topologyGivesEveryLinkItsCostInBothDirectionsUnderEveryMetric() throws Exception {
        JsonNode t = read(get("/api/topology"));
        assertThat(t.get("self").asText()).isEqualTo("amsterdam");
        assertThat(t.get("demo").asBoolean()).isTrue();
        assertThat(stream(t.get("links")).map(l -> l.get("id").asText())).containsExactlyInAnyOrder(
                "amsterdam~berlin", "berlin~chicago", "chicago~denver", "denver~edinburgh", "amsterdam~edinburgh",
                "amsterdam~chicago");
        for (JsonNode link : t.get("links")) {
            assertThat(link.get("directions")).hasSize(2);
            for (JsonNode d : link.get("directions")) {
                assertThat(d.get("advertised").asBoolean()).isTrue();
                assertThat(d.get("costs").get("HOPS").asDouble()).isEqualTo(1.0);
                assertThat(d.get("costs").get("LATENCY").asDouble()).isEqualTo(d.get("latencyMs").asDouble());
                assertThat(d.get("costs").get("LOSS").isNumber()).isTrue();
                assertThat(d.get("costs").get("EXPECTED_LATENCY").asDouble())
                        .isGreaterThanOrEqualTo(d.get("latencyMs").asDouble());
            }
        }
        // The demo delays each link to imitate distance: the advertised latency reflects it.
        JsonNode ad = stream(t.get("links")).filter(l -> l.get("id").asText().equals("denver~edinburgh")).findFirst()
                .orElseThrow();
        assertThat(ad.get("directions").get(0).get("latencyMs").asDouble()).isGreaterThan(35);
    }

    @Test
    void routesGiveNextHopPathAndCostPerDestinationAndMetric() throws Exception {
        JsonNode r = read(get("/api/routes"));
        assertThat(r.get("from").asText()).isEqualTo("amsterdam");
        for (JsonNode route : r.get("routes")) {
            String destination = route.get("destination").asText();
            for (String metric : List.of("HOPS", "LATENCY", "LOSS", "EXPECTED_LATENCY")) {
                JsonNode p = route.get("metrics").get(metric);
                List<String> path = stream(p.get("path")).map(JsonNode::asText).toList();
                assertThat(path.get(0)).isEqualTo("amsterdam");
                assertThat(path.get(path.size() - 1)).isEqualTo(destination);
                assertThat(p.get("nextHop").asText()).isEqualTo(path.get(1));
                assertThat(p.get("cost").isNumber()).isTrue();
            }
        }
        // Latency routing avoids the 35 ms berlin-chicago link: chicago is reached over the chord.
        mvc.perform(get("/api/routes/denver")).andExpect(status().isOk())
                .andExpect(jsonPath("$.metrics.HOPS.cost").value(2.0))
                .andExpect(jsonPath("$.metrics.HOPS.unit").value("hops"));
        mvc.perform(get("/api/routes").param("metric", "LOSS")).andExpect(status().isOk())
                .andExpect(jsonPath("$.routes[0].metrics.LOSS").exists())
                .andExpect(jsonPath("$.routes[0].metrics.HOPS").doesNotExist());
    }

    @Test
    void routeQueriesRejectBadInput() throws Exception {
        mvc.perform(get("/api/routes").param("metric", "SHORTEST")).andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM));
        mvc.perform(get("/api/routes/atlantis")).andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM));
        mvc.perform(get("/api/routes/amsterdam")).andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("itself")));
    }

    @Test
    void sessionsListTheDemoReliableSessionAndRealTimeFlow() throws Exception {
        Conditions.await("the demo session delivering and the demo flow arriving", () -> {
            JsonNode all = read(get("/api/sessions"));
            return reliableSession(all).map(x -> x.get("reliable").get("messagesDelivered").asLong() > 0).orElse(false)
                    && realTimeFlow(all).map(x -> x.get("realTime").get("received").asLong() > 0).orElse(false);
        });
        mvc.perform(get("/api/sessions")).andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON));
        JsonNode all = read(get("/api/sessions"));
        JsonNode session = reliableSession(all).orElseThrow();
        assertThat(session.get("node").asText()).isEqualTo("amsterdam");
        assertThat(session.get("localPort").asInt()).isEqualTo(DemoOverlay.SESSION_PORT);
        assertThat(session.get("peerPort").asInt()).isEqualTo(DemoOverlay.SESSION_PORT);
        assertThat(session.get("realTime").isNull()).isTrue();
        JsonNode r = session.get("reliable");
        assertThat(r.get("state").asText()).isIn("OPEN", "BLOCKED");
        assertThat(r.get("packetsSent").asLong()).isPositive();
        assertThat(r.get("retransmissions").asLong()).isNotNegative();
        assertThat(r.get("congestionWindow").asInt()).isPositive();
        assertThat(r.get("sendBuffered").asInt()).isNotNegative();
        assertThat(r.get("messagesSent").asLong()).isPositive();

        JsonNode flow = realTimeFlow(all).orElseThrow();
        assertThat(flow.get("node").asText()).isEqualTo("amsterdam");
        assertThat(flow.get("localPort").asInt()).isEqualTo(DemoOverlay.REAL_TIME_PORT);
        assertThat(flow.get("reliable").isNull()).isTrue();
        JsonNode rt = flow.get("realTime");
        assertThat(rt.get("lost").asLong()).isNotNegative();
        assertThat(rt.get("late").asLong()).isNotNegative();
        // One process, one clock: the one-way delay includes the chord's 32 ms.
        assertThat(rt.get("delayP50Ms").asDouble()).isGreaterThan(25);
        assertThat(rt.get("delayP99Ms").asDouble()).isGreaterThanOrEqualTo(rt.get("delayP50Ms").asDouble());
        assertThat(rt.get("jitterMs").asDouble()).isNotNegative();
    }


    // ---------------------------------------------------------------- link statistics

    @Test
    void everyDemoLinkIsMeasuredAtBothEnds() throws Exception {
        Conditions.await("throughput measured on every link", () -> stream(read(get("/api/links")))
                .allMatch(l -> l.get("summary").get("throughputBps").isNumber()));
        JsonNode links = read(get("/api/links"));
        assertThat(links).hasSize(6);
        for (JsonNode l : links) {
            assertThat(l.get("source").asText()).isEqualTo("MEASURED");
            assertThat(l.get("summary").get("rttMs").asDouble()).isPositive();
            assertThat(l.get("summary").get("throughputBps").asDouble()).isPositive();
            assertThat(l.get("summary").get("retransmissions").isIntegralNumber()).isTrue();
            assertThat(l.get("summary").get("retransmissions").asLong()).isNotNegative();
            assertThat(l.get("summary").get("queuedPackets").isIntegralNumber()).isTrue();
            assertThat(l.get("summary").get("queuedPackets").asInt()).isNotNegative();
            for (JsonNode end : l.get("ends")) {
                JsonNode m = end.get("measured");
                assertThat(m.get("status").asText()).isEqualTo("UP");
                assertThat(m.get("packetsIn").asLong()).isPositive();
                assertThat(m.get("bytesOut").asLong()).isPositive();
                assertThat(m.get("upTransitions").asLong()).isPositive();
                assertThat(m.get("retransmissions").asLong()).isEqualTo(
                        m.get("reliableRetransmissions").asLong() + m.get("realTimeRetransmissions").asLong());
                assertThat(m.get("queuedPackets").asInt()).isNotNegative();
            }
        }
    }

    @Test
    void theLossyChordShowsItsLoss() {
        Conditions.await("loss measured on amsterdam~chicago", () -> {
            JsonNode l = read(get("/api/links/chicago/amsterdam"));
            return l.get("id").asText().equals("amsterdam~chicago") && l.get("summary").get("lossRate").asDouble() > 0.02;
        });
    }

    @Test
    void theLossyChordRepairsItsLossesHopByHop() {
        // The demo's session and voice flow cross the chord, which loses 10%: its ends resend.
        Conditions.await("reliable and real-time retransmissions on amsterdam~chicago", () -> {
            JsonNode l = read(get("/api/links/amsterdam/chicago"));
            long reliable = 0;
            long realTime = 0;
            long nacks = 0;
            for (JsonNode end : l.get("ends")) {
                JsonNode m = end.get("measured");
                reliable += m.get("reliableRetransmissions").asLong();
                realTime += m.get("realTimeRetransmissions").asLong();
                nacks += m.get("nacksSent").asLong();
            }
            return reliable > 0 && realTime > 0 && nacks > 0
                    && l.get("summary").get("retransmissions").asLong() == reliable + realTime;
        });
    }

    @Test
    void linkQueriesRejectUnknownNodesAndLinks() throws Exception {
        mvc.perform(get("/api/links/berlin/denver")).andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.title").value("Unknown link"));
        mvc.perform(get("/api/links/berlin/atlantis")).andExpect(status().isNotFound())
                .andExpect(jsonPath("$.title").value("Unknown node"));
        mvc.perform(get("/api/links/berlin/berlin")).andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM));
        mvc.perform(get("/api/nowhere")).andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM));
    }

    @Test
    void historyHasSamplesOfEachLink() throws Exception {
        Conditions.await("three samples of amsterdam~berlin",
                () -> read(get("/api/links/amsterdam/berlin/history")).size() >= 3);
        JsonNode h = read(get("/api/links/berlin/amsterdam/history").param("limit", "2"));
        assertThat(h).hasSize(2);
        assertThat(h.get(1).get("rttMs").asDouble()).isPositive();
        assertThat(h.get(1).get("state").asText()).isEqualTo("UP");
        mvc.perform(get("/api/links/amsterdam/berlin/history").param("limit", "0"))
                .andExpect(status().isBadRequest()).andExpect(content().contentTypeCompatibleWith(PROBLEM));
        mvc.perform(get("/api/links/amsterdam/berlin/history").param("limit", "many"))
                .andExpect(status().isBadRequest()).andExpect(content().contentTypeCompatibleWith(PROBLEM));
    }

    // ---------------------------------------------------------------- impairment

    @Test
    void impairmentsOfTheDemoAreVisible() throws Exception {
        mvc.perform(get("/api/links/amsterdam/chicago/impairment")).andExpect(status().isOk())
                .andExpect(jsonPath("$.link").value("amsterdam~chicago"))
                .andExpect(jsonPath("$.directions[0].from").value("amsterdam"))
                .andExpect(jsonPath("$.directions[0].appliedAt").value("amsterdam"))
                .andExpect(jsonPath("$.directions[0].appliedTo").value("OUTBOUND"))
                .andExpect(jsonPath("$.directions[0].lossRate").value(0.1))
                .andExpect(jsonPath("$.directions[1].appliedAt").value("chicago"))
                .andExpect(jsonPath("$.directions[1].delayMs").value(32.0));
    }

    @Test
    void changingAnImpairmentNeedsCredentials() throws Exception {
        String body = "{\"lossRate\":0.2}";
        mvc.perform(put("/api/links/berlin/chicago/impairment").contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isUnauthorized())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(header().string("WWW-Authenticate", containsString("Basic")));
        mvc.perform(put("/api/links/berlin/chicago/impairment").contentType(MediaType.APPLICATION_JSON).content(body)
                        .header("X-Requested-With", "hopwise-dashboard"))
                .andExpect(status().isUnauthorized())
                .andExpect(header().string("WWW-Authenticate", org.hamcrest.Matchers.not(containsString("Basic"))));
        mvc.perform(put("/api/links/berlin/chicago/impairment").contentType(MediaType.APPLICATION_JSON).content(body)
                        .with(httpBasic("demo", "wrong")))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.detail", containsString("not valid")));
        mvc.perform(put("/api/links/berlin/chicago/impairment").contentType(MediaType.APPLICATION_JSON).content(body)
                        .header("Authorization", "Bearer nothing-configured"))
                .andExpect(status().isUnauthorized());
        mvc.perform(delete("/api/links/berlin/chicago/impairment")).andExpect(status().isUnauthorized());
        // Nothing changed.
        mvc.perform(get("/api/links/berlin/chicago/impairment"))
                .andExpect(jsonPath("$.directions[0].lossRate").value(0.0));
    }

    @Test
    void setReadRestoreAndClearAnImpairmentInEachDirection() throws Exception {
        try {
            operator(put("/api/links/chicago/berlin/impairment").contentType(MediaType.APPLICATION_JSON)
                    .content("{\"direction\":\"FORWARD\",\"lossRate\":0.25,\"delayMs\":50,\"jitterMs\":5,"
                            + "\"rateKbps\":2000,\"queuePackets\":50,\"duplicateRate\":0.01,\"reorderRate\":0.02,"
                            + "\"reorderDelayMs\":3}"))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.link").value("berlin~chicago"))
                    .andExpect(jsonPath("$.directions[0].from").value("chicago"))
                    .andExpect(jsonPath("$.directions[0].lossRate").value(0.25))
                    .andExpect(jsonPath("$.directions[0].delayMs").value(50.0))
                    .andExpect(jsonPath("$.directions[0].jitterMs").value(5.0))
                    .andExpect(jsonPath("$.directions[0].rateKbps").value(2000.0))
                    .andExpect(jsonPath("$.directions[0].queuePackets").value(50))
                    .andExpect(jsonPath("$.directions[0].duplicateRate").value(0.01))
                    .andExpect(jsonPath("$.directions[0].reorderRate").value(0.02))
                    .andExpect(jsonPath("$.directions[0].reorderDelayMs").value(3.0))
                    // The reverse direction keeps the demo's delay.
                    .andExpect(jsonPath("$.directions[1].delayMs").value(35.0))
                    .andExpect(jsonPath("$.directions[1].lossRate").value(0.0));
            // REVERSE of berlin/chicago is chicago to berlin: the direction set above, back to the demo's 35 ms.
            operator(delete("/api/links/berlin/chicago/impairment").param("direction", "REVERSE"))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.directions[0].from").value("berlin"))
                    .andExpect(jsonPath("$.directions[0].delayMs").value(35.0))
                    .andExpect(jsonPath("$.directions[1].delayMs").value(35.0))
                    .andExpect(jsonPath("$.directions[1].lossRate").value(0.0))
                    .andExpect(jsonPath("$.directions[1].rateKbps").value(0.0));
            operator(put("/api/links/berlin/chicago/impairment").contentType(MediaType.APPLICATION_JSON).content("{}"))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.directions[*].none").value(everyItem(org.hamcrest.Matchers.is(true))));
            // Events are logged by the event thread: each shows up soon after its change, not with it.
            Conditions.await("set, restored and cleared events of berlin~chicago", () -> {
                List<String> details = stream(read(get("/api/events/recent")))
                        .filter(e -> e.get("type").asText().equals("IMPAIRMENT"))
                        .map(e -> e.get("detail").asText()).toList();
                return details.stream().anyMatch(d -> d.startsWith("berlin~chicago: set to"))
                        && details.stream().anyMatch(d -> d.startsWith("berlin~chicago: restored"))
                        && details.stream().anyMatch(d -> d.startsWith("berlin~chicago: cleared"));
            });
        } finally {
            restoreDemo("berlin", "chicago", 35);
        }
    }

    @Test
    void badImpairmentsAreProblems400() throws Exception {
        for (String body : List.of("{\"lossRate\":2}", "{\"delayMs\":-1}", "{\"jitterMs\":4000000}",
                "{\"reorderRate\":0.5}", "{\"rateKbps\":-5}", "{\"queuePackets\":0}", "{\"duplicateRate\":-0.1}",
                "{\"direction\":\"SIDEWAYS\"}", "{\"lossRate\":\"lots\"}", "{not json", "")) {
            operator(put("/api/links/berlin/chicago/impairment").contentType(MediaType.APPLICATION_JSON).content(body))
                    .andExpect(status().isBadRequest())
                    .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                    .andExpect(jsonPath("$.status").value(400));
        }
        operator(put("/api/links/berlin/chicago/impairment").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"lossRate\":2}"))
                .andExpect(jsonPath("$.detail", containsString("lossRate")));
        operator(delete("/api/links/berlin/chicago/impairment").param("direction", "UP"))
                .andExpect(status().isBadRequest());
        operator(put("/api/links/berlin/denver/impairment").contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(status().isNotFound()).andExpect(jsonPath("$.title").value("Unknown link"));
        operator(put("/api/links/berlin/atlantis/impairment").contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(status().isNotFound()).andExpect(jsonPath("$.title").value("Unknown node"));
        mvc.perform(get("/api/links/berlin/chicago/impairment"))
                .andExpect(jsonPath("$.directions[0].delayMs").value(35.0))
                .andExpect(jsonPath("$.directions[0].lossRate").value(0.0));
    }

    @Test
    void aDelayShowsInTheMeasuredRtt() throws Exception {
        try {
            operator(put("/api/links/amsterdam/edinburgh/impairment").contentType(MediaType.APPLICATION_JSON)
                    .content("{\"delayMs\":120}")).andExpect(status().isOk());
            Conditions.await("RTT of amsterdam~edinburgh above 200 ms", () ->
                    read(get("/api/links/amsterdam/edinburgh")).get("summary").get("rttMs").asDouble() > 200);
        } finally {
            restoreDemo("amsterdam", "edinburgh", 5);
        }
    }

    // ---------------------------------------------------------------- events

    @Test
    void theEventStreamCarriesLinkDownRerouteAndLinkUp() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> response = client.sendAsync(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/events"))
                        .header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofLines());
        Thread reader = new Thread(() -> response.join().body().forEach(lines::add), "sse-reader");
        reader.setDaemon(true);
        reader.start();
        Conditions.await("the stream to open", () -> lines.contains(":hopwise events"));
        assertThat(response.join().headers().firstValue("Content-Type").orElse(""))
                .startsWith("text/event-stream");
        try {
            // Losing everything both ways takes the link down; the latency routes through it move.
            operator(put("/api/links/edinburgh/amsterdam/impairment").contentType(MediaType.APPLICATION_JSON)
                    .content("{\"lossRate\":1}")).andExpect(status().isOk());
            Conditions.await("LINK_DOWN and REROUTE on the stream", () ->
                    lines.contains("event:LINK_DOWN") && lines.contains("event:REROUTE"));
        } finally {
            restoreDemo("amsterdam", "edinburgh", 5);
        }
        Conditions.await("LINK_UP on the stream", () -> lines.contains("event:LINK_UP"));
        String down = lines.stream().filter(l -> l.startsWith("data:") && l.contains("\"LINK_DOWN\"")).findFirst()
                .orElseThrow();
        JsonNode event = json.readTree(down.substring(5));
        assertThat(List.of(event.get("node").asText(), event.get("peer").asText()))
                .containsExactlyInAnyOrder("amsterdam", "edinburgh");
        assertThat(lines).anyMatch(l -> l.startsWith("id:"));
        JsonNode reroute = stream(read(get("/api/events/recent"))).filter(e -> e.get("type").asText().equals("REROUTE"))
                .reduce((a, b) -> b).orElseThrow();
        assertThat(reroute.get("node").asText()).isEqualTo("amsterdam");
        assertThat(reroute.has("oldPath") && reroute.has("newPath")).isTrue();
        response.cancel(true);
    }

    @Test
    void recentEventsRejectBadInput() throws Exception {
        mvc.perform(get("/api/events/recent").param("after", "-1")).andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM));
        long last = 0;
        for (JsonNode e : read(get("/api/events/recent"))) {
            assertThat(e.get("id").asLong()).isGreaterThan(last);
            last = e.get("id").asLong();
        }
        // The demo keeps rerouting, so events newer than the listing may arrive before the next request;
        // what "after" must do is leave out every event up to the one named.
        long seen = last;
        assertThat(read(get("/api/events/recent").param("after", Long.toString(last))))
                .allSatisfy(e -> assertThat(e.get("id").asLong()).isGreaterThan(seen));
    }

    // ---------------------------------------------------------------- actuator, OpenAPI, dashboard

    @Test
    void healthAndReadinessReflectTheNode() throws Exception {
        mvc.perform(get("/actuator/health/readiness")).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"));
        // Anonymous callers get the status alone; the operator gets the details.
        mvc.perform(get("/actuator/health")).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"))
                .andExpect(jsonPath("$.components").doesNotExist());
        operator(get("/actuator/health")).andExpect(status().isOk())
                .andExpect(jsonPath("$.components.overlay.status").value("UP"))
                .andExpect(jsonPath("$.components.overlay.details.node").value("amsterdam"))
                .andExpect(jsonPath("$.components.overlay.details.linksUp").value(3))
                .andExpect(jsonPath("$.components.overlay.details.nodesReachable").value(4))
                .andExpect(jsonPath("$.components.diskSpace.details.path").exists());
        mvc.perform(get("/actuator/health/liveness")).andExpect(status().isOk());
    }

    @Test
    void prometheusExposesTheHopwiseMeters() throws Exception {
        String text = mvc.perform(get("/actuator/prometheus")).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString();
        assertThat(text).contains("hopwise_link_rtt_seconds{node=\"amsterdam\",peer=\"berlin\"}")
                .contains("hopwise_link_loss{direction=\"in\",node=\"chicago\",peer=\"amsterdam\"}")
                .contains("hopwise_node_packets_total{direction=\"out\",node=\"denver\"}")
                .contains("hopwise_routing_nodes{node=\"edinburgh\"} 5.0")
                .contains("hopwise_node_loop_stalls_total{node=\"berlin\"}");
    }

    @Test
    void theDemosLinksAreAuthenticatedWithItsGeneratedKeys() throws Exception {
        Conditions.await("amsterdam~berlin authenticated at amsterdam", () -> {
            try {
                JsonNode sec = read(get("/api/links/amsterdam/berlin")).get("ends").get(0).get("measured").get("security");
                return sec != null && sec.get("authenticated").asBoolean();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        JsonNode sec = read(get("/api/links/amsterdam/berlin")).get("ends").get(0).get("measured").get("security");
        assertThat(sec.get("peerFingerprint").asText()).isNotBlank();
        assertThat(sec.get("handshakes").asLong()).isPositive();
        String text = mvc.perform(get("/actuator/prometheus")).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString();
        assertThat(text).contains("hopwise_security_authenticated{node=\"chicago\",peer=\"denver\"} 1.0");
        // Each node's handshake state within its bound, and its link state signed and verified by the others.
        JsonNode nodes = read(get("/api/security"));
        assertThat(nodes).hasSize(DemoOverlay.NODES.size());
        assertThat(nodes.get(0).get("node").asText()).isEqualTo("amsterdam");
        for (JsonNode n : nodes) {
            assertThat(n.get("secured").asBoolean()).as(n.toString()).isTrue();
            JsonNode h = n.get("handshakes");
            assertThat(h.get("pendingResponses").asInt()).isBetween(0, h.get("maxPendingResponses").asInt());
            assertThat(h.get("maxPendingResponses").asInt()).isPositive();
            assertThat(n.get("linkStateVerification").get("verifications").asLong()).as(n.toString()).isPositive();
        }
    }

    @Test
    void theDemosMulticastGroupIsShownWithItsMembersAndTraffic() throws Exception {
        Conditions.await("the demo group's members all deliver", () -> {
            JsonNode g = demoGroup();
            if (g == null || g.get("memberNodes").size() < 3) {
                return false;
            }
            for (JsonNode c : g.get("local")) {
                if (DemoOverlay.GROUP_MEMBERS.contains(c.get("node").asText()) && c.get("delivered").asLong() == 0) {
                    return false;
                }
            }
            return true;
        });
        JsonNode g = demoGroup();
        assertThat(g.get("memberNodes")).extracting(JsonNode::asText)
                .containsExactlyElementsOf(DemoOverlay.GROUP_MEMBERS);
        assertThat(g.get("id").asText()).isEqualTo(net.hopwise.multicast.GroupId.ofName(DemoOverlay.GROUP).toString());
        JsonNode source = null;
        for (JsonNode c : g.get("local")) {
            if (c.get("node").asText().equals("amsterdam")) {
                source = c;
            }
        }
        assertThat(source.get("sent").asLong()).isPositive();
        assertThat(source.get("localMembers").asInt()).isZero();
        // The conference's reliable chat: held by its source and delivered, in order, by every member.
        Conditions.await("every member delivers the reliable chat", () -> {
            java.util.Set<String> delivering = new java.util.TreeSet<>();
            for (JsonNode r : demoGroup().get("reliable")) {
                if (r.get("role").asText().equals("member") && r.get("delivered").asLong() > 0) {
                    delivering.add(r.get("node").asText());
                }
            }
            return delivering.containsAll(DemoOverlay.GROUP_MEMBERS);
        });
        boolean sourceHolds = false;
        for (JsonNode r : demoGroup().get("reliable")) {
            assertThat(r.get("source").asText()).isEqualTo("amsterdam");
            assertThat(r.get("port").asInt()).isEqualTo(DemoOverlay.GROUP_CHAT_PORT);
            sourceHolds |= r.get("node").asText().equals("amsterdam") && r.get("role").asText().equals("source")
                    && r.get("next").asLong() > 0;
        }
        assertThat(sourceHolds).as("the source's stream").isTrue();
        // The conference's voice, real-time multicast: every member receives amsterdam's stream; what its
        // counters say holds together (recovered and late are parts of received; delay percentiles ordered).
        Conditions.await("every member receives the real-time voice", () -> {
            java.util.Set<String> receiving = new java.util.TreeSet<>();
            for (JsonNode r : demoGroup().get("realTime")) {
                if (r.get("port").asInt() == DemoOverlay.GROUP_VOICE_PORT && r.get("received").asLong() > 10) {
                    receiving.add(r.get("node").asText());
                }
            }
            return receiving.containsAll(DemoOverlay.GROUP_MEMBERS);
        });
        for (JsonNode r : demoGroup().get("realTime")) {
            assertThat(r.get("source").asText()).as(r.toString()).isEqualTo("amsterdam");
            assertThat(DemoOverlay.GROUP_MEMBERS).as("only members receive: " + r).contains(r.get("node").asText());
            assertThat(r.get("recovered").asLong() + r.get("late").asLong()).as(r.toString())
                    .isLessThanOrEqualTo(r.get("received").asLong());
            assertThat(r.get("missedPercent").asDouble()).as(r.toString()).isBetween(0.0, 100.0);
            assertThat(r.get("p50DelayMillis").asDouble()).as(r.toString()).isPositive()
                    .isLessThanOrEqualTo(r.get("p99DelayMillis").asDouble());
            assertThat(r.get("jitterMillis").asDouble()).as(r.toString()).isNotNegative();
        }
        // The source's tree: rooted at amsterdam, reaching every member, each node with one parent; the
        // nodes it has relay (those with children, the source aside) are nodes that relayed.
        JsonNode trees = demoGroup().get("trees");
        assertThat(trees).hasSize(1);
        assertThat(trees.get(0).get("source").asText()).isEqualTo("amsterdam");
        java.util.Map<String, String> parent = new java.util.HashMap<>();
        for (JsonNode l : trees.get(0).get("links")) {
            assertThat(parent.put(l.get("child").asText(), l.get("parent").asText())).as("one parent each").isNull();
        }
        for (String member : DemoOverlay.GROUP_MEMBERS) {
            String at = member;
            for (int steps = 0; !at.equals("amsterdam"); steps++) {
                assertThat(steps).as("%s reaches the source", member).isLessThan(DemoOverlay.NODES.size());
                at = parent.get(at);
                assertThat(at).as("%s's path to the source", member).isNotNull();
            }
        }
        // The layered session: every receiver follows amsterdam's session and has held a level (a receiver
        // starts at none, so its first change is to a level held); berlin, one clean hop away, holds one now. A receiver
        // behind the demo's 10% lossy chord may hold none at a given moment: ERA drops even the base layer
        // when its TCP-friendly rate is below it.
        Conditions.await("every layered receiver joined, berlin holds a level", () -> {
            java.util.Set<String> joined = new java.util.TreeSet<>();
            boolean berlinHolds = false;
            for (JsonNode r : read(get("/api/multicast")).get("layered")) {
                if (r.get("group").asText().equals(DemoOverlay.LAYERED_GROUP) && r.get("history").size() > 0
                        && r.get("packetsReceived").asLong() > 0) {
                    joined.add(r.get("node").asText());
                    berlinHolds |= r.get("node").asText().equals("berlin") && r.get("level").asInt() >= 0;
                }
            }
            return joined.containsAll(DemoOverlay.LAYERED_RECEIVERS) && berlinHolds;
        });
        for (JsonNode r : read(get("/api/multicast")).get("layered")) {
            assertThat(r.get("source").asText()).isEqualTo("amsterdam");
            assertThat(r.get("port").asInt()).isEqualTo(DemoOverlay.LAYERED_PORT);
            assertThat(r.get("packetsReceived").asLong()).as(r.toString()).isPositive();
            assertThat(r.get("history").size()).as(r.toString()).isPositive();
            assertThat(r.get("history").get(0).get("level").asInt()).as("the first change is to a level held: " + r)
                    .isNotNegative();
            for (JsonNode p : r.get("history")) {
                assertThat(p.get("rateBitsPerSecond").asLong() > 0).as("a rate exactly when a level is held: " + r)
                        .isEqualTo(p.get("level").asInt() >= 0);
            }
        }
        // The relays' side of the layered session: amsterdam takes it from nobody, and every receiver that
        // holds a level (one at least) is a child of some node's part in it, with packets sent to it (the
        // tree may move, and on a loaded machine any receiver may hold nothing for an interval, so both
        // are read from one answer at a time).
        Conditions.await("every layered receiver holding a level is a relay's child that got packets", () -> {
            JsonNode answer = read(get("/api/multicast"));
            java.util.Set<String> holding = new java.util.TreeSet<>();
            for (JsonNode r : answer.get("layered")) {
                if (r.get("group").asText().equals(DemoOverlay.LAYERED_GROUP) && r.get("level").asInt() >= 0) {
                    holding.add(r.get("node").asText());
                }
            }
            java.util.Set<String> fed = new java.util.TreeSet<>();
            boolean sourceSeen = false;
            for (JsonNode r : answer.get("layeredRelays")) {
                if (!r.get("group").asText().equals(DemoOverlay.LAYERED_GROUP)) {
                    continue;
                }
                assertThat(r.get("source").asText()).isEqualTo("amsterdam");
                assertThat(r.get("port").asInt()).isEqualTo(DemoOverlay.LAYERED_PORT);
                if (r.get("node").asText().equals("amsterdam")) {
                    assertThat(r.get("upstream").isNull()).as("the source takes its session from nobody: " + r).isTrue();
                    sourceSeen = true;
                }
                for (JsonNode c : r.get("children")) {
                    long perLayer = 0;
                    for (JsonNode t : c.get("layers")) {
                        perLayer += t.get("packets").asLong();
                    }
                    assertThat(c.get("packets").asLong()).as("the total is the layers' sum: " + c).isEqualTo(perLayer);
                    if (c.get("packets").asLong() > 0) {
                        fed.add(c.get("node").asText());
                    }
                }
            }
            return sourceSeen && !holding.isEmpty() && fed.containsAll(holding);
        });
        // The tree read now, not the one above: a route change meanwhile (the demo's links are impaired)
        // can make a node a relay that has not forwarded a packet yet; it must, within the wait.
        Conditions.await("every relay of the current tree has forwarded", () -> {
            java.util.Set<String> relays = new java.util.TreeSet<>();
            JsonNode group = demoGroup();
            for (JsonNode l : group.get("trees").get(0).get("links")) {
                relays.add(l.get("parent").asText());
            }
            relays.remove("amsterdam");
            for (JsonNode c : group.get("local")) {
                if (relays.contains(c.get("node").asText()) && c.get("forwarded").asLong() == 0) {
                    return false;
                }
            }
            return true;
        });
        String text = mvc.perform(get("/actuator/prometheus")).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString();
        assertThat(text).containsPattern("hopwise_multicast_group_delivered_total\\{group=\"demo-conference\",node=\"berlin\"\\} [1-9]")
                .contains("hopwise_multicast_group_member_nodes{group=\"demo-conference\",node=\"amsterdam\"} 3.0");
    }

    private JsonNode demoGroup() {
        for (JsonNode g : read(get("/api/multicast")).get("groups")) {
            if (DemoOverlay.GROUP.equals(g.get("name").asText(null))) {
                return g;
            }
        }
        return null;
    }

    @Test
    void theOpenApiDocumentDescribesTheApi() throws Exception {
        JsonNode doc = read(get("/v3/api-docs"));
        assertThat(doc.get("paths").fieldNames()).toIterable().contains("/api/nodes", "/api/nodes/{name}",
                "/api/topology", "/api/links", "/api/links/{a}/{b}", "/api/links/{a}/{b}/history",
                "/api/links/{a}/{b}/impairment", "/api/routes", "/api/routes/{destination}", "/api/sessions",
                "/api/events", "/api/events/recent");
        assertThat(doc.get("paths").get("/api/links/{a}/{b}/impairment").has("put")).isTrue();
        assertThat(doc.get("components").get("securitySchemes").has("basic")).isTrue();
        mvc.perform(get("/swagger-ui/index.html")).andExpect(status().isOk());
    }

    @Test
    void theDashboardIsServedWithItsScripts() throws Exception {
        mvc.perform(get("/")).andExpect(status().isOk());
        mvc.perform(get("/index.html")).andExpect(status().isOk())
                .andExpect(content().string(containsString("webjars/d3/dist/d3.min.js")));
        mvc.perform(get("/webjars/d3/dist/d3.min.js")).andExpect(status().isOk());
        mvc.perform(get("/dashboard/app.js")).andExpect(status().isOk());
        mvc.perform(get("/dashboard/app.css")).andExpect(status().isOk());
    }

    // ---------------------------------------------------------------- helpers

    private ResultActions operator(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(httpBasic("demo", "demo")));
    }

    /** Puts a demo link back as the demo laid it, so tests sharing the overlay see the usual one. */
    private void restoreDemo(String a, String b, int delayMs) throws Exception {
        operator(delete("/api/links/" + a + "/" + b + "/impairment")).andExpect(status().isOk())
                .andExpect(jsonPath("$.directions[0].delayMs").value((double) delayMs))
                .andExpect(jsonPath("$.directions[1].delayMs").value((double) delayMs));
    }

    private JsonNode read(MockHttpServletRequestBuilder request) {
        try {
            String body = mvc.perform(request).andExpect(status().isOk()).andReturn().getResponse()
                    .getContentAsString();
            return json.readTree(body);
        } catch (Exception e) {
            throw new AssertionError("reading " + request, e);
        }
    }

    private static java.util.Optional<JsonNode> reliableSession(JsonNode sessions) {
        return stream(sessions).filter(x -> x.get("kind").asText().equals("RELIABLE")
                && x.get("peer").asText().equals(DemoOverlay.STREAM_PEER)).findFirst();
    }

    private static java.util.Optional<JsonNode> realTimeFlow(JsonNode sessions) {
        return stream(sessions).filter(x -> x.get("kind").asText().equals("REAL_TIME")
                && x.get("peer").asText().equals(DemoOverlay.STREAM_PEER)).findFirst();
    }

    private static Stream<JsonNode> stream(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false);
    }

}

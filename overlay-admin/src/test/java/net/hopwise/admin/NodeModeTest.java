package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.stream.StreamSupport;
import net.hopwise.admin.overlay.LocalNodes;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.layered.RelayQueueing;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * The service running one configured node, "gateway", in an overlay of nodes it does not run:
 * gateway - b - c. It shows the remote link b~c from its database, can impair only its own link, and
 * is configured with a bearer token and reads that need it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMockMvc
@AutoConfigureObservability(tracing = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NodeModeTest {
    private static final String TOKEN = "Bearer s3cret-t0ken";
    private static OverlayNode b;
    private static OverlayNode c;

    @Autowired
    MockMvc mvc;

    @Autowired
    ObjectMapper json;

    @Autowired
    LocalNodes nodes;

    @DynamicPropertySource
    static void overlay(DynamicPropertyRegistry registry) {
        b = OverlayNode.start(NodeConfig.builder("b").loopback(0).build());
        c = OverlayNode.start(NodeConfig.builder("c").loopback(0)
                .neighbour(NeighbourConfig.parse("b@127.0.0.1:" + b.localAddress().getPort())).build());
        b.addNeighbour(NeighbourConfig.parse("c@127.0.0.1:" + c.localAddress().getPort()));
        registry.add("hopwise.node.name", () -> "gateway");
        registry.add("hopwise.link-security.insecure", () -> "true");
        registry.add("hopwise.node.bind", () -> "127.0.0.1:0");
        registry.add("hopwise.node.neighbours[0]", () -> "b@127.0.0.1:" + b.localAddress().getPort());
        registry.add("hopwise.node.hello.interval", () -> "50ms");
        registry.add("hopwise.admin.sample-interval", () -> "200ms");
        registry.add("hopwise.admin.security.token", () -> "s3cret-t0ken");
        registry.add("hopwise.admin.security.reads-require-auth", () -> "true");
        registry.add("hopwise.multicast.relay-queueing-rate", () -> "600000");
    }

    @AfterAll
    static void stopOthers() {
        b.stop();
        c.stop();
    }

    @BeforeEach
    void joined() {
        b.addNeighbour(NeighbourConfig.parse("gateway@127.0.0.1:" + nodes.self().localAddress().getPort()));
        Conditions.await("gateway to know b~c as up", () -> {
            JsonNode t = read(get("/api/topology"));
            return t.get("links").size() == 2
                    && StreamSupport.stream(t.get("links").spliterator(), false)
                            .allMatch(l -> l.get("state").asText().equals("UP"));
        });
    }

    @Test
    @Order(1)
    void theConfiguredNodeRuns() {
        assertThat(nodes.demo()).isFalse();
        assertThat(nodes.all()).containsOnlyKeys("gateway");
        assertThat(nodes.self().config().hello().interval()).hasMillis(50);
        assertThat(nodes.self().localAddress().getAddress().isLoopbackAddress()).isTrue();
    }

    @Test
    @Order(2)
    void readsNeedTheTokenWhenConfiguredSo() throws Exception {
        for (String path : new String[] {"/api/topology", "/api/nodes", "/api/links", "/api/routes",
                "/actuator/prometheus", "/v3/api-docs"}) {
            mvc.perform(get(path)).andExpect(status().isUnauthorized())
                    .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                    .andExpect(header().string("WWW-Authenticate", containsString("Bearer")));
        }
        mvc.perform(get("/api/topology").header("Authorization", "Bearer wrong")).andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.detail", containsString("not valid")));
        // Basic is not configured here: no user name works.
        mvc.perform(get("/api/topology").with(httpBasic("demo", "demo"))).andExpect(status().isUnauthorized());
        mvc.perform(get("/api/topology").header("Authorization", TOKEN)).andExpect(status().isOk());
        // Probes and the dashboard's files stay open: the dashboard asks for the token itself.
        mvc.perform(get("/actuator/health/readiness")).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"));
        mvc.perform(get("/index.html")).andExpect(status().isOk());
    }

    @Test
    @Order(2)
    void theNodeRunsMulticastWithTheConfiguredRelayQueueing() throws Exception {
        mvc.perform(get("/api/multicast").header("Authorization", TOKEN)).andExpect(status().isOk());
        assertThat(nodes.self().module(Multicast.class).layered().relayQueueing())
                .isEqualTo(RelayQueueing.fair(600_000, RelayQueueing.DEFAULT_PACKETS_PER_SESSION));
    }

    @Test
    @Order(3)
    void aRemoteLinkIsShownFromTheDatabase() {
        JsonNode link = read(get("/api/links/c/b"));
        assertThat(link.get("id").asText()).isEqualTo("b~c");
        assertThat(link.get("state").asText()).isEqualTo("UP");
        assertThat(link.get("source").asText()).isEqualTo("ADVERTISED");
        JsonNode s = link.get("summary");
        assertThat(s.get("rttMs").asDouble()).isGreaterThanOrEqualTo(0);
        assertThat(s.get("lossRate").asDouble()).isGreaterThanOrEqualTo(0);
        assertThat(s.get("throughputBps").isNull()).isTrue();
        assertThat(s.get("jitterMs").isNull()).isTrue();
        for (JsonNode end : link.get("ends")) {
            assertThat(end.get("local").asBoolean()).isFalse();
            assertThat(end.get("advertised").asBoolean()).isTrue();
            assertThat(end.get("advertisedLatencyMs").isNumber()).isTrue();
            assertThat(end.get("measured").isNull()).isTrue();
        }
        JsonNode own = read(get("/api/links/gateway/b"));
        assertThat(own.get("source").asText()).isEqualTo("MEASURED");
        // Ends come in name order: b, then gateway, the local one.
        assertThat(own.get("ends").get(0).get("measured").isNull()).isTrue();
        assertThat(own.get("ends").get(1).get("measured").get("status").asText()).isEqualTo("UP");
        // The peer runs on this machine: one monotonic clock, read as exactly one.
        JsonNode offset = own.get("ends").get(1).get("measured").get("peerClockOffsetMs");
        assertThat(offset.isNumber()).as("measured once the link is up: " + offset).isTrue();
        assertThat(offset.asDouble()).isZero();
        JsonNode nodesJson = read(get("/api/nodes"));
        assertThat(StreamSupport.stream(nodesJson.spliterator(), false).map(n -> n.get("name").asText()))
                .containsExactly("b", "c", "gateway");
        // Stalls are counted by the nodes this process runs: gateway's, not its remote peers'.
        for (JsonNode n : nodesJson) {
            assertThat(n.get("loopStalls").isNumber()).as("%s", n).isEqualTo(n.get("local").asBoolean());
            assertThat(n.get("longestLoopStallMillis").isNull()).as("%s", n).isEqualTo(!n.get("local").asBoolean());
        }
        JsonNode route = read(get("/api/routes/c"));
        assertThat(route.get("metrics").get("HOPS").get("path").toString()).isEqualTo("[\"gateway\",\"b\",\"c\"]");
    }

    @Test
    @Order(4)
    void onlyLinksWithALocalEndCanBeImpaired() throws Exception {
        mvc.perform(put("/api/links/b/c/impairment").header("Authorization", TOKEN)
                        .contentType(MediaType.APPLICATION_JSON).content("{\"lossRate\":0.1}"))
                .andExpect(status().isConflict())
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                .andExpect(jsonPath("$.detail", containsString("no end on this instance")));
        mvc.perform(get("/api/links/b/c/impairment").header("Authorization", TOKEN)).andExpect(status().isConflict());
        try {
            // Both directions of gateway~b are impaired at gateway's socket: what it sends, what it receives.
            mvc.perform(put("/api/links/b/gateway/impairment").header("Authorization", TOKEN)
                            .contentType(MediaType.APPLICATION_JSON).content("{\"delayMs\":10}"))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.directions[0].from").value("b"))
                    .andExpect(jsonPath("$.directions[0].appliedAt").value("gateway"))
                    .andExpect(jsonPath("$.directions[0].appliedTo").value("INBOUND"))
                    .andExpect(jsonPath("$.directions[1].appliedTo").value("OUTBOUND"))
                    .andExpect(jsonPath("$.directions[1].delayMs").value(10.0));
            Conditions.await("the delay in gateway~b's RTT",
                    () -> read(get("/api/links/gateway/b")).get("summary").get("rttMs").asDouble() > 15);
        } finally {
            mvc.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders
                    .delete("/api/links/gateway/b/impairment").header("Authorization", TOKEN))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.directions[0].none").value(true));
        }
    }

    @Test
    @Order(5)
    void aRemoteLinkGoingDownIsAnEventAndStaysListed() {
        c.stop();
        // b withdraws the link; c's last advertisement still lists it until it ages out: one way, unused.
        Conditions.await("b~c no longer up", () -> read(get("/api/links/b/c")).get("state").asText().equals("ONE_WAY"));
        Conditions.await("a LINK_DOWN event for b~c", () -> StreamSupport.stream(
                read(get("/api/events/recent")).spliterator(), false).anyMatch(e ->
                        e.get("type").asText().equals("LINK_DOWN") && e.get("node").asText().equals("b")
                                && e.get("peer").asText().equals("c")
                                && e.get("detail").asText().contains("link-state database")));
        Conditions.await("c unreachable", () -> !read(get("/api/nodes/c")).get("reachable").asBoolean());
        // Known and unreachable: the routes endpoint says the same as the nodes endpoint.
        JsonNode route = read(get("/api/routes/c"));
        for (JsonNode path : route.get("metrics")) {
            assertThat(path.get("reachable").asBoolean()).isFalse();
        }
    }

    private JsonNode read(MockHttpServletRequestBuilder request) {
        try {
            return json.readTree(mvc.perform(request.header("Authorization", TOKEN)).andExpect(status().isOk())
                    .andReturn().getResponse().getContentAsString());
        } catch (Exception e) {
            throw new AssertionError("reading " + request, e);
        }
    }
}

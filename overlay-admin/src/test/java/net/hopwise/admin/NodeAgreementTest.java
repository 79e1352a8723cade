package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketException;
import java.util.stream.StreamSupport;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * One configured node, "gateway", with a neighbour that runs (b) and one that never answers
 * (silent): /api/nodes/{n} and /api/routes/{n} say the same of an unknown node and of a known one
 * that cannot be reached; health details are the operator's alone.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMockMvc
class NodeAgreementTest {
    private static final String TOKEN = "Bearer agreement-t0ken";
    private static OverlayNode b;
    private static DatagramSocket silent;

    @Autowired
    MockMvc mvc;

    @Autowired
    ObjectMapper json;

    @DynamicPropertySource
    static void overlay(DynamicPropertyRegistry registry) throws SocketException {
        b = OverlayNode.start(NodeConfig.builder("b").loopback(0).build());
        silent = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        registry.add("hopwise.node.name", () -> "gateway");
        registry.add("hopwise.link-security.insecure", () -> "true");
        registry.add("hopwise.node.bind", () -> "127.0.0.1:0");
        registry.add("hopwise.node.neighbours[0]", () -> "b@127.0.0.1:" + b.localAddress().getPort());
        registry.add("hopwise.node.neighbours[1]", () -> "silent@127.0.0.1:" + silent.getLocalPort());
        registry.add("hopwise.node.hello.interval", () -> "50ms");
        registry.add("hopwise.admin.security.token", () -> "agreement-t0ken");
    }

    @AfterAll
    static void stopOthers() {
        b.stop();
        silent.close();
    }

    @BeforeEach
    void bIsReachable(@Autowired net.hopwise.admin.overlay.LocalNodes nodes) {
        b.addNeighbour(NeighbourConfig.parse("gateway@127.0.0.1:" + nodes.self().localAddress().getPort()));
        Conditions.await("b reachable from gateway", () -> read("/api/nodes/b").get("reachable").asBoolean());
    }

    @Test
    void anUnknownNodeIsTheSameProblemOnBothEndpoints() throws Exception {
        JsonNode node = problem(mvc.perform(get("/api/nodes/atlantis")).andExpect(status().isNotFound()));
        JsonNode route = problem(mvc.perform(get("/api/routes/atlantis")).andExpect(status().isNotFound()));
        assertThat(node.get("type").asText()).isEqualTo("urn:hopwise:problem:unknown-node")
                .isEqualTo(route.get("type").asText());
        assertThat(node.get("title").asText()).isEqualTo("Unknown node").isEqualTo(route.get("title").asText());
        assertThat(node.get("detail").asText()).contains("atlantis");
        assertThat(route.get("detail").asText()).contains("atlantis");
    }

    @Test
    void aKnownNodeThatCannotBeReachedIsListedUnreachableOnBothEndpoints() throws Exception {
        // silent is a configured neighbour that never answered: known, never advertised, unreachable.
        mvc.perform(get("/api/nodes/silent")).andExpect(status().isOk())
                .andExpect(jsonPath("$.name").value("silent"))
                .andExpect(jsonPath("$.reachable").value(false));
        JsonNode route = read("/api/routes/silent");
        assertThat(route.get("destination").asText()).isEqualTo("silent");
        for (String metric : new String[] {"HOPS", "LATENCY", "LOSS", "EXPECTED_LATENCY"}) {
            JsonNode p = route.get("metrics").get(metric);
            assertThat(p.get("reachable").asBoolean()).as(metric).isFalse();
            assertThat(p.get("nextHop").isNull()).as(metric).isTrue();
            assertThat(p.get("path")).as(metric).isEmpty();
        }
        JsonNode all = read("/api/routes");
        assertThat(StreamSupport.stream(all.get("routes").spliterator(), false)
                .map(r -> r.get("destination").asText())).containsExactly("b", "silent");
        // A reachable node, for contrast: reachable on both.
        assertThat(read("/api/routes/b").get("metrics").get("HOPS").get("reachable").asBoolean()).isTrue();
        assertThat(read("/api/nodes/b").get("reachable").asBoolean()).isTrue();
    }

    @Test
    void healthDetailsAreForTheOperatorOnly() throws Exception {
        for (String path : new String[] {"/actuator/health", "/actuator/health/readiness"}) {
            mvc.perform(get(path)).andExpect(status().isOk())
                    .andExpect(jsonPath("$.status").value("UP"))
                    .andExpect(jsonPath("$.components").doesNotExist())
                    .andExpect(jsonPath("$.details").doesNotExist());
        }
        mvc.perform(get("/actuator/health").header("Authorization", TOKEN)).andExpect(status().isOk())
                .andExpect(jsonPath("$.components.diskSpace.details.path").exists())
                .andExpect(jsonPath("$.components.overlay.details.node").value("gateway"))
                .andExpect(jsonPath("$.components.overlay.details.links").value(2))
                .andExpect(jsonPath("$.components.overlay.details.linksUp").value(1));
        mvc.perform(get("/actuator/health/readiness").header("Authorization", TOKEN)).andExpect(status().isOk())
                .andExpect(jsonPath("$.components.overlay.status").value("UP"));
    }

    private static JsonNode problem(ResultActions r) throws Exception {
        r.andExpect(content().contentTypeCompatibleWith("application/problem+json"));
        return new ObjectMapper().readTree(r.andReturn().getResponse().getContentAsString());
    }

    private JsonNode read(String path) {
        try {
            return json.readTree(mvc.perform(get(path)).andExpect(status().isOk()).andReturn().getResponse()
                    .getContentAsString());
        } catch (Exception e) {
            throw new AssertionError("reading " + path, e);
        }
    }
}

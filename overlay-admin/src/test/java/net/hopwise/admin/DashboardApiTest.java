package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.admin.overlay.DemoOverlay;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/** What the dashboard's panels read beyond links and routes: drops, flow recovery, history over a span. */
@DemoServiceTest
class DashboardApiTest {
    @Autowired
    MockMvc mvc;

    @Autowired
    ObjectMapper json;

    @Autowired
    MeterRegistry registry;

    @Test
    void dropsListEveryLocalNodeWithEveryReasonAndCountTheImpairedChord() throws Exception {
        JsonNode drops = read(get("/api/drops"));
        List<String> names = new ArrayList<>();
        drops.forEach(d -> names.add(d.get("node").asText()));
        assertThat(names).containsExactlyElementsOf(DemoOverlay.NODES);
        assertThat(drops.get(0).get("self").asBoolean()).isTrue();
        for (JsonNode d : drops) {
            List<String> reasons = new ArrayList<>();
            d.get("reasons").fieldNames().forEachRemaining(reasons::add);
            assertThat(reasons).containsExactly(java.util.Arrays.stream(DropReason.values()).map(Enum::name)
                    .toArray(String[]::new));
            long sum = 0;
            for (JsonNode v : d.get("reasons")) {
                sum += v.asLong();
            }
            assertThat(d.get("total").asLong()).isEqualTo(sum);
        }
        mvc.perform(get("/api/drops/nowhere")).andExpect(status().isNotFound());
        // A node's own view carries its drops too.
        JsonNode berlin = read(get("/api/nodes/berlin")).get("drops");
        assertThat(berlin.size()).isEqualTo(DropReason.values().length);
        assertThat(berlin.get("IMPAIRMENT").isNumber()).isTrue();
    }

    @Test
    void dropsAreTheCountsTheNodesMetersPublish() {
        // Copies of real-time packets resent across the lossy chord arrive at both its ends.
        Conditions.await("amsterdam dropping something", () -> read(get("/api/drops/amsterdam")).get("total").asLong() > 0);
        for (String node : DemoOverlay.NODES) {
            JsonNode before = read(get("/api/drops/" + node)).get("reasons");
            java.util.Map<String, Double> meters = new java.util.HashMap<>();
            registry.find("hopwise.node.drops").tag("node", node).functionCounters()
                    .forEach(c -> meters.put(c.getId().getTag("reason"), c.count()));
            JsonNode after = read(get("/api/drops/" + node)).get("reasons");
            for (DropReason r : DropReason.values()) {
                // Counters only grow: the meter read between two API readings lies between them.
                assertThat(meters.get(r.tag())).as("%s %s", node, r)
                        .isBetween((double) before.get(r.name()).asLong(), (double) after.get(r.name()).asLong());
            }
        }
    }

    @Test
    void theRealTimeFlowReportsItsPathAndWhatItsHopsRecovered() throws Exception {
        // The flow crosses the lossy chord, whose receiving end asks for and gets resends.
        Conditions.await("the flow's hop-by-hop recoveries counted", () -> {
            JsonNode f = flow();
            return f != null && f.get("recovered").isNumber() && f.get("recovered").asLong() > 0;
        });
        JsonNode f = flow();
        assertThat(f.get("path").toString()).isEqualTo("[\"chicago\",\"amsterdam\"]");
    }

    @Test
    void theTrendOfALinkIsCappedAtTheAskedPointsAndRefusesBadValues() throws Exception {
        Conditions.await("a few samples of amsterdam~berlin",
                () -> read(get("/api/links/amsterdam/berlin/trend").param("seconds", "600")).size() >= 3);
        JsonNode two = read(get("/api/links/berlin/amsterdam/trend").param("seconds", "600").param("points", "2"));
        assertThat(two.size()).isBetween(1, 2);
        assertThat(two.get(0).has("rttMs")).isTrue();
        mvc.perform(get("/api/links/amsterdam/berlin/trend").param("seconds", "0")).andExpect(status().isBadRequest());
        mvc.perform(get("/api/links/amsterdam/berlin/trend").param("seconds", "3601"))
                .andExpect(status().isBadRequest());
        mvc.perform(get("/api/links/amsterdam/berlin/trend").param("points", "1")).andExpect(status().isBadRequest());
        mvc.perform(get("/api/links/berlin/denver/trend")).andExpect(status().isNotFound());
        mvc.perform(get("/api/links/amsterdam/amsterdam/trend")).andExpect(status().isBadRequest());
        JsonNode doc = read(get("/v3/api-docs"));
        assertThat(doc.get("paths").has("/api/links/{a}/{b}/trend")).isTrue();
        assertThat(doc.get("paths").has("/api/drops")).isTrue();
    }

    private JsonNode flow() {
        for (JsonNode s : read(get("/api/sessions"))) {
            if (s.get("kind").asText().equals("REAL_TIME")) {
                return s.get("realTime");
            }
        }
        return null;
    }

    private JsonNode read(MockHttpServletRequestBuilder request) {
        try {
            return json.readTree(mvc.perform(request).andExpect(status().isOk()).andReturn().getResponse()
                    .getContentAsString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}

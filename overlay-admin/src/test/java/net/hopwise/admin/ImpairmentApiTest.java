package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import net.hopwise.admin.overlay.ImpairmentRequest;
import net.hopwise.overlay.impair.ImpairmentConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * The impairment endpoint as a careless or hostile client meets it: every field it does not have,
 * every value of the wrong type and every value out of range is refused with a problem naming it,
 * and nothing changes; DELETE puts the configured impairment back. The demo lays 35 ms each way on
 * berlin~chicago, which is what these tests change and restore.
 */
@DemoServiceTest
class ImpairmentApiTest {
    private static final String PATH = "/api/links/berlin/chicago/impairment";
    private static final String PROBLEM = "application/problem+json";

    @Autowired
    MockMvc mvc;

    @Autowired
    ObjectMapper json;

    @AfterEach
    void restoreTheDemo() throws Exception {
        operator(delete(PATH)).andExpect(status().isOk());
        assertDemoImpairment();
    }

    @Test
    void aMisspeltFieldIsRefusedAndChangesNothing() throws Exception {
        put("{\"lossrate\":0.5}").andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.type").value("urn:hopwise:problem:unknown-field"))
                .andExpect(jsonPath("$.title").value("Unknown field"))
                .andExpect(jsonPath("$.field").value("lossrate"))
                .andExpect(jsonPath("$.detail", containsString("'lossrate'")))
                .andExpect(jsonPath("$.detail", containsString("lossRate")));
        assertDemoImpairment();
        put("{\"delayMs\":10,\"jitter\":5}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("jitter"));
        assertDemoImpairment();
    }

    @Test
    void everyMisspeltFieldIsNamed() throws Exception {
        put("{\"lossrate\":0.5,\"delayMs\":5,\"Delay\":3,\"jitter_ms\":1}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("urn:hopwise:problem:unknown-field"))
                .andExpect(jsonPath("$.fields[0]").value("lossrate"))
                .andExpect(jsonPath("$.fields[1]").value("Delay"))
                .andExpect(jsonPath("$.fields[2]").value("jitter_ms"))
                .andExpect(jsonPath("$.fields.length()").value(3))
                .andExpect(jsonPath("$.detail", containsString("unknown fields 'lossrate', 'Delay', 'jitter_ms'")));
        assertDemoImpairment();
    }

    @Test
    void aBodyLargerThanAnyRequestIsRefused() throws Exception {
        put("{\"delayMs\":5,\"note\":\"" + "x".repeat(70_000) + "\"}").andExpect(status().isPayloadTooLarge())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.detail", containsString("65536 bytes")));
        assertDemoImpairment();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"rateKbps\":1.5}                  | rateKbps     | an integer                    | got 1.5",
            "{\"queuePackets\":10.0}             | queuePackets | an integer                    | got 10.0",
            "{\"queuePackets\":3000000000}       | queuePackets | an integer (32-bit)           | 3000000000",
            "{\"rateKbps\":99999999999999999999} | rateKbps     | an integer                    | 99999999999999999999",
            "{\"lossRate\":\"0.5\"}              | lossRate     | a number                      | got string \"0.5\"",
            "{\"lossRate\":\"lots\"}             | lossRate     | a number                      | got string \"lots\"",
            "{\"lossRate\":true}                 | lossRate     | a number                      | got true",
            "{\"delayMs\":[20]}                  | delayMs      | a number                      | got an array",
            "{\"delayMs\":{\"ms\":20}}           | delayMs      | a number                      | got an object",
            "{\"direction\":\"SIDEWAYS\"}        | direction    | one of BOTH, FORWARD, REVERSE | got 'SIDEWAYS'",
            "{\"direction\":1}                   | direction    | one of BOTH, FORWARD, REVERSE | got 1",
            "{\"direction\":\"forward\"}         | direction    | one of BOTH, FORWARD, REVERSE | got 'forward'",
    })
    void aValueOfTheWrongTypeNamesTheFieldAndTheTypeExpected(String body, String field, String expected, String got)
            throws Exception {
        put(body).andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.type").value("urn:hopwise:problem:wrong-type"))
                .andExpect(jsonPath("$.field").value(field))
                .andExpect(jsonPath("$.detail", containsString(field + ": expected " + expected)))
                .andExpect(jsonPath("$.detail", containsString(got)));
        assertDemoImpairment();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"queuePackets\":2147483647}  | queuePackets   | at most 10000 packets",
            "{\"queuePackets\":0}           | queuePackets   | greater than or equal to 1",
            "{\"rateKbps\":10000001}        | rateKbps       | at most 10000000 kbit/s",
            "{\"rateKbps\":-5}              | rateKbps       | greater than or equal to 0",
            "{\"lossRate\":2}               | lossRate       | less than or equal to 1",
            "{\"lossRate\":-0.1}            | lossRate       | greater than or equal to 0",
            "{\"delayMs\":3600001}          | delayMs        | less than or equal to 3600000",
            "{\"jitterMs\":1e400}           | jitterMs       | less than or equal to 3600000",
            "{\"reorderDelayMs\":-1}        | reorderDelayMs | greater than or equal to 0",
            "{\"duplicateRate\":1.5}        | duplicateRate  | less than or equal to 1",
    })
    void aValueOutOfRangeNamesTheFieldAndItsBound(String body, String field, String bound) throws Exception {
        put(body).andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.type").value("urn:hopwise:problem:invalid-value"))
                .andExpect(jsonPath("$.errors[0].field").value(field))
                .andExpect(jsonPath("$.detail", containsString(field + ": ")))
                .andExpect(jsonPath("$.detail", containsString(bound)));
        assertDemoImpairment();
    }

    @Test
    void everyBadFieldOfARequestIsNamedAtOnce() throws Exception {
        put("{\"lossRate\":2,\"queuePackets\":2147483647,\"rateKbps\":-1}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors.length()").value(3))
                .andExpect(jsonPath("$.detail", containsString("lossRate")))
                .andExpect(jsonPath("$.detail", containsString("queuePackets")))
                .andExpect(jsonPath("$.detail", containsString("rateKbps")));
    }

    @Test
    void theLargestValuesAllowedAreAccepted() throws Exception {
        put("{\"rateKbps\":" + ImpairmentRequest.MAX_RATE_KBPS + ",\"queuePackets\":"
                + ImpairmentRequest.MAX_QUEUE_PACKETS + ",\"delayMs\":3600000}").andExpect(status().isOk())
                .andExpect(jsonPath("$.directions[0].rateKbps").value(1.0e7))
                .andExpect(jsonPath("$.directions[0].queuePackets").value(ImpairmentRequest.MAX_QUEUE_PACKETS))
                .andExpect(jsonPath("$.directions[1].delayMs").value(3_600_000.0));
    }

    @Test
    void theDocumentedMaximumDelayIsTheCoresOwn() {
        assertThat(Long.parseLong(ImpairmentRequest.MAX_MILLIS)).isEqualTo(ImpairmentConfig.MAX_DURATION.toMillis());
        assertThat(ImpairmentConfig.MAX_DURATION).isEqualTo(Duration.ofHours(1));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "{not json",
            "{\"lossRate\":0.1,\"lossRate\":0.9}",
            "{} {}",
            "[]",
            "0.5",
            "null",
            "''",
    })
    void aBodyThatIsNotOneObjectIsRefused(String body) throws Exception {
        put(body == null ? "" : body).andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.type").value("urn:hopwise:problem:malformed-body"))
                .andExpect(jsonPath("$.detail").isNotEmpty());
        assertDemoImpairment();
    }

    @Test
    void deleteRestoresTheConfiguredImpairmentAndAnEmptyPutClears() throws Exception {
        put("{\"lossRate\":0.25,\"rateKbps\":500}").andExpect(status().isOk())
                .andExpect(jsonPath("$.directions[0].delayMs").value(0.0))
                .andExpect(jsonPath("$.directions[1].lossRate").value(0.25));
        // Restoring puts back the demo's 35 ms and no loss: not nothing at all.
        operator(delete(PATH)).andExpect(status().isOk())
                .andExpect(jsonPath("$.directions[0].delayMs").value(35.0))
                .andExpect(jsonPath("$.directions[0].lossRate").value(0.0))
                .andExpect(jsonPath("$.directions[1].delayMs").value(35.0))
                .andExpect(jsonPath("$.directions[1].rateKbps").value(0.0));
        // Clearing is explicit: an empty impairment.
        put("{}").andExpect(status().isOk())
                .andExpect(jsonPath("$.directions[0].none").value(true))
                .andExpect(jsonPath("$.directions[1].none").value(true));
        // One direction restored, the other left cleared.
        operator(delete(PATH).param("direction", "REVERSE")).andExpect(status().isOk())
                .andExpect(jsonPath("$.directions[0].none").value(true))
                .andExpect(jsonPath("$.directions[1].from").value("chicago"))
                .andExpect(jsonPath("$.directions[1].delayMs").value(35.0));
        // Events are logged by the event thread: the restore shows up soon after it, not with it.
        Conditions.await("a restored event of berlin~chicago", () -> {
            try {
                return json.readTree(mvc.perform(get("/api/events/recent")).andReturn().getResponse()
                        .getContentAsString()).findValuesAsText("detail").stream()
                        .anyMatch(d -> d.startsWith("berlin~chicago: restored"));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void theApiDocumentSaysWhatDeleteAndAnEmptyPutDo() throws Exception {
        JsonNode doc = json.readTree(mvc.perform(get("/v3/api-docs")).andReturn().getResponse().getContentAsString());
        JsonNode path = doc.get("paths").get("/api/links/{a}/{b}/impairment");
        assertThat(path.get("delete").get("summary").asText()).contains("Restores");
        assertThat(path.get("delete").get("description").asText()).contains("configured").contains("{}");
        assertThat(path.get("put").get("description").asText()).contains("{} clears");
        assertThat(doc.get("info").get("description").asText()).contains("urn:hopwise:problem:unknown-node")
                .contains("unknown-field");
        JsonNode schema = doc.get("components").get("schemas").get("ImpairmentRequest").get("properties");
        assertThat(schema.get("queuePackets").get("maximum").asLong()).isEqualTo(ImpairmentRequest.MAX_QUEUE_PACKETS);
        assertThat(schema.get("rateKbps").get("maximum").asLong()).isEqualTo(ImpairmentRequest.MAX_RATE_KBPS);
    }

    private void assertDemoImpairment() throws Exception {
        mvc.perform(get(PATH)).andExpect(status().isOk())
                .andExpect(jsonPath("$.directions[0].delayMs").value(35.0))
                .andExpect(jsonPath("$.directions[0].lossRate").value(0.0))
                .andExpect(jsonPath("$.directions[0].rateKbps").value(0.0))
                .andExpect(jsonPath("$.directions[1].delayMs").value(35.0))
                .andExpect(jsonPath("$.directions[1].lossRate").value(0.0));
    }

    private ResultActions put(String body) throws Exception {
        return operator(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put(PATH)
                .contentType(MediaType.APPLICATION_JSON).content(body));
    }

    private ResultActions operator(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(httpBasic("demo", "demo")));
    }
}

package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.RequestDispatcher;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

/**
 * Every error the running server gives is an RFC 7807 problem body, whatever refused the request:
 * Tomcat before any servlet runs, Spring Security's firewall and authentication, or Spring MVC. The
 * requests go out as raw bytes over a socket, since an HTTP client library would normalise or refuse
 * the malformed ones itself.
 */
@DemoServiceTest
class ErrorResponsesTest {
    private static final String DEMO_BASIC = "Authorization: Basic ZGVtbzpkZW1v";

    @LocalServerPort
    int port;

    @Autowired
    ObjectMapper json;

    @Autowired
    MockMvc mvc;

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {
            "/api/nodes/a%2Fb", // encoded slash
            "/api/nodes/a%2fb",
            "/api/nodes/a%00b", // NUL
            "/api/nodes/a%C0%AFb", // overlong UTF-8 for '/'
            "/api/nodes/a%FFb", // not UTF-8 at all
            "/api/nodes/a%ZZ", // not an escape
            "/api/links/a/b/../../../../etc/passwd",
            "/api/nodes//amsterdam", // empty segment: Spring Security's firewall
            "/api/nodes/%2e%2e/topology", // encoded dot segment
            "/api/nodes/a%5Cb", // encoded backslash
            "/api/nodes/a;jsessionid=1",
            "/api/nodes/a%25b", // encoded percent
    })
    void malformedPathsAreProblems(String target) throws IOException {
        RawHttp.Response r = RawHttp.send(port, "GET", target, "Accept: text/html");
        assertProblem(r, target);
        assertThat(r.status()).as(target).isIn(400, 404);
    }

    @Test
    void aVeryLongPathSegmentIsAProblem() throws IOException {
        // Longer than Tomcat's request header buffer: refused while the request line is still being read.
        String huge = "/api/nodes/" + "a".repeat(20_000);
        RawHttp.Response r = RawHttp.send(port, "GET", huge, "Accept: text/html");
        assertProblem(r, "20000-character segment");
        assertThat(r.status()).isIn(400, 414, 431);
        // Long, but within the buffer: it reaches the API, which knows no such node.
        String long4k = "/api/nodes/" + "b".repeat(4_000);
        RawHttp.Response known = RawHttp.send(port, "GET", long4k, "Accept: application/json");
        assertProblem(known, "4000-character segment");
        assertThat(known.status()).isEqualTo(404);
        assertThat(read(known).get("type").asText()).isEqualTo("urn:hopwise:problem:unknown-node");
    }

    @Test
    void aBrokenRequestLineIsAProblem() throws IOException {
        RawHttp.Response r = RawHttp.send(port, "GET", "/api/nodes/a\u0001b", "Accept: text/html");
        assertProblem(r, "control character in the request line");
        assertThat(r.status()).isEqualTo(400);
    }

    @Test
    void requestsTomcatRefusesOutrightAreProblems() throws IOException {
        RawHttp.Response trace = RawHttp.send(port, "TRACE", "/api/nodes");
        assertProblem(trace, "TRACE");
        // Spring Security's firewall refuses the method before Spring MVC could say 405.
        assertThat(trace.status()).isIn(400, 405);
        RawHttp.Response headers = RawHttp.send(port, "GET", "/api/nodes", "X-Padding: " + "p".repeat(20_000));
        assertProblem(headers, "a header larger than the buffer");
        assertThat(headers.status()).isEqualTo(400);
        RawHttp.Response badMethod = RawHttp.send(port, "G(T", "/api/nodes");
        assertProblem(badMethod, "a method that is not a token");
        assertThat(badMethod.status()).isEqualTo(400);
    }

    @Test
    void unknownPathsMethodsAndMediaTypesAreProblems() throws IOException {
        RawHttp.Response nowhere = RawHttp.send(port, "GET", "/api/nowhere", "Accept: text/html");
        assertProblem(nowhere, "unknown path");
        assertThat(nowhere.status()).isEqualTo(404);
        RawHttp.Response outsideApi = RawHttp.send(port, "GET", "/nowhere.html", "Accept: text/html");
        assertProblem(outsideApi, "unknown file");
        assertThat(outsideApi.status()).isEqualTo(404);

        RawHttp.Response method = RawHttp.sendBody(port, "POST", "/api/nodes", "", DEMO_BASIC);
        assertProblem(method, "POST /api/nodes");
        assertThat(method.status()).isEqualTo(405);

        RawHttp.Response media = RawHttp.sendBody(port, "PUT", "/api/links/berlin/chicago/impairment", "{}",
                DEMO_BASIC, "Content-Type: text/plain");
        assertProblem(media, "PUT as text/plain");
        assertThat(media.status()).isEqualTo(415);

        RawHttp.Response lastEvent = RawHttp.send(port, "GET", "/api/events", "Accept: text/event-stream",
                "Last-Event-ID: yesterday");
        assertProblem(lastEvent, "an event stream resumed from a bad id");
        assertThat(lastEvent.status()).isEqualTo(400);
        assertThat(read(lastEvent).get("detail").asText()).contains("Last-Event-ID").contains("an integer");

        RawHttp.Response accept = RawHttp.send(port, "GET", "/api/nodes", "Accept: text/html");
        assertProblem(accept, "GET /api/nodes accepting only HTML");
        assertThat(accept.status()).isEqualTo(406);
    }

    @Test
    void refusalsOfSecurityAreProblems() throws IOException {
        RawHttp.Response none = RawHttp.send(port, "DELETE", "/api/links/berlin/chicago/impairment");
        assertProblem(none, "DELETE without credentials");
        assertThat(none.status()).isEqualTo(401);
        assertThat(read(none).get("type").asText()).isEqualTo("urn:hopwise:problem:authentication-required");
        RawHttp.Response garbled = RawHttp.send(port, "GET", "/api/nodes", "Authorization: Basic %%%");
        assertProblem(garbled, "undecodable basic credentials");
        assertThat(garbled.status()).isEqualTo(401);
    }

    @Test
    void whatAFilterThrowsIsAProblemThatKeepsItsCauseToTheLog() throws Exception {
        // The container forwards to the error path with these attributes when a filter throws.
        mvc.perform(get("/error").accept(MediaType.TEXT_HTML)
                        .requestAttr(RequestDispatcher.ERROR_STATUS_CODE, 500)
                        .requestAttr(RequestDispatcher.ERROR_REQUEST_URI, "/api/topology")
                        .requestAttr(RequestDispatcher.ERROR_EXCEPTION, new IllegalStateException("internal secret")))
                .andExpect(status().isInternalServerError())
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                .andExpect(jsonPath("$.status").value(500))
                .andExpect(jsonPath("$.title").value("Internal Server Error"))
                .andExpect(jsonPath("$.instance").value("/api/topology"))
                .andExpect(content().string(not(containsString("secret"))));
        mvc.perform(get("/error").requestAttr(RequestDispatcher.ERROR_STATUS_CODE, 413)
                        .requestAttr(RequestDispatcher.ERROR_MESSAGE, "body too large"))
                .andExpect(status().isPayloadTooLarge())
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                .andExpect(jsonPath("$.detail").value("body too large"));
        RawHttp.Response direct = RawHttp.send(port, "GET", "/error", "Accept: text/html");
        assertProblem(direct, "GET /error asked for directly");
        assertThat(direct.status()).isEqualTo(404);
    }

    private void assertProblem(RawHttp.Response r, String what) {
        assertThat(r).as(what).isNotNull();
        assertThat(r.contentType()).as(what + ": " + r).startsWith("application/problem+json");
        JsonNode p = read(r);
        assertThat(p.get("status").asInt()).as(what).isEqualTo(r.status());
        assertThat(p.get("title").asText()).as(what).isNotBlank();
        assertThat(p.get("detail").asText()).as(what).isNotBlank();
    }

    private JsonNode read(RawHttp.Response r) {
        try {
            return json.readTree(r.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + r, e);
        }
    }
}

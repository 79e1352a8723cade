package net.hopwise.admin.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

/**
 * The kinds of refusal the service gives, each an RFC 7807 problem type with a fixed title, so a
 * client can branch on {@code type} and every endpoint names the same case the same way. Refusals
 * that mean no more than their HTTP status (no such path, method not allowed) keep
 * {@code about:blank} and the status phrase as title, as RFC 7807 asks.
 */
public enum Problems {
    UNKNOWN_NODE("unknown-node", "Unknown node", HttpStatus.NOT_FOUND),
    UNKNOWN_LINK("unknown-link", "Unknown link", HttpStatus.NOT_FOUND),
    NOT_LOCAL("not-local", "Link not local to this instance", HttpStatus.CONFLICT),
    /** The overlay did not answer in time: the gateway (this service) gives up on the upstream (the overlay). */
    TRACE_TIMEOUT("trace-timeout", "Trace timed out", HttpStatus.GATEWAY_TIMEOUT),
    /** The calls API of an instance that runs no VoIP relay. */
    VOIP_DISABLED("voip-disabled", "VoIP relay not enabled", HttpStatus.NOT_FOUND),
    UNKNOWN_CALL("unknown-call", "Unknown call", HttpStatus.NOT_FOUND),
    /** The multicast API of an instance whose node runs no multicast module. */
    MULTICAST_DISABLED("multicast-disabled", "Multicast not installed", HttpStatus.NOT_FOUND),
    /** A value of the right type outside what it may be; the detail names the field or parameter. */
    INVALID_VALUE("invalid-value", "Invalid value", HttpStatus.BAD_REQUEST),
    /** A value of the wrong JSON or parameter type; the detail names the field and the type expected. */
    WRONG_TYPE("wrong-type", "Wrong type", HttpStatus.BAD_REQUEST),
    /** A JSON field the request does not have: refused, so a misspelt field never silently does nothing. */
    UNKNOWN_FIELD("unknown-field", "Unknown field", HttpStatus.BAD_REQUEST),
    MALFORMED_BODY("malformed-body", "Malformed body", HttpStatus.BAD_REQUEST),
    AUTHENTICATION_REQUIRED("authentication-required", "Authentication required", HttpStatus.UNAUTHORIZED),
    FORBIDDEN("forbidden", "Forbidden", HttpStatus.FORBIDDEN),
    CHANGES_DISABLED("changes-disabled", "Changes disabled", HttpStatus.FORBIDDEN);

    private static final String PREFIX = "urn:hopwise:problem:";

    private final URI type;
    private final String title;
    private final HttpStatus status;

    Problems(String slug, String title, HttpStatus status) {
        this.type = URI.create(PREFIX + slug);
        this.title = title;
        this.status = status;
    }

    public URI type() {
        return type;
    }

    public String title() {
        return title;
    }

    public HttpStatus status() {
        return status;
    }

    /** A problem of this kind with its status, type and title. */
    public ProblemDetail detail(String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(type);
        p.setTitle(title);
        return p;
    }

    /** A problem that means only its HTTP status: {@code about:blank}, titled with the status phrase. */
    public static ProblemDetail ofStatus(HttpStatusCode status, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        HttpStatus known = HttpStatus.resolve(status.value());
        p.setTitle(known != null ? known.getReasonPhrase() : "Error " + status.value());
        return p;
    }

    /** Writes a problem where no Spring MVC handler runs: filters, security, the container's error path. */
    public static void write(HttpServletResponse res, ObjectMapper json, ProblemDetail p) throws IOException {
        res.setStatus(p.getStatus());
        res.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        res.setCharacterEncoding("UTF-8");
        json.writeValue(res.getOutputStream(), p);
    }
}

package net.hopwise.admin.api;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The servlet container's error page: what a filter threw or refused with {@code sendError} outside
 * Spring MVC. It replaces Spring Boot's, which answers with its own JSON shape or an HTML page, so
 * that every error of the service is a problem body, whatever the client accepts.
 */
@RestController
public class ProblemErrorController implements ErrorController {
    private static final System.Logger LOG = System.getLogger(ProblemErrorController.class.getName());

    @RequestMapping("${server.error.path:${error.path:/error}}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        if (code == null) {
            // Asked for directly rather than forwarded to by the container: there is nothing here.
            return ResponseEntity.status(HttpStatus.NOT_FOUND).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(Problems.ofStatus(HttpStatus.NOT_FOUND, "no such resource"));
        }
        int status = code instanceof Integer i && i >= 400 ? i : HttpStatus.INTERNAL_SERVER_ERROR.value();
        Object thrown = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
        String detail;
        if (status >= 500) {
            if (thrown instanceof Throwable t) {
                LOG.log(System.Logger.Level.ERROR, "request to " + request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI)
                        + " failed", t);
            }
            // What failed inside is for the log, not for the client.
            detail = "the server failed to handle the request";
        } else if (thrown instanceof Throwable t && t.getMessage() != null) {
            detail = t.getMessage();
        } else {
            detail = message instanceof String s && !s.isBlank() ? s : "the request was refused";
        }
        ProblemDetail p = Problems.ofStatus(HttpStatusCode.valueOf(status), detail);
        if (request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String uri) {
            try {
                p.setInstance(java.net.URI.create(uri));
            } catch (IllegalArgumentException e) {
                // A path the container let through but java.net.URI cannot hold: the problem stands without it.
            }
        }
        // The type is set, not negotiated: a problem body is the one error format, whatever Accept says.
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(p);
    }
}

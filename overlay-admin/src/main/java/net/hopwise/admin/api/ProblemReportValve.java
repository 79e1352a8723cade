package net.hopwise.admin.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

/**
 * Tomcat's last word on a request nothing else answered: what it refuses before any servlet runs (an
 * encoded slash, NUL or invalid UTF-8 in the path, a request line too long). Tomcat's own valve would
 * answer with an HTML page; this one gives the same problem body as the rest of the API.
 */
final class ProblemReportValve extends ErrorReportValve {
    private final ObjectMapper json;

    ProblemReportValve(ObjectMapper json) {
        this.json = json;
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // As Tomcat's valve: only errors, only once, only when nothing was written and I/O still works.
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean io = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, io);
        if (!io.get()) {
            return;
        }
        // Tomcat's message says what it refused ("Invalid URI"); a server error's message is not for clients.
        String message = response.getMessage();
        if ((message == null || message.isBlank()) && throwable != null) {
            // What the HTTP parser threw, e.g. "Request header is too large".
            message = throwable.getMessage();
        }
        String detail = status < 500 && message != null && !message.isBlank() ? message
                : status < 500 ? "the request is malformed: its line, path or headers" : "the server failed";
        ProblemDetail p = Problems.ofStatus(HttpStatusCode.valueOf(status), detail);
        try {
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(json.writeValueAsString(p));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response is already committed: there is no one left to tell.
        }
    }
}

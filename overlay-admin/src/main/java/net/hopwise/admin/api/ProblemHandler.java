package net.hopwise.admin.api;

import net.hopwise.admin.overlay.OverlayException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns refusals into RFC 7807 problem bodies: a bad value 400, an unknown node or link 404, a link
 * this instance cannot impair 409. Spring's own (malformed JSON, wrong parameter type, unknown path)
 * come out as problems too, through {@link ResponseEntityExceptionHandler}.
 */
@RestControllerAdvice
public class ProblemHandler extends ResponseEntityExceptionHandler {
    @ExceptionHandler(OverlayException.class)
    ProblemDetail overlay(OverlayException e) {
        HttpStatus status = switch (e.kind()) {
            case UNKNOWN_NODE, UNKNOWN_LINK -> HttpStatus.NOT_FOUND;
            case NOT_LOCAL -> HttpStatus.CONFLICT;
        };
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, e.getMessage());
        p.setTitle(switch (e.kind()) {
            case UNKNOWN_NODE -> "Unknown node";
            case UNKNOWN_LINK -> "Unknown link";
            case NOT_LOCAL -> "Link not local to this instance";
        });
        return p;
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail badValue(IllegalArgumentException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        p.setTitle("Bad request");
        return p;
    }
}

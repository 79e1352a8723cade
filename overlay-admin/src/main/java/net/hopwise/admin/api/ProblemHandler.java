package net.hopwise.admin.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import net.hopwise.admin.overlay.OverlayException;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns refusals into RFC 7807 problem bodies of the kinds in {@link Problems}: an unknown node or
 * link 404, a link this instance cannot impair 409, and for a bad request a 400 that names the field
 * or parameter at fault and what it should have been. Spring's own refusals (no such path, method,
 * media type) come out as problems through {@link ResponseEntityExceptionHandler}; what fails before
 * Spring MVC is turned into problems by {@link ProblemErrorController} and {@link ProblemReportValve}.
 */
@RestControllerAdvice
public class ProblemHandler extends ResponseEntityExceptionHandler {
    @ExceptionHandler(OverlayException.class)
    ProblemDetail overlay(OverlayException e) {
        return (switch (e.kind()) {
            case UNKNOWN_NODE -> Problems.UNKNOWN_NODE;
            case UNKNOWN_LINK -> Problems.UNKNOWN_LINK;
            case NOT_LOCAL -> Problems.NOT_LOCAL;
            case TRACE_TIMEOUT -> Problems.TRACE_TIMEOUT;
            case VOIP_DISABLED -> Problems.VOIP_DISABLED;
            case MULTICAST_DISABLED -> Problems.MULTICAST_DISABLED;
            case UNKNOWN_CALL -> Problems.UNKNOWN_CALL;
        }).detail(e.getMessage());
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail badValue(IllegalArgumentException e) {
        return Problems.INVALID_VALUE.detail(e.getMessage());
    }

    /** A body that is not JSON, not the JSON expected, or has fields the request does not. */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return problem(ex, bodyProblem(ex, request.getAttribute(BodyCapture.ATTRIBUTE, WebRequest.SCOPE_REQUEST)),
                headers, request);
    }

    /** Bean Validation of a request body: every bad field at once, each with its bound. */
    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<FieldError> errors = ex.getBindingResult().getFieldErrors().stream()
                .sorted(java.util.Comparator.comparing(FieldError::getField)).toList();
        ProblemDetail p = Problems.INVALID_VALUE.detail(errors.stream()
                .map(e -> e.getField() + ": got " + e.getRejectedValue() + ", " + e.getDefaultMessage())
                .collect(Collectors.joining("; ")));
        p.setProperty("errors", errors.stream().map(e -> Map.of("field", e.getField(),
                "message", String.valueOf(e.getDefaultMessage()))).toList());
        return problem(ex, p, headers, request);
    }

    /** A query parameter or path variable that does not convert: names it and the type it needs. */
    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        String name = ex instanceof MethodArgumentTypeMismatchException m ? m.getName() : ex.getPropertyName();
        ProblemDetail p = Problems.WRONG_TYPE.detail(name + ": expected " + expected(ex.getRequiredType())
                + ", got '" + ex.getValue() + "'");
        p.setProperty("field", name);
        return problem(ex, p, headers, request);
    }

    private ResponseEntity<Object> problem(Exception ex, ProblemDetail p, HttpHeaders headers, WebRequest request) {
        return handleExceptionInternal(ex, p, headers, HttpStatusCode.valueOf(p.getStatus()), request);
    }

    /** @param body the body's bytes as {@link BodyCapture} kept them, or null */
    static ProblemDetail bodyProblem(HttpMessageNotReadableException ex, Object body) {
        Throwable cause = ex.getCause();
        if (cause instanceof UnrecognizedPropertyException u) {
            List<String> known = u.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
            List<String> unknown = unknownFields(u, body, known);
            ProblemDetail p = Problems.UNKNOWN_FIELD.detail((unknown.size() == 1 ? "unknown field " : "unknown fields ")
                    + unknown.stream().map(f -> "'" + f + "'").collect(Collectors.joining(", "))
                    + "; the fields are " + String.join(", ", known));
            p.setProperty("field", unknown.get(0));
            p.setProperty("fields", unknown);
            return p;
        }
        if (cause instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            String at = path(m);
            Class<?> target = m instanceof MismatchedInputException mi ? mi.getTargetType() : null;
            String got = "";
            if (m.getCause() instanceof InputCoercionException range) {
                target = range.getTargetType();
                got = ": " + range.getOriginalMessage();
            } else if (m instanceof InvalidFormatException f) {
                got = ", got " + (f.getValue() instanceof String s ? "'" + s + "'" : String.valueOf(f.getValue()));
            } else if (m instanceof MismatchedInputException) {
                got = ", got " + sent(m.getOriginalMessage());
            }
            ProblemDetail p = Problems.WRONG_TYPE.detail(at + ": expected " + expected(target) + got);
            p.setProperty("field", at);
            return p;
        }
        if (cause instanceof MismatchedInputException m) {
            // No field: the body as a whole is of the wrong shape (an array, a number, trailing content).
            String message = String.valueOf(m.getOriginalMessage());
            return Problems.MALFORMED_BODY.detail(message.startsWith("Trailing token")
                    ? "the body must be one JSON object with nothing after it"
                    : "the body must be one JSON object, got " + sent(message));
        }
        if (cause instanceof JsonProcessingException j) {
            var where = j.getLocation();
            return Problems.MALFORMED_BODY.detail("not valid JSON" + (where == null ? "" : " at line "
                    + where.getLineNr() + ", column " + where.getColumnNr()) + ": " + j.getOriginalMessage());
        }
        return Problems.MALFORMED_BODY.detail(ex.getMessage() != null && ex.getMessage().startsWith("Required request body")
                ? "a JSON body is required" : "the body could not be read");
    }

    /**
     * Every unknown field beside the one Jackson stopped at, when it stopped in the body's top-level
     * object (the only place this API has fields); in body order, as the client wrote them.
     */
    private static List<String> unknownFields(UnrecognizedPropertyException u, Object body, List<String> known) {
        String first = path(u);
        if (u.getPath().size() != 1 || !(body instanceof byte[] bytes)) {
            return List.of(first);
        }
        try {
            JsonNode tree = LENIENT.readTree(bytes);
            List<String> all = new ArrayList<>();
            tree.fieldNames().forEachRemaining(f -> {
                if (!known.contains(f) && !all.contains(f)) {
                    all.add(f);
                }
            });
            return all.contains(first) ? all : List.of(first);
        } catch (IOException | RuntimeException e) {
            // Unreadable past the first unknown field: that one is still worth naming.
            return List.of(first);
        }
    }

    /** Reads a body again only to list its field names: duplicates and the rest are reported elsewhere. */
    private static final ObjectMapper LENIENT = new ObjectMapper();

    /** The field's place in the body: {@code queuePackets}, {@code a.b[2]}. */
    private static String path(JsonMappingException e) {
        StringBuilder s = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                s.append(s.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                s.append('[').append(r.getIndex()).append(']');
            }
        }
        return s.toString();
    }

    /**
     * What was sent instead, from Jackson's message, which is the only place that names it: the value
     * when it quotes one ("Floating-point value (1.5)"), else the kind of token.
     */
    static String sent(String message) {
        if (message == null) {
            return "another type";
        }
        int open = message.indexOf("value (");
        int close = message.indexOf(')', open + 7);
        if (open >= 0 && close > open && message.startsWith("Cannot coerce ")) {
            String kind = message.substring(14, open).trim().toLowerCase(java.util.Locale.ROOT);
            return (kind.equals("floating-point") ? "the fraction " : kind + " ") + message.substring(open + 7, close);
        }
        for (var e : TOKENS.entrySet()) {
            if (message.contains("JsonToken." + e.getKey()) || message.contains("from " + e.getKey() + " value")) {
                return e.getValue();
            }
        }
        return "another type";
    }

    private static final Map<String, String> TOKENS = tokens();

    private static Map<String, String> tokens() {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("START_ARRAY", "an array");
        m.put("START_OBJECT", "an object");
        m.put("VALUE_TRUE", "true");
        m.put("VALUE_FALSE", "false");
        m.put("VALUE_STRING", "a string");
        m.put("VALUE_NUMBER_INT", "an integer");
        m.put("VALUE_NUMBER_FLOAT", "a fraction");
        m.put("Array", "an array");
        m.put("Object", "an object");
        m.put("Number", "a number");
        m.put("String", "a string");
        m.put("Boolean", "true or false");
        return java.util.Collections.unmodifiableMap(m);
    }

    /** What a client must send for a Java type, in JSON's terms. */
    static String expected(Class<?> type) {
        if (type == null) {
            return "another type";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(String::valueOf)
                    .collect(Collectors.joining(", "));
        }
        if (type == Integer.class || type == int.class || type == Short.class || type == short.class) {
            return "an integer (32-bit)";
        }
        if (type == Long.class || type == long.class || type == BigInteger.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class
                || type == BigDecimal.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (CharSequence.class.isAssignableFrom(type)) {
            return "a string";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "an object";
    }
}

package net.hopwise.voip.body;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A multipart body (RFC 2046 section 5.1, used by SIP per RFC 5621) split into its parts as
 * offsets, so that one part's content can be replaced and everything else (preamble, delimiters,
 * part headers, other parts, epilogue) kept byte for byte. Parsing is total: a malformed body gives
 * a {@link MultipartError}.
 */
public final class MultipartBody {
    /**
     * One part: where its headers start, where its content starts and ends (the CRLF before the
     * next delimiter belongs to the delimiter), and its Content-Type without parameters, lowercased
     * ({@code text/plain} when absent, RFC 2046 section 5.1).
     */
    public record Part(int headerStart, int contentStart, int contentEnd, String contentType) {}

    /** The parts, or the reason there are none. */
    public record Result(MultipartBody body, MultipartError error) {
        public boolean isOk() {
            return body != null;
        }
    }

    private final byte[] bytes;
    private final List<Part> parts;

    private MultipartBody(byte[] bytes, List<Part> parts) {
        this.bytes = bytes;
        this.parts = Collections.unmodifiableList(parts);
    }

    public List<Part> parts() {
        return parts;
    }

    /** Index of the first part of this media type (lowercase, no parameters), or -1. */
    public int find(String mediaType) {
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).contentType().equals(mediaType)) {
                return i;
            }
        }
        return -1;
    }

    public byte[] content(int part) {
        Part p = parts.get(part);
        byte[] out = new byte[p.contentEnd() - p.contentStart()];
        System.arraycopy(bytes, p.contentStart(), out, 0, out.length);
        return out;
    }

    /** The whole body with part {@code part}'s content replaced; every other byte as it was. */
    public byte[] replace(int part, byte[] content) {
        Part p = parts.get(part);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + content.length);
        out.write(bytes, 0, p.contentStart());
        out.write(content, 0, content.length);
        out.write(bytes, p.contentEnd(), bytes.length - p.contentEnd());
        return out.toByteArray();
    }

    /** Splits {@code body} by the boundary named in {@code contentType} (the Content-Type header's value). */
    public static Result parse(byte[] body, String contentType) {
        String boundary = boundary(contentType);
        if (boundary == null) {
            return new Result(null, MultipartError.NO_BOUNDARY);
        }
        byte[] dash = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        int at = delimiter(body, dash, 0);
        if (at < 0) {
            return new Result(null, MultipartError.NO_DELIMITER);
        }
        List<Part> parts = new ArrayList<>();
        while (true) {
            int after = at + dash.length;
            if (after + 1 < body.length && body[after] == '-' && body[after + 1] == '-') {
                return new Result(new MultipartBody(body, parts), null);
            }
            int headerStart = lineEnd(body, after);
            if (headerStart < 0) {
                return new Result(null, MultipartError.UNTERMINATED);
            }
            int next = delimiter(body, dash, headerStart);
            if (next < 0) {
                return new Result(null, MultipartError.UNTERMINATED);
            }
            int contentEnd = next > 0 && body[next - 1] == '\n' ? (next > 1 && body[next - 2] == '\r' ? next - 2 : next - 1) : next;
            Part part = part(body, headerStart, Math.max(headerStart, contentEnd));
            if (part == null) {
                return new Result(null, MultipartError.BAD_PART);
            }
            parts.add(part);
            at = next;
        }
    }

    /** Reads a part's headers up to the blank line; null when there is none before the content's end. */
    private static Part part(byte[] b, int start, int end) {
        String type = "text/plain";
        int p = start;
        while (p < end) {
            int eol = p;
            while (eol < end && b[eol] != '\n') {
                eol++;
            }
            int textEnd = eol > p && b[eol - 1] == '\r' ? eol - 1 : eol;
            if (textEnd == p) {
                return new Part(start, Math.min(eol + 1, end), end, type);
            }
            String line = new String(b, p, textEnd - p, StandardCharsets.ISO_8859_1);
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-type")) {
                String value = line.substring(colon + 1);
                int semi = value.indexOf(';');
                type = (semi < 0 ? value : value.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
            }
            p = eol + 1;
        }
        return null;
    }

    /** Offset of the next delimiter line {@code --boundary} at or after {@code from} that starts a line. */
    private static int delimiter(byte[] b, byte[] dash, int from) {
        outer:
        for (int i = from; i + dash.length <= b.length; i++) {
            if (i > 0 && b[i - 1] != '\n') {
                continue;
            }
            for (int k = 0; k < dash.length; k++) {
                if (b[i + k] != dash[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** The offset after the end of the line containing {@code from} (transport padding allowed), or -1. */
    private static int lineEnd(byte[] b, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == '\n') {
                return i + 1;
            }
        }
        return -1;
    }

    /** The boundary parameter of a multipart Content-Type value, unquoted; null when absent or invalid. */
    static String boundary(String contentType) {
        if (contentType == null) {
            return null;
        }
        for (String param : contentType.split(";")) {
            int eq = param.indexOf('=');
            if (eq > 0 && param.substring(0, eq).trim().equalsIgnoreCase("boundary")) {
                String value = param.substring(eq + 1).trim();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                return value.isEmpty() || value.length() > 70 ? null : value;
            }
        }
        return null;
    }
}

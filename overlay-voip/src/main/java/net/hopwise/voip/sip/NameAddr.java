package net.hopwise.voip.sip;

import java.util.Collections;
import java.util.Map;

/**
 * A From, To, Contact, Route or Record-Route value (RFC 3261 sections 20.10, 20.20, 20.30, 20.39):
 * an optional display name, the URI (inside angle brackets or not) and the header parameters.
 *
 * @param displayName the display name as written (quotes kept), or null
 * @param uri the URI without its angle brackets
 * @param bracketed whether the URI was written in angle brackets
 * @param params header parameters by lowercased name, in order; a value is null for a bare name
 */
public record NameAddr(String displayName, String uri, boolean bracketed, Map<String, String> params) {
    /** The wildcard Contact of a REGISTER that removes all bindings. */
    public static final NameAddr WILDCARD = new NameAddr(null, "*", false, Map.of());

    /** The tag parameter, or null. */
    public String tag() {
        return params.get("tag");
    }

    /** The URI's scheme in lower case, or null. */
    public String scheme() {
        String scheme = SipSyntax.scheme(uri);
        return scheme == null ? null : scheme.toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Null unless {@code value} is a name-addr or addr-spec with parameters. A display name must be
     * a quoted string or tokens (RFC 4475 "baddn", "quotbal"); nothing but the URI may stand inside
     * the brackets ("badaspec"); and a URI holding a comma, semicolon or question mark must be in
     * brackets (RFC 3261 section 20, "regbadct").
     */
    static NameAddr parse(String value, boolean nameAddrOnly) {
        ValueReader r = new ValueReader(value.trim());
        String display = null;
        String uri;
        boolean bracketed;
        if (r.peek() == '"') {
            display = r.quoted();
            if (display == null) {
                return null;
            }
            r.skipLws();
        } else if (value.indexOf('<') >= 0) {
            StringBuilder words = new StringBuilder();
            while (r.peek() != '<') {
                String word = r.token();
                if (word == null) {
                    return null;
                }
                words.append(words.length() == 0 ? "" : " ").append(word);
                r.skipLws();
            }
            display = words.length() == 0 ? null : words.toString();
        }
        if (r.peek() == '<') {
            r.consume('<');
            uri = r.until(">");
            if (uri == null || r.peek() != '>') {
                return null;
            }
            r.consume('>');
            bracketed = true;
        } else {
            if (display != null || nameAddrOnly) {
                return null;
            }
            uri = r.until(";,?>");
            if (uri == null || r.peek() == '?' || r.peek() == ',' || r.peek() == '>') {
                return null;
            }
            bracketed = false;
        }
        if (SipSyntax.scheme(uri) == null) {
            return null;
        }
        Map<String, String> params = r.params();
        if (params == null) {
            return null;
        }
        return new NameAddr(display, uri, bracketed, Collections.unmodifiableMap(params));
    }
}

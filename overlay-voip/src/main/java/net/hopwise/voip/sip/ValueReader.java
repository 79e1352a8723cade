package net.hopwise.voip.sip;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A cursor over one unfolded header value with the pieces of the RFC 3261 grammar the typed
 * values share: linear white space, tokens, quoted strings and {@code ;name=value} parameters.
 * Methods return null or false on a mismatch; nothing here throws on bad input.
 */
final class ValueReader {
    private final String s;
    private int p;

    ValueReader(String s) {
        this.s = s;
    }

    boolean atEnd() {
        return p >= s.length();
    }

    int position() {
        return p;
    }

    char peek() {
        return p < s.length() ? s.charAt(p) : '\0';
    }

    void skipLws() {
        while (p < s.length() && (s.charAt(p) == ' ' || s.charAt(p) == '\t')) {
            p++;
        }
    }

    boolean consume(char c) {
        if (peek() != c) {
            return false;
        }
        p++;
        return true;
    }

    /** Consumes {@code c} with optional white space around it (SWS c SWS). */
    boolean separator(char c) {
        int mark = p;
        skipLws();
        if (peek() != c) {
            p = mark;
            return false;
        }
        p++;
        skipLws();
        return true;
    }

    String token() {
        int start = p;
        while (p < s.length() && SipSyntax.isToken(s.charAt(p))) {
            p++;
        }
        return p > start ? s.substring(start, p) : null;
    }

    /** A quoted string with its quotes, backslash escapes kept; null when unterminated. */
    String quoted() {
        if (peek() != '"') {
            return null;
        }
        int start = p++;
        while (p < s.length()) {
            char c = s.charAt(p);
            if (c == '\\') {
                p += 2;
                continue;
            }
            p++;
            if (c == '"') {
                return s.substring(start, p);
            }
        }
        return null;
    }

    /** Up to (not including) the first of {@code stops} or white space; null when empty. */
    String until(String stops) {
        int start = p;
        while (p < s.length()) {
            char c = s.charAt(p);
            if (c == ' ' || c == '\t' || stops.indexOf(c) >= 0) {
                break;
            }
            p++;
        }
        return p > start ? s.substring(start, p) : null;
    }

    /**
     * {@code *( SEMI name [ EQUAL value ] )} up to the end: names lowercased, a value is a token, a
     * host (including a bracketed IPv6 reference) or a quoted string, null when absent. Returns null
     * on an empty name, a dangling {@code =} or trailing garbage.
     */
    Map<String, String> params() {
        Map<String, String> params = new LinkedHashMap<>();
        while (true) {
            skipLws();
            if (atEnd()) {
                return params;
            }
            if (!separator(';')) {
                return null;
            }
            String name = token();
            if (name == null) {
                return null;
            }
            String value = null;
            if (separator('=')) {
                value = peek() == '"' ? quoted() : paramValue();
                if (value == null) {
                    return null;
                }
            }
            params.put(name.toLowerCase(Locale.ROOT), value);
        }
    }

    private String paramValue() {
        int start = p;
        while (p < s.length()) {
            char c = s.charAt(p);
            if (!SipSyntax.isToken(c) && c != '[' && c != ']' && c != ':') {
                break;
            }
            p++;
        }
        return p > start ? s.substring(start, p) : null;
    }
}

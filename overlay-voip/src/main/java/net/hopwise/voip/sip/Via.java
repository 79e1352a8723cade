package net.hopwise.voip.sip;

import java.util.Collections;
import java.util.Map;

/**
 * One Via value (RFC 3261 section 20.42): the transport, the sent-by host and port, and the
 * parameters a relay routes responses by: branch (section 8.1.1.7), received and rport (RFC 3581).
 *
 * @param port the sent-by port, or -1 when absent
 * @param params parameters by lowercased name, in order; a value is null for a bare name
 */
public record Via(String protocol, String version, String transport, String host, int port, Map<String, String> params) {
    /** The branch parameter, or null. */
    public String branch() {
        return params.get("branch");
    }

    /** The received parameter, or null. */
    public String received() {
        return params.get("received");
    }

    /** Whether an rport parameter is present, filled in or not. */
    public boolean hasRport() {
        return params.containsKey("rport");
    }

    /** The rport value, or -1 when absent, empty or not a port number. */
    public int rport() {
        return port(params.get("rport"));
    }

    /** Whether the branch carries the RFC 3261 magic cookie and so identifies a transaction by itself. */
    public boolean hasRfc3261Branch() {
        String branch = branch();
        return branch != null && branch.startsWith("z9hG4bK") && branch.length() > 7;
    }

    /** Null unless {@code value} is {@code sent-protocol LWS sent-by *(SEMI via-params)}. */
    static Via parse(String value) {
        ValueReader r = new ValueReader(value.trim());
        String protocol = r.token();
        if (protocol == null || !r.separator('/')) {
            return null;
        }
        String version = r.token();
        if (version == null || !r.separator('/')) {
            return null;
        }
        String transport = r.token();
        if (transport == null) {
            return null;
        }
        int before = r.position();
        r.skipLws();
        if (r.position() == before) {
            return null;
        }
        String host = host(r);
        if (host == null) {
            return null;
        }
        int port = -1;
        if (r.separator(':')) {
            port = port(r.token());
            if (port < 0) {
                return null;
            }
        }
        Map<String, String> params = r.params();
        if (params == null) {
            return null;
        }
        return new Via(protocol, version, transport, host, port, Collections.unmodifiableMap(params));
    }

    private static String host(ValueReader r) {
        if (r.peek() == '[') {
            String literal = r.until("]");
            if (literal == null || r.peek() != ']') {
                return null;
            }
            r.separator(']');
            return literal.length() > 1 && isIpv6Body(literal.substring(1)) ? literal + "]" : null;
        }
        String host = r.until(";:,");
        if (host == null) {
            return null;
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (!SipSyntax.isAlpha(c) && !SipSyntax.isDigit(c) && c != '-' && c != '.') {
                return null;
            }
        }
        return host;
    }

    private static boolean isIpv6Body(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.digit(c, 16) < 0 && c != ':' && c != '.') {
                return false;
            }
        }
        return true;
    }

    static int port(String digits) {
        if (digits == null || digits.isEmpty() || digits.length() > 5) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (!SipSyntax.isDigit(c)) {
                return -1;
            }
            value = value * 10 + c - '0';
        }
        return value <= 65535 ? value : -1;
    }
}

package net.hopwise.voip.relay;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The parts of a SIP or SIPS URI the relay routes on (RFC 3261 section 19.1.1): user, host, port and
 * URI parameters. Anything that does not read as such a URI gives null, never an exception.
 *
 * @param scheme "sip" or "sips", in lower case
 * @param user the user part without password and parameters, or null
 * @param host the host in lower case, IPv6 references without brackets
 * @param port the port, or -1 when absent
 * @param params URI parameters by lowercased name; a bare name maps to ""
 */
public record SipUri(String scheme, String user, String host, int port, Map<String, String> params) {

    public static SipUri parse(String uri) {
        if (uri == null) {
            return null;
        }
        int colon = uri.indexOf(':');
        if (colon <= 0) {
            return null;
        }
        String scheme = uri.substring(0, colon).toLowerCase(Locale.ROOT);
        if (!scheme.equals("sip") && !scheme.equals("sips")) {
            return null;
        }
        String rest = uri.substring(colon + 1);
        int q = rest.indexOf('?');
        if (q >= 0) {
            rest = rest.substring(0, q);
        }
        String user = null;
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            user = rest.substring(0, at);
            int cut = indexOfAny(user, ":;");
            if (cut >= 0) {
                user = user.substring(0, cut);
            }
            rest = rest.substring(at + 1);
        }
        int semi = rest.indexOf(';');
        String hostPort = semi < 0 ? rest : rest.substring(0, semi);
        Map<String, String> params = new LinkedHashMap<>();
        if (semi >= 0) {
            for (String p : rest.substring(semi + 1).split(";")) {
                if (p.isEmpty()) {
                    continue;
                }
                int eq = p.indexOf('=');
                params.put((eq < 0 ? p : p.substring(0, eq)).trim().toLowerCase(Locale.ROOT),
                        eq < 0 ? "" : p.substring(eq + 1).trim());
            }
        }
        String host;
        int port = -1;
        String portText = null;
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            if (close < 0) {
                return null;
            }
            host = hostPort.substring(1, close);
            if (close + 1 < hostPort.length()) {
                if (hostPort.charAt(close + 1) != ':') {
                    return null;
                }
                portText = hostPort.substring(close + 2);
            }
        } else {
            int pc = hostPort.indexOf(':');
            host = pc < 0 ? hostPort : hostPort.substring(0, pc);
            portText = pc < 0 ? null : hostPort.substring(pc + 1);
        }
        if (host.isEmpty()) {
            return null;
        }
        if (portText != null) {
            if (portText.isEmpty() || portText.length() > 5 || !portText.chars().allMatch(Character::isDigit)) {
                return null;
            }
            port = Integer.parseInt(portText);
            if (port < 1 || port > 65535) {
                return null;
            }
        }
        return new SipUri(scheme, user, host.toLowerCase(Locale.ROOT), port, Map.copyOf(params));
    }

    /** Host and port as written in a URI ({@code host:port}, IPv6 in brackets), the port only if present. */
    public String hostPort() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port < 0 ? h : h + ":" + port;
    }

    /** The address-of-record key: {@code user@host}, or the host alone for a URI without user. */
    public String addressOfRecord() {
        return user == null ? host : user + "@" + host;
    }

    public String param(String name) {
        return params.get(name);
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }
}

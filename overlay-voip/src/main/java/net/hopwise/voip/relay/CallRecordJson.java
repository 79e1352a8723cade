package net.hopwise.voip.relay;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * A call's final record as one line of JSON (JSON Lines): the fields and names of the admin API's call
 * view ({@code GET /api/calls/{callId}}), placed on the wall clock, with each stream's own E-model
 * figures. Written by hand because the relay carries no JSON library; only what a record holds
 * (strings, numbers, booleans, null, nested objects and one array) is written, strings escaped as RFC
 * 8259 requires.
 */
final class CallRecordJson {
    private CallRecordJson() {}

    /**
     * The record of {@code call} as seen at {@code at}, without the line's end.
     *
     * @param accessDelayMs the access networks' delay each MOS and R assumes, as the API's
     */
    static String line(CallStatistics call, String node, Instant at, double accessDelayMs) {
        Instant end = at.minusMillis(call.sinceEndMs()).truncatedTo(ChronoUnit.MILLIS);
        Instant start = end.minusMillis(call.durationMs());
        StringBuilder out = new StringBuilder(1024).append('{');
        text(out, "node", node);
        text(out, "callId", call.callId());
        text(out, "from", call.from());
        text(out, "to", call.to());
        text(out, "state", call.state());
        text(out, "caller", call.caller());
        text(out, "callee", call.callee());
        text(out, "start", start.toString());
        text(out, "end", end.toString());
        integer(out, "durationMs", call.durationMs());
        text(out, "endReason", call.endReason());
        number(out, "accessDelayMs", accessDelayMs, 3);
        number(out, "rating", call.rating(accessDelayMs), 2);
        number(out, "mos", call.mos(accessDelayMs), 2);
        number(out, "phoneRating", call.phoneRating(accessDelayMs), 2);
        number(out, "phoneMos", call.phoneMos(accessDelayMs), 2);
        number(out, "phoneRttMs", call.phoneRttMs(), 3);
        name(out, "streams").append('[');
        for (StreamStatistics s : call.streams()) {
            if (out.charAt(out.length() - 1) != '[') {
                out.append(',');
            }
            stream(out, s, accessDelayMs);
        }
        return out.append("]}").toString();
    }

    private static void stream(StringBuilder out, StreamStatistics s, double accessDelayMs) {
        out.append('{');
        integer(out, "index", s.index());
        integer(out, "rtpPort", s.rtpPort());
        integer(out, "overlayPort", s.overlayPort());
        text(out, "advertised", address(s.advertised()));
        text(out, "latched", address(s.latched()));
        text(out, "remoteNode", s.remoteNode());
        integer(out, "remotePort", s.remotePort());
        name(out, "held").append(s.held());
        text(out, "codec", s.codec());
        number(out, "deadlineMs", s.deadlineMs(), 3);
        direction(name(out, "fromPhone"), s.fromPhone());
        direction(name(out, "toPhone"), s.toPhone());
        integer(out, "sentToNode", s.sentToNode());
        integer(out, "deliveredToPhone", s.deliveredToPhone());
        RtcpReport r = s.phoneReport();
        if (r == null) {
            name(out, "phoneReport").append("null");
        } else {
            name(out, "phoneReport").append('{');
            integer(out, "reports", r.reports());
            number(out, "fractionLostPercent", r.fractionLostPercent(), 3);
            integer(out, "cumulativeLost", r.cumulativeLost());
            number(out, "jitterMs", r.jitterMs(), 3);
            out.append('}');
        }
        number(out, "accessRttMs", s.accessRttMs(), 3);
        number(out, "farRttMs", s.farRttMs(), 3);
        number(out, "phoneRttMs", s.phoneRttMs(), 3);
        // As the call's own figures: 0 for a stream that carried nothing towards the phone.
        boolean media = s.toPhone().expected() > 0;
        number(out, "rating", media ? s.rating(accessDelayMs) : 0, 2);
        number(out, "mos", media ? s.mos(accessDelayMs) : 0, 2);
        number(out, "phoneRating", s.phoneRating(accessDelayMs), 2);
        number(out, "phoneMos", s.phoneMos(accessDelayMs), 2);
        out.append('}');
    }

    private static void direction(StringBuilder out, StreamStatistics.Direction d) {
        out.append('{');
        integer(out, "received", d.received());
        integer(out, "expected", d.expected());
        integer(out, "lost", d.lost());
        integer(out, "recovered", d.recovered());
        integer(out, "late", d.late());
        integer(out, "duplicates", d.duplicates());
        integer(out, "rtcp", d.rtcp());
        integer(out, "dropped", d.dropped());
        number(out, "jitterMs", d.jitterMs(), 3);
        number(out, "meanTransitMs", d.meanTransitMs(), 3);
        number(out, "missedPercent", d.missedPercent(), 3);
        out.append('}');
    }

    /** As the API writes an address: the literal, an IPv6 one in brackets, and the port; null for none. */
    static String address(InetSocketAddress a) {
        if (a == null) {
            return null;
        }
        if (a.getAddress() == null) {
            return a.getHostString() + ":" + a.getPort();
        }
        String host = a.getAddress().getHostAddress();
        return (a.getAddress() instanceof Inet6Address ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    /** A member's name and colon, after a comma unless it is the object's first; its value follows. */
    private static StringBuilder name(StringBuilder out, String name) {
        char last = out.charAt(out.length() - 1);
        if (last != '{' && last != '[') {
            out.append(',');
        }
        string(out, name);
        return out.append(':');
    }

    private static void text(StringBuilder out, String name, String value) {
        string(name(out, name), value);
    }

    private static void integer(StringBuilder out, String name, long value) {
        name(out, name).append(value);
    }

    private static void number(StringBuilder out, String name, double value, int digits) {
        number(name(out, name), value, digits);
    }

    /**
     * Appends {@code s} as a JSON string, or null. Quotation mark, reverse solidus and the control
     * characters are escaped as RFC 8259 section 7 requires; DEL, the line and paragraph separators
     * (which break JavaScript readers and some log viewers) and a surrogate without its pair (which has
     * no UTF-8 form) are escaped too, so that a line is valid UTF-8 and one line whatever a SIP peer put
     * in its Call-ID or URIs.
     */
    static void string(StringBuilder out, String s) {
        if (s == null) {
            out.append("null");
            return;
        }
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        unicode(out, c);
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        unicode(out, c);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void unicode(StringBuilder out, char c) {
        out.append("\\u");
        String hex = Integer.toHexString(c);
        out.append("0000", hex.length(), 4).append(hex);
    }

    /**
     * A number rounded to {@code digits} decimals; null for NaN and the infinities, which JSON has no
     * form for.
     */
    static void number(StringBuilder out, double value, int digits) {
        if (!Double.isFinite(value)) {
            out.append("null");
            return;
        }
        out.append(java.math.BigDecimal.valueOf(value).setScale(digits, java.math.RoundingMode.HALF_UP)
                .stripTrailingZeros().toPlainString());
    }
}

package net.hopwise.voip.sip;

import java.util.Locale;

/**
 * The request or status line (RFC 3261 sections 7.1 and 7.2), as offsets into the message.
 * Single SP separators are required (RFC 4475 "lwsstart" and "trws" are errors); a wrong version
 * or Request-URI is noted in {@link #error} but the header section is still read so that the relay
 * can answer 505 or 400 with the request's own Via and tags.
 */
final class StartLine {
    boolean request;
    int methodEnd;
    int uriStart;
    int uriEnd;
    int versionStart;
    int versionEnd;
    int status;
    int reasonStart;
    int reasonEnd;
    int lineEnd;
    /** An error that ends parsing here. */
    SipParseError failure;
    /** An error noted while the headers are still read. */
    SipParseError error;

    private StartLine() {}

    static StartLine read(ByteView v, SipParser.Scan scan) {
        StartLine line = new StartLine();
        int lf = -1;
        for (int i = 0; i < scan.limit; i++) {
            if (v.at(i) == '\n') {
                lf = i;
                break;
            }
        }
        line.request = !startsWithVersion(v, 0, scan.limit);
        if (lf < 0) {
            line.failure = SipParseError.TRUNCATED;
            return line;
        }
        int eol = lf > 0 && v.at(lf - 1) == '\r' ? lf - 1 : lf;
        line.lineEnd = lf + 1;
        if (line.request) {
            line.readRequest(v, eol);
        } else {
            line.readStatus(v, eol);
        }
        return line;
    }

    private void readRequest(ByteView v, int eol) {
        int p = 0;
        while (p < eol && SipSyntax.isToken(v.at(p))) {
            p++;
        }
        methodEnd = p;
        if (p == 0 || p >= eol || v.at(p) != ' ') {
            failure = SipParseError.BAD_START_LINE;
            return;
        }
        uriStart = ++p;
        while (p < eol && v.at(p) > ' ' && v.at(p) < 127) {
            p++;
        }
        uriEnd = p;
        if (uriEnd == uriStart || p >= eol || v.at(p) != ' ') {
            error = SipParseError.BAD_START_LINE;
            uriEnd = uriStart;
            return;
        }
        versionStart = p + 1;
        versionEnd = eol;
        int versionCheck = version(v, versionStart, versionEnd);
        if (versionCheck < 0) {
            error = SipParseError.BAD_START_LINE;
        } else if (versionCheck == 0) {
            error = SipParseError.UNSUPPORTED_VERSION;
        } else if (!acceptableRequestUri(v.ascii(uriStart, uriEnd))) {
            error = SipParseError.BAD_REQUEST_URI;
        }
    }

    private void readStatus(ByteView v, int eol) {
        int p = 4;
        while (p < eol && v.at(p) != ' ') {
            p++;
        }
        versionStart = 0;
        versionEnd = p;
        int versionCheck = version(v, 0, p);
        if (versionCheck < 0 || p + 4 > eol) {
            failure = SipParseError.BAD_START_LINE;
            return;
        }
        if (versionCheck == 0) {
            failure = SipParseError.UNSUPPORTED_VERSION;
            return;
        }
        int code = 0;
        for (int i = p + 1; i < p + 4; i++) {
            int b = v.at(i);
            if (!SipSyntax.isDigit(b)) {
                failure = SipParseError.BAD_START_LINE;
                return;
            }
            code = code * 10 + b - '0';
        }
        if (code < 100 || code > 699) {
            failure = SipParseError.BAD_START_LINE;
            return;
        }
        status = code;
        p += 4;
        if (p < eol && v.at(p) != ' ') {
            failure = SipParseError.BAD_START_LINE;
            return;
        }
        reasonStart = Math.min(p + 1, eol);
        reasonEnd = eol;
        for (int i = reasonStart; i < reasonEnd; i++) {
            int b = v.at(i);
            if (b == 127 || (b < 32 && b != '\t')) {
                failure = SipParseError.BAD_START_LINE;
                return;
            }
        }
    }

    /** 1 for SIP/2.0, 0 for another well-formed SIP version, -1 for anything else. */
    private static int version(ByteView v, int from, int to) {
        if (!startsWithVersion(v, from, to)) {
            return -1;
        }
        int p = from + 4;
        int majorStart = p;
        while (p < to && SipSyntax.isDigit(v.at(p))) {
            p++;
        }
        if (p == majorStart || p >= to || v.at(p) != '.') {
            return -1;
        }
        int minorStart = ++p;
        while (p < to && SipSyntax.isDigit(v.at(p))) {
            p++;
        }
        if (p == minorStart || p != to) {
            return -1;
        }
        return "2.0".equals(v.ascii(majorStart, to)) ? 1 : 0;
    }

    private static boolean startsWithVersion(ByteView v, int from, int to) {
        return to - from >= 4
                && (v.at(from) | 0x20) == 's'
                && (v.at(from + 1) | 0x20) == 'i'
                && (v.at(from + 2) | 0x20) == 'p'
                && v.at(from + 3) == '/';
    }

    /**
     * Angle brackets and, for SIP URIs, embedded headers are not allowed in a Request-URI (RFC 3261
     * section 19.1.1); a SIP URI's host is followed by nothing but an optional numeric port, so an
     * IPv6 address outside "[" "]" is refused (RFC 5118 section 4.2, "ipv6-bad").
     */
    private static boolean acceptableRequestUri(String uri) {
        String scheme = SipSyntax.scheme(uri);
        if (scheme == null) {
            return false;
        }
        String lower = scheme.toLowerCase(Locale.ROOT);
        if (!lower.equals("sip") && !lower.equals("sips")) {
            return true;
        }
        // The user part may hold '?' (RFC 4475 "intmeth"); headers start at a '?' after the host.
        int at = uri.lastIndexOf('@');
        return uri.indexOf('?', Math.max(0, at)) < 0 && acceptableHostPort(uri, at < 0 ? scheme.length() + 1 : at + 1);
    }

    /** {@code host [":" port]} from {@code from} to the first ';': a non-empty host, an IPv6 reference in brackets, a port of 0 to 65535. */
    private static boolean acceptableHostPort(String uri, int from) {
        int end = uri.indexOf(';', from);
        if (end < 0) {
            end = uri.length();
        }
        int p = from;
        if (p < end && uri.charAt(p) == '[') {
            int close = uri.indexOf(']', p);
            if (close < 0 || close >= end || close == p + 1) {
                return false;
            }
            p = close + 1;
        } else {
            while (p < end && uri.charAt(p) != ':') {
                p++;
            }
            if (p == from) {
                return false;
            }
        }
        if (p == end) {
            return true;
        }
        if (uri.charAt(p) != ':' || end - p - 1 < 1) {
            return false;
        }
        // RFC 3261's port is 1*DIGIT, leading zeros allowed; beyond 65535 it names no port.
        int port = 0;
        for (int i = p + 1; i < end; i++) {
            if (!SipSyntax.isDigit(uri.charAt(i))) {
                return false;
            }
            port = Math.min(65536, port * 10 + (uri.charAt(i) - '0'));
        }
        return port <= 65535;
    }
}

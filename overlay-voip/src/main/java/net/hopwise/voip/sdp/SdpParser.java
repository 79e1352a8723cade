package net.hopwise.voip.sdp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Cuts a body into lines and reads the ones the relay rewrites or inspects; see {@link SessionDescription}. */
final class SdpParser {
    private SdpParser() {}

    static SdpParseResult parse(byte[] b) {
        List<SdpLine> lines = SessionDescription.newLines();
        int media = -1;
        int p = 0;
        boolean versionSeen = false;
        while (p < b.length) {
            int lf = p;
            while (lf < b.length && b[lf] != '\n') {
                lf++;
            }
            int next = lf < b.length ? lf + 1 : b.length;
            int end = lf > p && b[lf - 1] == '\r' ? lf - 1 : lf;
            if (lines.size() == SessionDescription.MAX_LINES) {
                return SdpParseResult.failed(SdpParseError.TOO_LARGE, lines.size());
            }
            if (end == p) {
                lines.add(new SdpLine('\0', p, p, p, next, media));
                p = next;
                continue;
            }
            if (end - p < 2 || b[p] < 'a' || b[p] > 'z' || b[p + 1] != '=') {
                return SdpParseResult.failed(SdpParseError.BAD_LINE, lines.size());
            }
            for (int i = p; i < end; i++) {
                if (b[i] == 0 || b[i] == '\r') {
                    return SdpParseResult.failed(SdpParseError.BAD_LINE, lines.size());
                }
            }
            char type = (char) b[p];
            if (!versionSeen) {
                if (type != 'v' || end - p != 3 || b[p + 2] != '0') {
                    return SdpParseResult.failed(SdpParseError.MISSING_VERSION, lines.size());
                }
                versionSeen = true;
            }
            if (type == 'm') {
                media++;
            }
            lines.add(new SdpLine(type, p, p + 2, end, next, media));
            p = next;
        }
        if (!versionSeen) {
            return SdpParseResult.failed(SdpParseError.EMPTY, 0);
        }
        return interpret(b, lines, media + 1);
    }

    private static SdpParseResult interpret(byte[] b, List<SdpLine> lines, int mediaCount) {
        Origin origin = null;
        int originLine = -1;
        Connection session = null;
        MediaDirection sessionDirection = null;
        java.time.Duration sessionPtime = null;
        List<MediaDescription> media = new ArrayList<>(mediaCount);
        Section section = null;
        for (int i = 0; i < lines.size(); i++) {
            SdpLine line = lines.get(i);
            String value = new String(b, line.valueStart(), line.end() - line.valueStart(), StandardCharsets.UTF_8);
            switch (line.type()) {
                case 'o' -> {
                    if (origin != null || line.media() >= 0) {
                        return SdpParseResult.failed(SdpParseError.BAD_ORIGIN, i);
                    }
                    origin = origin(value);
                    if (origin == null) {
                        return SdpParseResult.failed(SdpParseError.BAD_ORIGIN, i);
                    }
                    originLine = i;
                }
                case 'c' -> {
                    Connection c = connection(value);
                    if (c == null) {
                        return SdpParseResult.failed(SdpParseError.BAD_CONNECTION, i);
                    }
                    if (section == null) {
                        session = session == null ? c : session;
                    } else if (section.connection == null) {
                        section.connection = c;
                    }
                }
                case 'm' -> {
                    if (section != null) {
                        media.add(section.build());
                    }
                    section = Section.of(value, media.size(), i);
                    if (section == null) {
                        return SdpParseResult.failed(SdpParseError.BAD_MEDIA, i);
                    }
                }
                case 'a' -> {
                    String name = SdpAttributes.name(b, line);
                    MediaDirection direction = MediaDirection.ofAttribute(name);
                    if (direction != null && name.length() == value.length()) {
                        if (section == null) {
                            sessionDirection = direction;
                        } else {
                            section.direction = direction;
                        }
                    } else if (section != null && name.equals("rtcp-mux")) {
                        section.rtcpMux = true;
                    } else if (section != null && name.equals("rtpmap")) {
                        RtpMap map = RtpMap.parse(SdpAttributes.value(b, line));
                        if (map != null) {
                            section.rtpMaps.add(map);
                        }
                    } else if (name.equals("ptime")) {
                        // RFC 8866 puts it in a media section; some phones write it once for the session,
                        // read as every section's that has none. An unreadable one is left out, not refused.
                        java.time.Duration ptime = ptime(SdpAttributes.value(b, line));
                        if (section == null) {
                            sessionPtime = sessionPtime == null ? ptime : sessionPtime;
                        } else if (section.ptime == null) {
                            section.ptime = ptime;
                        }
                    } else if (section != null && name.equals("rtcp")) {
                        if (!section.rtcp(SdpAttributes.value(b, line))) {
                            return SdpParseResult.failed(SdpParseError.BAD_RTCP, i);
                        }
                    }
                }
                default -> { }
            }
        }
        if (section != null) {
            media.add(section.build());
        }
        if (origin == null) {
            return SdpParseResult.failed(SdpParseError.BAD_ORIGIN, -1);
        }
        if (sessionPtime != null) {
            for (int i = 0; i < media.size(); i++) {
                if (media.get(i).ptime() == null) {
                    media.set(i, media.get(i).withPtime(sessionPtime));
                }
            }
        }
        return SdpParseResult.ok(new SessionDescription(b, lines, origin, originLine, session, sessionDirection, media));
    }

    /** Most ptime read: a packet of ten seconds is no call's (RFC 3551's longest frames are 30 ms). */
    static final long MAX_PTIME_MICROS = 10_000_000;

    /**
     * a=ptime:&lt;packet time&gt; in milliseconds, a whole or decimal number above zero (RFC 8866 section
     * 6.4: non-zero-int-or-real), kept to the microsecond; null when unreadable or out of range.
     */
    static java.time.Duration ptime(String value) {
        if (value == null || value.isEmpty() || value.length() > 16) {
            return null;
        }
        int dot = value.indexOf('.');
        String whole = dot < 0 ? value : value.substring(0, dot);
        String fraction = dot < 0 ? "" : value.substring(dot + 1);
        if (whole.isEmpty() || (dot >= 0 && fraction.isEmpty())) {
            return null;
        }
        long ms = number(whole, 5);
        String micros = (fraction + "000").substring(0, 3);
        long part = number(micros, 3);
        if (ms < 0 || part < 0 || (fraction.length() > 3 && number(fraction.substring(3), 13) < 0)) {
            return null;
        }
        long total = ms * 1000 + part;
        return total <= 0 || total > MAX_PTIME_MICROS ? null : java.time.Duration.ofNanos(total * 1000);
    }

    private static Origin origin(String value) {
        String[] f = value.split(" ", -1);
        if (f.length != 6 || !nonEmpty(f)) {
            return null;
        }
        long version = number(f[2], 18);
        if (version < 0) {
            return null;
        }
        return new Origin(f[0], f[1], version, new Connection(f[3], f[4], f[5]));
    }

    static Connection connection(String value) {
        String[] f = value.split(" ", -1);
        return f.length == 3 && nonEmpty(f) ? new Connection(f[0], f[1], f[2]) : null;
    }

    private static boolean nonEmpty(String[] fields) {
        for (String f : fields) {
            if (f.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** A decimal of at most {@code maxDigits} digits, or -1. */
    static long number(String s, int maxDigits) {
        if (s == null || s.isEmpty() || s.length() > maxDigits) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + c - '0';
        }
        return n;
    }

    /** An m= section being read. */
    private static final class Section {
        final int index;
        final String media;
        final int port;
        final int portCount;
        final String proto;
        final List<String> formats;
        final int mLine;
        Connection connection;
        int rtcpPort = -1;
        Connection rtcpAddress;
        MediaDirection direction;
        boolean rtcpMux;
        java.time.Duration ptime;
        final List<RtpMap> rtpMaps = new ArrayList<>(4);

        private Section(int index, String media, int port, int portCount, String proto, List<String> formats, int mLine) {
            this.index = index;
            this.media = media;
            this.port = port;
            this.portCount = portCount;
            this.proto = proto;
            this.formats = formats;
            this.mLine = mLine;
        }

        static Section of(String value, int index, int mLine) {
            String[] f = value.split(" ", -1);
            if (f.length < 4 || !nonEmpty(f)) {
                return null;
            }
            String portField = f[1];
            int slash = portField.indexOf('/');
            long port = number(slash < 0 ? portField : portField.substring(0, slash), 5);
            long count = slash < 0 ? 1 : number(portField.substring(slash + 1), 5);
            if (port < 0 || port > 65535 || count < 1) {
                return null;
            }
            List<String> formats = List.of(f).subList(3, f.length);
            return new Section(index, f[0], (int) port, (int) count, f[2], List.copyOf(formats), mLine);
        }

        /** a=rtcp:port [nettype addrtype address] (RFC 3605 section 2.1). */
        boolean rtcp(String value) {
            if (value == null) {
                return false;
            }
            String[] f = value.split(" ", -1);
            long port = number(f[0], 5);
            if (port < 0 || port > 65535 || (f.length != 1 && f.length != 4)) {
                return false;
            }
            if (f.length == 4) {
                rtcpAddress = connection(f[1] + " " + f[2] + " " + f[3]);
                if (rtcpAddress == null) {
                    return false;
                }
            }
            rtcpPort = (int) port;
            return true;
        }

        MediaDescription build() {
            return new MediaDescription(index, media, port, portCount, proto, formats, connection, rtcpPort, rtcpAddress,
                    direction, rtcpMux, mLine, List.copyOf(rtpMaps), ptime);
        }
    }
}

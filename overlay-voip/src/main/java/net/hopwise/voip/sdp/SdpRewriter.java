package net.hopwise.voip.sdp;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Emits a rewritten body: the c=, m=, o= and a=rtcp lines an {@link SdpRewrite} asks for get new
 * values, ICE lines are dropped if asked, and every other line is copied byte for byte with its
 * own line terminator, in its place. A rewritten line keeps its original terminator too. The
 * result parses to a description with the requested addresses and ports.
 */
public final class SdpRewriter {
    private SdpRewriter() {}

    public static byte[] rewrite(SessionDescription sdp, SdpRewrite rewrite) {
        byte[] in = sdp.raw();
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length + 64);
        for (int i = 0; i < sdp.lines().size(); i++) {
            SdpLine line = sdp.lines().get(i);
            String replaced = replacement(sdp, rewrite, i, line);
            if (replaced == null) {
                out.write(in, line.start(), line.next() - line.start());
            } else if (!replaced.isEmpty()) {
                byte[] value = replaced.getBytes(StandardCharsets.UTF_8);
                out.write(in, line.start(), 2);
                out.write(value, 0, value.length);
                out.write(in, line.end(), line.next() - line.end());
            }
        }
        return out.toByteArray();
    }

    /** The new value of line {@code i}, "" to drop it, or null to copy it. */
    private static String replacement(SessionDescription sdp, SdpRewrite rewrite, int i, SdpLine line) {
        switch (line.type()) {
            case 'o' -> {
                if (rewrite.originVersion() < 0 && rewrite.originAddress() == null) {
                    return null;
                }
                Origin o = sdp.origin();
                long version = rewrite.originVersion() < 0 ? o.version() : rewrite.originVersion();
                Connection address = rewrite.originAddress() == null ? o.address() : rewrite.originAddress();
                return o.username() + " " + o.sessionId() + " " + version + " " + address;
            }
            case 'c' -> {
                Connection c = line.media() < 0 ? rewrite.connection() : rewrite.connectionFor(line.media());
                if (c == null) {
                    return null;
                }
                Connection before = SdpParser.connection(sdp.value(line));
                return before.isUnspecified() && !rewrite.replaceUnspecified() ? null : c.toString();
            }
            case 'm' -> {
                MediaDescription m = sdp.media().get(line.media());
                Integer port = rewrite.port(line.media());
                if (port == null || m.port() == 0) {
                    return null;
                }
                String value = sdp.value(line);
                int first = value.indexOf(' ');
                int second = value.indexOf(' ', first + 1);
                String count = m.portCount() > 1 || value.substring(first + 1, second).indexOf('/') >= 0 ? "/" + m.portCount() : "";
                return value.substring(0, first + 1) + port + count + value.substring(second);
            }
            case 'a' -> {
                byte[] raw = sdp.raw();
                if (rewrite.stripIce() && SdpAttributes.isIce(raw, line)) {
                    return "";
                }
                if (line.media() >= 0 && SdpAttributes.name(raw, line).equals("rtcp")) {
                    return rtcp(sdp, rewrite, line);
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    private static String rtcp(SessionDescription sdp, SdpRewrite rewrite, SdpLine line) {
        MediaDescription m = sdp.media().get(line.media());
        Integer port = rewrite.rtcpPort(line.media());
        Connection address = rewrite.connectionFor(line.media());
        boolean hasAddress = m.rtcpAddress() != null;
        if (port == null && !(hasAddress && address != null)) {
            return null;
        }
        int newPort = port != null ? port : m.rtcpPort();
        Connection newAddress = hasAddress ? (address != null ? address : m.rtcpAddress()) : null;
        return "rtcp:" + newPort + (newAddress == null ? "" : " " + newAddress);
    }
}

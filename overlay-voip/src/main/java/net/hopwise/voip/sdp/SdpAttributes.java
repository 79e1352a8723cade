package net.hopwise.voip.sdp;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/** Names of a= lines and the groups the relay treats alike. */
final class SdpAttributes {
    /**
     * ICE attributes (RFC 8839 section 5 and the RFC 5245 ones still sent): a relay that anchors
     * media removes them all, or the phones would find a path around it.
     */
    static final Set<String> ICE = Set.of("candidate", "ice-ufrag", "ice-pwd", "ice-options", "remote-candidates",
            "end-of-candidates", "ice-lite", "ice-mismatch", "ice-pacing");

    private SdpAttributes() {}

    /** The attribute name of an a= line: up to the first colon, or the whole value. */
    static String name(byte[] bytes, SdpLine line) {
        int end = line.valueStart();
        while (end < line.end() && bytes[end] != ':') {
            end++;
        }
        return new String(bytes, line.valueStart(), end - line.valueStart(), StandardCharsets.UTF_8);
    }

    /** The attribute value after the colon, or null for a property attribute. */
    static String value(byte[] bytes, SdpLine line) {
        for (int i = line.valueStart(); i < line.end(); i++) {
            if (bytes[i] == ':') {
                return new String(bytes, i + 1, line.end() - i - 1, StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    static boolean isIce(byte[] bytes, SdpLine line) {
        return ICE.contains(name(bytes, line));
    }
}

package net.hopwise.voip.sdp;

/**
 * The o= line (RFC 8866 section 5.2). Username, session id and the address identify the session
 * owner; the version must increase whenever the owner changes the description (RFC 3264 section 8).
 */
public record Origin(String username, String sessionId, long version, Connection address) {
    /** What identifies the session across offers, for {@link SdpOriginVersions}. */
    public String owner() {
        return username + " " + sessionId + " " + address;
    }
}

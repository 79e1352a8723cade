package net.hopwise.voip.sdp;

import java.util.Locale;

/** The direction attributes of RFC 3264 section 5.1 (sendrecv when none is given). */
public enum MediaDirection {
    SENDRECV, SENDONLY, RECVONLY, INACTIVE;

    /** What an answerer mirrors: sendonly and recvonly swap (RFC 3264 section 6.1). */
    public MediaDirection reverse() {
        return switch (this) {
            case SENDONLY -> RECVONLY;
            case RECVONLY -> SENDONLY;
            default -> this;
        };
    }

    /** The attribute name as it appears after {@code a=}. */
    public String attribute() {
        return name().toLowerCase(Locale.ROOT);
    }

    static MediaDirection ofAttribute(String attribute) {
        return switch (attribute) {
            case "sendrecv" -> SENDRECV;
            case "sendonly" -> SENDONLY;
            case "recvonly" -> RECVONLY;
            case "inactive" -> INACTIVE;
            default -> null;
        };
    }
}

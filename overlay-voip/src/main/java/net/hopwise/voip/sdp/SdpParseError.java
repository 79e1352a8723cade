package net.hopwise.voip.sdp;

/** Why a body was not accepted as SDP (RFC 8866 section 5); the relay answers the SIP message with 488 or drops it. */
public enum SdpParseError {
    /** No lines at all. */
    EMPTY,
    /** More lines than {@link SessionDescription#MAX_LINES}. */
    TOO_LARGE,
    /** A line that is not {@code <lowercase letter>=<text>}, or holds a NUL or a lone CR. */
    BAD_LINE,
    /** The first line is not {@code v=0}. */
    MISSING_VERSION,
    /** The o= line is absent, repeated, or not six fields with a numeric version. */
    BAD_ORIGIN,
    /** A c= line that is not {@code <nettype> <addrtype> <address>}. */
    BAD_CONNECTION,
    /** An m= line that is not {@code <media> <port>[/<count>] <proto> <fmt>...} with a port up to 65535. */
    BAD_MEDIA,
    /** An a=rtcp attribute (RFC 3605) without a valid port, or with a malformed address. */
    BAD_RTCP
}

package net.hopwise.voip.sip;

/**
 * Bounds on what the codec accepts, so that a peer cannot make the relay buffer or scan without end.
 *
 * @param maxHeaderBytes start line plus header section, blank line included
 * @param maxHeaders number of header lines (folded continuations count with their field)
 * @param maxBodyBytes body size, whatever Content-Length claims
 */
public record SipLimits(int maxHeaderBytes, int maxHeaders, int maxBodyBytes) {
    /**
     * 16 KiB of headers: real INVITEs carry 1 to 2 KiB and a long Record-Route set a few KiB more,
     * while RFC 3261 section 18.1.1 already pushes anything over 1300 bytes to TCP.
     */
    public static final int DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
    /** 256 header lines: several times the count of a busy INVITE behind a chain of proxies. */
    public static final int DEFAULT_MAX_HEADERS = 256;
    /** 64 KiB of body: an SDP is well under 4 KiB; multipart bodies with PIDF-LO stay well below this. */
    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;

    public static final SipLimits DEFAULT =
            new SipLimits(DEFAULT_MAX_HEADER_BYTES, DEFAULT_MAX_HEADERS, DEFAULT_MAX_BODY_BYTES);

    public SipLimits {
        if (maxHeaderBytes < 64 || maxHeaders < 8 || maxBodyBytes < 0) {
            throw new IllegalArgumentException("SIP limits too small: " + maxHeaderBytes + "/" + maxHeaders + "/" + maxBodyBytes);
        }
    }
}

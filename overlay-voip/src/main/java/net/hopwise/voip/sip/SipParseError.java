package net.hopwise.voip.sip;

/**
 * Why bytes were not accepted as a SIP message. A relay answers a request that failed with
 * {@link #status()} when it can (RFC 3261 section 16.3 and 21.4) and drops and counts anything else;
 * a framing error on a stream is also a reason to close the connection ({@link #breaksFraming()}).
 */
public enum SipParseError {
    /** The bytes end before the message does (no blank line, or fewer body bytes than needed). */
    TRUNCATED(400, true),
    /** The request or status line does not follow RFC 3261 section 7.1/7.2. */
    BAD_START_LINE(400, false),
    /** The Request-URI is not a URI a request may carry (angle brackets, embedded headers, a SIP host and port that are not one). */
    BAD_REQUEST_URI(400, false),
    /** A SIP version other than 2.0: answered 505 (RFC 3261 section 8.2.2.1 for UAS, 16.3 for proxies). */
    UNSUPPORTED_VERSION(505, false),
    /** A header line without a name or colon, with control characters, or a value the relay needs that is malformed. */
    BAD_HEADER(400, false),
    /** One of Via, From, To, Call-ID or CSeq is absent. */
    MISSING_HEADER(400, false),
    /** A header that must appear once (Call-ID, From, To, CSeq, Max-Forwards, Content-Length, Content-Type) appears twice. */
    DUPLICATE_HEADER(400, false),
    /** CSeq is not a number below 2^31 followed by a method. */
    BAD_CSEQ(400, false),
    /** The CSeq method differs from the request method. */
    CSEQ_METHOD_MISMATCH(400, false),
    /** Max-Forwards is not an integer from 0 to 255. */
    BAD_MAX_FORWARDS(400, false),
    /** Content-Length is not a non-negative decimal number. */
    BAD_CONTENT_LENGTH(400, true),
    /** Content-Length says more bytes than the datagram holds, or is missing on a stream. */
    CONTENT_LENGTH_MISMATCH(400, true),
    /** The header section, the header count or the body exceeds the configured limits: 513 Message Too Large (RFC 3261 section 21.5.14). */
    TOO_LARGE(513, true),
    /** Bytes that do not start a SIP message at all (for example a non-SIP datagram). */
    NOT_SIP(400, false);

    private final int status;
    private final boolean breaksFraming;

    SipParseError(int status, boolean breaksFraming) {
        this.status = status;
        this.breaksFraming = breaksFraming;
    }

    /** The status code of the response a relay sends when the bad message was a request. */
    public int status() {
        return status;
    }

    /** On a stream, whether the message boundary is lost and the connection must be closed. */
    public boolean breaksFraming() {
        return breaksFraming;
    }
}

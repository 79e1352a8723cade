package net.hopwise.voip.sip;

/**
 * The outcome of parsing: a message, a typed error, a keep-alive, or (on a stream) a request for
 * more bytes. A result may own a message (always for {@link Kind#MESSAGE}, and for an error found
 * after the header section was read, so that a relay can still answer 400 with the request's Via,
 * From, To, Call-ID and CSeq); whoever receives a result releases it once with {@link #release()}.
 */
public final class SipParseResult {
    /** What the bytes turned out to be. */
    public enum Kind { MESSAGE, ERROR, KEEPALIVE, INCOMPLETE }

    private final Kind kind;
    private final SipMessage message;
    private final SipParseError error;
    private final int frameLength;
    private final boolean request;

    private SipParseResult(Kind kind, SipMessage message, SipParseError error, int frameLength, boolean request) {
        this.kind = kind;
        this.message = message;
        this.error = error;
        this.frameLength = frameLength;
        this.request = request;
    }

    static SipParseResult message(SipMessage message, int frameLength) {
        return new SipParseResult(Kind.MESSAGE, message, null, frameLength, message.isRequest());
    }

    static SipParseResult error(SipParseError error, int frameLength, boolean request) {
        return new SipParseResult(Kind.ERROR, null, error, frameLength, request);
    }

    static SipParseResult invalid(SipParseError error, SipMessage partial, int frameLength) {
        return new SipParseResult(Kind.ERROR, partial, error, frameLength, partial.isRequest());
    }

    static SipParseResult keepAlive(int frameLength) {
        return new SipParseResult(Kind.KEEPALIVE, null, null, frameLength, false);
    }

    static SipParseResult incomplete(int neededLength) {
        return new SipParseResult(Kind.INCOMPLETE, null, null, neededLength, false);
    }

    public Kind kind() {
        return kind;
    }

    public boolean isMessage() {
        return kind == Kind.MESSAGE;
    }

    /**
     * The parsed message for {@link Kind#MESSAGE}; for {@link Kind#ERROR} the message as far as it
     * could be read when only its semantics were wrong, else {@code null}. Owned by this result.
     */
    public SipMessage message() {
        return message;
    }

    /** The reason for {@link Kind#ERROR}, else {@code null}. */
    public SipParseError error() {
        return error;
    }

    /**
     * Bytes of input this result accounts for (a message ends there, trailing datagram bytes
     * excluded); -1 when an error left the end of the message unknown. For {@link Kind#INCOMPLETE},
     * the number of bytes needed before parsing again can succeed, or -1 when still unknown.
     */
    public int frameLength() {
        return frameLength;
    }

    /** Whether the bytes read as a request: only then may a relay answer an error with {@link SipParseError#status()}. */
    public boolean isRequest() {
        return request;
    }

    /** Releases the message this result owns, if any. */
    public void release() {
        if (message != null) {
            message.release();
        }
    }

    @Override
    public String toString() {
        return kind == Kind.ERROR ? "ERROR " + error : kind.toString();
    }
}

package net.hopwise.voip.sip;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Objects;

/**
 * Cuts SIP messages out of a byte stream (TCP, TLS) by Content-Length (RFC 3261 section 18.3):
 * a message split over several reads waits for the rest, several messages in one read come out one
 * by one, and the RFC 5626 keep-alives between messages are recognised (a CRLFCRLF ping is reported
 * so that the owner answers it with a CRLF pong; a lone CRLF pong, or any stray line break before a
 * start line as RFC 3261 section 7.5 allows, is skipped).
 *
 * <p>A message that read fully but was invalid is reported and skipped; an error that loses the
 * message boundary (no or bad Content-Length, oversized header section or body) is reported as fatal,
 * the buffered bytes are dropped and every later read is discarded: the owner closes the connection.
 *
 * <p>Zero-copy where the stream allows it: when a read starts at a message boundary its buffer
 * becomes the cumulation and messages are slices of it; bytes are copied only to join a message
 * split across reads. Not thread-safe; one framer per connection on its event loop.
 */
public final class SipFramer {
    /** Receives what the stream carried. Messages and partial messages are owned by the receiver. */
    public interface Sink {
        void message(SipMessage message);

        /**
         * A message that could not be accepted. {@code partial} is the message as far as it was read
         * (or null) and is owned by the receiver; {@code fatal} means the stream is unusable.
         */
        void error(SipParseError error, SipMessage partial, boolean isRequest, boolean fatal);

        /** A CRLFCRLF keep-alive ping: answer with CRLF (RFC 5626 section 4.4.1). */
        void ping();
    }

    private final SipParser parser;
    private final ByteBufAllocator alloc;
    private ByteBuf cumulation;
    private int needed;
    private int scannedWithoutHeaderEnd;
    private boolean failed;

    public SipFramer(SipParser parser, ByteBufAllocator alloc) {
        this.parser = Objects.requireNonNull(parser, "parser");
        this.alloc = Objects.requireNonNull(alloc, "alloc");
    }

    /** Bytes held waiting for the rest of a message. */
    public int buffered() {
        return cumulation == null ? 0 : cumulation.readableBytes();
    }

    /** Whether a fatal error ended this stream. */
    public boolean failed() {
        return failed;
    }

    /** Takes ownership of {@code chunk} and reports every complete message and keep-alive it finishes. */
    public void read(ByteBuf chunk, Sink sink) {
        if (failed) {
            chunk.release();
            return;
        }
        append(chunk);
        while (!failed && cumulation != null) {
            boolean waitingForPing = skipKeepAlives(sink);
            int readable = cumulation.readableBytes();
            if (waitingForPing || readable == 0 || (needed > 0 && readable < needed) || !headerMayBeComplete()) {
                break;
            }
            SipParseResult result = parser.parseStream(cumulation, cumulation.readerIndex(), readable);
            if (result.kind() == SipParseResult.Kind.INCOMPLETE) {
                needed = result.frameLength();
                scannedWithoutHeaderEnd = needed < 0 ? readable : 0;
                break;
            }
            needed = 0;
            scannedWithoutHeaderEnd = 0;
            deliver(result, sink);
        }
        if (cumulation != null && !cumulation.isReadable()) {
            cumulation.release();
            cumulation = null;
        }
    }

    /** Drops whatever is buffered; the owner calls this when the connection closes. */
    public void close() {
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }

    private void deliver(SipParseResult result, Sink sink) {
        switch (result.kind()) {
            case MESSAGE -> {
                cumulation.skipBytes(result.frameLength());
                sink.message(result.message());
            }
            case KEEPALIVE -> cumulation.skipBytes(Math.max(1, result.frameLength()));
            default -> {
                boolean fatal = result.frameLength() < 0;
                if (fatal) {
                    failed = true;
                    close();
                } else {
                    cumulation.skipBytes(result.frameLength());
                }
                sink.error(result.error(), result.message(), result.isRequest(), fatal);
            }
        }
    }

    /** Skips pongs and stray line breaks, reports pings; true when the bytes left may be the start of a ping. */
    private boolean skipKeepAlives(Sink sink) {
        ByteBuf c = cumulation;
        while (c.isReadable()) {
            int at = c.readerIndex();
            int b = c.getByte(at);
            if (b != '\r' && b != '\n') {
                return false;
            }
            if (c.readableBytes() >= 4 && c.getInt(at) == 0x0D0A0D0A) {
                c.skipBytes(4);
                sink.ping();
            } else if (b == '\r' && c.readableBytes() < 4 && isCrlfPrefix(c)) {
                return true;
            } else {
                c.skipBytes(1);
            }
        }
        return false;
    }

    /** Whether the buffered bytes are a prefix of CRLFCRLF that the next read may complete. */
    private static boolean isCrlfPrefix(ByteBuf c) {
        for (int i = 0; i < c.readableBytes(); i++) {
            if (c.getByte(c.readerIndex() + i) != ((i & 1) == 0 ? '\r' : '\n')) {
                return false;
            }
        }
        return true;
    }

    /**
     * False while the header section is known to be incomplete: no blank line arrived since the last
     * parse. Keeps a peer that trickles a header byte by byte from costing a parse per byte.
     */
    private boolean headerMayBeComplete() {
        if (scannedWithoutHeaderEnd == 0) {
            return true;
        }
        ByteBuf c = cumulation;
        int from = c.readerIndex() + Math.max(0, scannedWithoutHeaderEnd - 3);
        int end = c.writerIndex();
        if (c.readableBytes() >= parser.limits().maxHeaderBytes()) {
            return true;
        }
        for (int i = from; i + 1 < end; i++) {
            if (c.getByte(i) == '\n' && (c.getByte(i + 1) == '\n'
                    || (c.getByte(i + 1) == '\r' && i + 2 < end && c.getByte(i + 2) == '\n'))) {
                return true;
            }
        }
        scannedWithoutHeaderEnd = c.readableBytes();
        return false;
    }

    private void append(ByteBuf chunk) {
        if (cumulation == null) {
            if (!chunk.isReadOnly() && (chunk.hasArray() || chunk.nioBufferCount() == 1)) {
                cumulation = chunk;
                return;
            }
            cumulation = alloc.buffer(chunk.readableBytes());
        } else if (cumulation.refCnt() > 1 || cumulation.isReadOnly() || cumulation.writableBytes() < chunk.readableBytes()) {
            // Slices handed out still point into the old buffer, so it is never compacted in place.
            ByteBuf joined = alloc.buffer(cumulation.readableBytes() + chunk.readableBytes());
            joined.writeBytes(cumulation);
            cumulation.release();
            cumulation = joined;
        }
        try {
            cumulation.writeBytes(chunk);
        } finally {
            chunk.release();
        }
    }
}

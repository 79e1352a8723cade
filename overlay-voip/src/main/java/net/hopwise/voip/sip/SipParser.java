package net.hopwise.voip.sip;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.Objects;

/**
 * Reads one SIP message (RFC 3261 sections 7 and 25) out of a buffer without copying it: the
 * result's {@link SipMessage} is a retained slice of the input plus the offsets of its start line,
 * headers and body. The input stays owned by the caller.
 *
 * <p>Total by construction: every input gives a {@link SipParseResult}. As a last line of defence a
 * runtime fault inside the parser is turned into {@link SipParseError#NOT_SIP} and counted in
 * {@link #faults()}, which the fuzz tests require to stay at zero.
 *
 * <p>Leniency is chosen where deployed peers differ from the grammar and the relay loses nothing:
 * bare LF line ends, CRLFs before the start line, and trailing bytes after the body of a datagram
 * (RFC 3261 section 18.3) are accepted. Everything the relay later relies on is checked by
 * {@link SipMessageChecks}.
 */
public final class SipParser {
    private static final int FIELDS = SipMessage.FIELDS;

    private final SipLimits limits;
    private long faults;

    public SipParser() {
        this(SipLimits.DEFAULT);
    }

    public SipParser(SipLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    public SipLimits limits() {
        return limits;
    }

    /** Runtime faults turned into errors since this parser was made; zero unless the parser has a bug. */
    public long faults() {
        return faults;
    }

    /**
     * One datagram: the readable bytes of {@code datagram}. A missing Content-Length means the rest
     * of the datagram; bytes after Content-Length are ignored. Never {@link SipParseResult.Kind#INCOMPLETE}.
     */
    public SipParseResult parseDatagram(ByteBuf datagram) {
        return parse(datagram, datagram.readerIndex(), datagram.readableBytes(), false);
    }

    /**
     * The message that starts at absolute {@code index} of a stream buffer holding {@code available}
     * bytes from there. Content-Length is required; {@link SipParseResult.Kind#INCOMPLETE} says how
     * many bytes to wait for.
     */
    public SipParseResult parseStream(ByteBuf buf, int index, int available) {
        return parse(buf, index, available, true);
    }

    private SipParseResult parse(ByteBuf buf, int index, int available, boolean stream) {
        try {
            return parseUnchecked(buf, index, available, stream);
        } catch (RuntimeException fault) {
            faults++;
            return SipParseResult.error(SipParseError.NOT_SIP, -1, false);
        }
    }

    private SipParseResult parseUnchecked(ByteBuf buf, int index, int available, boolean stream) {
        ByteView all = ByteView.of(buf, index, available);
        int skip = 0;
        while (skip < available && isLineBreak(all.at(skip))) {
            skip++;
        }
        if (skip == available) {
            return stream && available == 0 ? SipParseResult.incomplete(-1) : SipParseResult.keepAlive(available);
        }
        if (!SipSyntax.isToken(all.at(skip))) {
            return SipParseResult.error(SipParseError.NOT_SIP, -1, false);
        }
        int n = available - skip;
        ByteView v = skip == 0 ? all : ByteView.of(buf, index + skip, n);
        Scan scan = new Scan(v, n, limits.maxHeaderBytes(), stream);

        StartLine start = StartLine.read(v, scan);
        if (start.failure != null) {
            return scan.failure(start.failure, start.request);
        }
        if (start.error != null && !start.request) {
            return SipParseResult.error(start.error, -1, false);
        }
        scan.request = start.request;
        SipParseResult headerFailure = scan.headers(start.lineEnd, limits.maxHeaders());
        if (headerFailure != null) {
            return headerFailure;
        }
        SipParseError error = start.error;
        int bodyStart = scan.position;
        int rest = n - bodyStart;
        int bodyLength;
        int frame;
        if (scan.contentLengthError != null) {
            error = first(error, scan.contentLengthError);
            bodyLength = stream ? 0 : Math.min(rest, limits.maxBodyBytes());
            frame = -1;
        } else if (scan.contentLength > limits.maxBodyBytes() || (scan.contentLength < 0 && !stream && rest > limits.maxBodyBytes())) {
            error = first(error, SipParseError.TOO_LARGE);
            bodyLength = 0;
            frame = -1;
        } else if (scan.contentLength < 0) {
            if (stream) {
                error = first(error, SipParseError.CONTENT_LENGTH_MISMATCH);
                bodyLength = 0;
                frame = -1;
            } else {
                bodyLength = rest;
                frame = skip + bodyStart + bodyLength;
            }
        } else if (scan.contentLength > rest) {
            if (stream) {
                return SipParseResult.incomplete(skip + bodyStart + scan.contentLength);
            }
            error = first(error, SipParseError.CONTENT_LENGTH_MISMATCH);
            bodyLength = rest;
            frame = available;
        } else {
            bodyLength = scan.contentLength;
            frame = skip + bodyStart + bodyLength;
        }
        SipMessage message = new SipMessage(buf.retainedSlice(index + skip, bodyStart + bodyLength), start,
                scan.count, scan.lines, scan.names, bodyStart);
        try {
            SipParseError semantic = SipMessageChecks.check(message);
            error = first(error, semantic);
        } catch (RuntimeException fault) {
            message.release();
            throw fault;
        }
        return error == null ? SipParseResult.message(message, frame) : SipParseResult.invalid(error, message, frame);
    }

    private static SipParseError first(SipParseError earlier, SipParseError later) {
        return earlier != null ? earlier : later;
    }

    private static boolean isLineBreak(int b) {
        return b == '\r' || b == '\n';
    }

    /** Cursor over the header section, shared by the start line and header readers. */
    static final class Scan {
        final ByteView v;
        final int available;
        final int limit;
        final int maxHeaderBytes;
        final boolean stream;
        /** Whether the start line read as a request, for the hint errors carry. */
        boolean request;
        int position;
        int count;
        int[] lines = new int[FIELDS * 16];
        SipHeaderName[] names = new SipHeaderName[16];
        int contentLength = -1;
        SipParseError contentLengthError;

        Scan(ByteView v, int available, int maxHeaderBytes, boolean stream) {
            this.v = v;
            this.available = available;
            this.limit = Math.min(available, maxHeaderBytes);
            this.maxHeaderBytes = maxHeaderBytes;
            this.stream = stream;
        }

        /** The answer when the header section runs out at {@code limit}: more bytes might help, or not. */
        SipParseResult ranOut(boolean request) {
            if (available >= maxHeaderBytes) {
                return SipParseResult.error(SipParseError.TOO_LARGE, -1, request);
            }
            return stream ? SipParseResult.incomplete(-1) : SipParseResult.error(SipParseError.TRUNCATED, -1, request);
        }

        SipParseResult failure(SipParseError error, boolean request) {
            return error == SipParseError.TRUNCATED ? ranOut(request) : SipParseResult.error(error, -1, request);
        }

        /** Reads header fields from {@code from} to the blank line; null on success. */
        SipParseResult headers(int from, int maxHeaders) {
            int p = from;
            while (true) {
                if (p >= limit) {
                    if (!stream && p == available && p > from) {
                        position = p;
                        return null;
                    }
                    return ranOut(request);
                }
                int b = v.at(p);
                if (b == '\n') {
                    position = p + 1;
                    return null;
                }
                if (b == '\r') {
                    if (p + 1 >= limit) {
                        return ranOut(request);
                    }
                    if (v.at(p + 1) != '\n') {
                        return SipParseResult.error(SipParseError.BAD_HEADER, -1, request);
                    }
                    position = p + 2;
                    return null;
                }
                int lineStart = p;
                while (p < limit && SipSyntax.isToken(v.at(p))) {
                    p++;
                }
                int nameEnd = p;
                while (p < limit && SipSyntax.isBlank(v.at(p))) {
                    p++;
                }
                if (p >= limit) {
                    return ranOut(request);
                }
                if (nameEnd == lineStart || v.at(p) != ':') {
                    return SipParseResult.error(SipParseError.BAD_HEADER, -1, request);
                }
                p++;
                int valueStart = -1;
                int valueEnd = -1;
                int lineBreak;
                while (true) {
                    if (p >= limit) {
                        return ranOut(request);
                    }
                    int c = v.at(p);
                    int next;
                    if (c == '\r') {
                        if (p + 1 >= limit) {
                            return ranOut(request);
                        }
                        if (v.at(p + 1) != '\n') {
                            return SipParseResult.error(SipParseError.BAD_HEADER, -1, request);
                        }
                        next = p + 2;
                    } else if (c == '\n') {
                        next = p + 1;
                    } else {
                        // A control character is only valid as a quoted-pair (RFC 3261 section 25.1).
                        if ((c == 127 || (c < 32 && c != '\t')) && (p == 0 || v.at(p - 1) != '\\')) {
                            return SipParseResult.error(SipParseError.BAD_HEADER, -1, request);
                        }
                        if (!SipSyntax.isBlank(c)) {
                            if (valueStart < 0) {
                                valueStart = p;
                            }
                            valueEnd = p + 1;
                        }
                        p++;
                        continue;
                    }
                    lineBreak = p;
                    if (next >= limit) {
                        if (!stream && next == available) {
                            // A datagram's end is the message's end, blank line or not.
                            p = next;
                            break;
                        }
                        return ranOut(request);
                    }
                    p = next;
                    if (!SipSyntax.isBlank(v.at(next))) {
                        break;
                    }
                }
                if (valueStart < 0) {
                    valueStart = lineBreak;
                    valueEnd = lineBreak;
                }
                if (count == maxHeaders) {
                    return SipParseResult.error(SipParseError.TOO_LARGE, -1, request);
                }
                SipHeaderName name = SipHeaderName.lookup(v, lineStart, nameEnd);
                add(lineStart, nameEnd, valueStart, valueEnd, p, name);
                if (name == SipHeaderName.CONTENT_LENGTH) {
                    readContentLength(valueStart, valueEnd);
                }
            }
        }

        private void add(int lineStart, int nameEnd, int valueStart, int valueEnd, int lineEnd, SipHeaderName name) {
            if (count == names.length) {
                names = Arrays.copyOf(names, count * 2);
                lines = Arrays.copyOf(lines, count * 2 * FIELDS);
            }
            int at = count * FIELDS;
            lines[at] = lineStart;
            lines[at + 1] = nameEnd;
            lines[at + 2] = valueStart;
            lines[at + 3] = valueEnd;
            lines[at + 4] = lineEnd;
            names[count++] = name;
        }

        private void readContentLength(int from, int to) {
            if (contentLength >= 0 || contentLengthError != null) {
                contentLengthError = SipParseError.DUPLICATE_HEADER;
                return;
            }
            long value = 0;
            for (int i = from; i < to; i++) {
                int d = v.at(i) - '0';
                if (d < 0 || d > 9) {
                    contentLengthError = SipParseError.BAD_CONTENT_LENGTH;
                    return;
                }
                value = Math.min(value * 10 + d, Integer.MAX_VALUE);
            }
            if (from == to) {
                contentLengthError = SipParseError.BAD_CONTENT_LENGTH;
                return;
            }
            contentLength = (int) value;
        }
    }
}

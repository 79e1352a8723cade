package net.hopwise.voip.sip;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the message a proxy forwards from a parsed one: headers added, removed or with a new
 * value, the Request-URI or the body replaced, and everything else copied as the byte ranges it
 * was (names in their original form and case, folds, order, line ends, unknown headers). Added
 * lines end in CRLF. Edits are recorded against the parsed message's header indexes and applied
 * by {@link #writeTo(ByteBuf)}, so they compose: a Via pushed above a Via popped, a Max-Forwards
 * decremented and a body replaced in one pass.
 *
 * <p>The edited message stays owned by its holder and must outlive the editor's use.
 */
public final class SipMessageEditor {
    private final SipMessage m;
    private final byte[][] values;
    private final boolean[] removed;
    private final List<List<byte[]>> before;
    private byte[] requestUri;
    private byte[] body;

    private SipMessageEditor(SipMessage m) {
        this.m = m;
        this.values = new byte[m.headerCount()][];
        this.removed = new boolean[m.headerCount()];
        this.before = new ArrayList<>();
        for (int i = 0; i <= m.headerCount(); i++) {
            before.add(null);
        }
    }

    public static SipMessageEditor of(SipMessage message) {
        return new SipMessageEditor(message);
    }

    public SipMessageEditor removeHeader(int index) {
        removed[index] = true;
        return this;
    }

    /** Replaces header {@code index}'s value (its name stays as written). */
    public SipMessageEditor replaceValue(int index, String value) {
        values[index] = utf8(value);
        return this;
    }

    /** Inserts {@code name: value} just above header {@code index} ({@code headerCount()} for the end). */
    public SipMessageEditor insertBefore(int index, String name, String value) {
        List<byte[]> lines = before.get(index);
        if (lines == null) {
            lines = new ArrayList<>(2);
            before.set(index, lines);
        }
        utf8(name);
        utf8(value);
        lines.add((name + ": " + value + "\r\n").getBytes(StandardCharsets.UTF_8));
        return this;
    }

    public SipMessageEditor appendHeader(String name, String value) {
        return insertBefore(m.headerCount(), name, value);
    }

    /** Replaces the Request-URI of a request (ignored for a response). */
    public SipMessageEditor requestUri(String uri) {
        requestUri = m.isRequest() ? utf8(uri) : null;
        return this;
    }

    /** Adds a Via on top of the others (RFC 3261 section 16.6 step 8). */
    public SipMessageEditor pushVia(String value) {
        int top = m.indexOf(SipHeaderName.VIA);
        return insertBefore(top < 0 ? 0 : top, SipHeaderName.VIA.canonical(), value);
    }

    /**
     * Removes the topmost Via value (RFC 3261 section 16.7 step 9): the whole line when it holds one
     * value, else the first element and its comma, the rest of the line left as written.
     */
    public SipMessageEditor popVia() {
        int top = m.indexOf(SipHeaderName.VIA);
        if (top < 0) {
            return this;
        }
        int[] elements = m.elements(top);
        if (elements.length <= 2) {
            return removeHeader(top);
        }
        int from = elements[2];
        int to = m.valueEnd(top);
        byte[] rest = new byte[to - from];
        m.content().getBytes(from, rest);
        values[top] = rest;
        return this;
    }

    /**
     * Records where the request really came from in its top Via (RFC 3261 section 18.2.1, RFC 3581
     * section 4): {@code received} is set when the sent-by host differs from the source address or
     * rport was asked for, and an rport parameter gets the source port. The top Via value is written
     * anew (parameters in their order, blanks normalised); the rest of the line stays as it was.
     * Does nothing when the top Via is malformed.
     */
    public SipMessageEditor markReceived(String sourceAddress, int sourcePort) {
        int top = m.indexOf(SipHeaderName.VIA);
        Via via = m.topVia();
        if (top < 0 || via == null) {
            return this;
        }
        StringBuilder value = new StringBuilder();
        value.append(via.protocol()).append('/').append(via.version()).append('/').append(via.transport())
                .append(' ').append(via.host());
        if (via.port() >= 0) {
            value.append(':').append(via.port());
        }
        boolean received = via.hasRport() || !via.host().equalsIgnoreCase(sourceAddress);
        for (var param : via.params().entrySet()) {
            String name = param.getKey();
            if (name.equals("received")) {
                continue;
            }
            value.append(';').append(name);
            if (name.equals("rport")) {
                value.append('=').append(sourcePort);
            } else if (param.getValue() != null) {
                value.append('=').append(param.getValue());
            }
        }
        if (received) {
            value.append(";received=").append(sourceAddress);
        }
        int[] elements = m.elements(top);
        ByteBuf content = m.content();
        int base = content.readerIndex();
        byte[] before = new byte[elements[0] - m.valueStart(top)];
        content.getBytes(base + m.valueStart(top), before);
        byte[] after = new byte[m.valueEnd(top) - elements[1]];
        content.getBytes(base + elements[1], after);
        byte[] middle = utf8(value.toString());
        byte[] whole = new byte[before.length + middle.length + after.length];
        System.arraycopy(before, 0, whole, 0, before.length);
        System.arraycopy(middle, 0, whole, before.length, middle.length);
        System.arraycopy(after, 0, whole, before.length + middle.length, after.length);
        values[top] = whole;
        return this;
    }

    /** Decrements Max-Forwards, or adds {@code Max-Forwards: 70} when absent (RFC 3261 section 16.6 step 3). */
    public SipMessageEditor decrementMaxForwards() {
        int index = m.indexOf(SipHeaderName.MAX_FORWARDS);
        if (index < 0) {
            return insertBefore(firstNonVia(), SipHeaderName.MAX_FORWARDS.canonical(), "70");
        }
        return replaceValue(index, Integer.toString(Math.max(0, m.maxForwards() - 1)));
    }

    /** Adds a Record-Route value above the others (RFC 3261 section 16.6 step 4). */
    public SipMessageEditor addRecordRoute(String value) {
        int top = m.indexOf(SipHeaderName.RECORD_ROUTE);
        return insertBefore(top < 0 ? firstNonVia() : top, SipHeaderName.RECORD_ROUTE.canonical(), value);
    }

    /** Removes the topmost Route value, as a loose router does when the Route names itself (section 16.4). */
    public SipMessageEditor popRoute() {
        int top = m.indexOf(SipHeaderName.ROUTE);
        if (top < 0) {
            return this;
        }
        int[] elements = m.elements(top);
        if (elements.length <= 2) {
            return removeHeader(top);
        }
        byte[] rest = new byte[m.valueEnd(top) - elements[2]];
        m.content().getBytes(elements[2], rest);
        values[top] = rest;
        return this;
    }

    /**
     * Replaces the body and sets Content-Length to its size (added when absent); Content-Type is
     * replaced too when {@code contentType} is not null.
     */
    public SipMessageEditor replaceBody(byte[] newBody, String contentType) {
        body = newBody.clone();
        if (contentType != null) {
            int type = m.indexOf(SipHeaderName.CONTENT_TYPE);
            if (type < 0) {
                appendHeader(SipHeaderName.CONTENT_TYPE.canonical(), contentType);
            } else {
                replaceValue(type, contentType);
            }
        }
        return setContentLength(body.length);
    }

    /** Adds Content-Length when absent, as a stream transport requires (RFC 3261 section 18.3). */
    public SipMessageEditor ensureContentLength() {
        return body != null || m.indexOf(SipHeaderName.CONTENT_LENGTH) >= 0 ? this : setContentLength(m.bodyLength());
    }

    private SipMessageEditor setContentLength(int length) {
        int index = m.indexOf(SipHeaderName.CONTENT_LENGTH);
        if (index < 0) {
            return appendHeader(SipHeaderName.CONTENT_LENGTH.canonical(), Integer.toString(length));
        }
        return replaceValue(index, Integer.toString(length));
    }

    private int firstNonVia() {
        for (int i = 0; i < m.headerCount(); i++) {
            if (m.header(i) != SipHeaderName.VIA) {
                return i;
            }
        }
        return m.headerCount();
    }

    /** The size {@link #writeTo(ByteBuf)} will write. */
    public int encodedLength() {
        CountingSink count = new CountingSink();
        emit(count);
        return count.total;
    }

    /** Writes the edited message at {@code out}'s writer index. */
    public void writeTo(ByteBuf out) {
        emit(new BufferSink(out, m.content()));
    }

    /** The edited message in a new buffer from {@code alloc}; the caller owns it. */
    public ByteBuf encode(ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer(encodedLength());
        writeTo(out);
        return out;
    }

    private void emit(Sink out) {
        if (requestUri != null) {
            out.copy(0, m.requestUriStart());
            out.bytes(requestUri);
            out.copy(m.requestUriEnd(), m.startLineEnd());
        } else {
            out.copy(0, m.startLineEnd());
        }
        for (int i = 0; i < m.headerCount(); i++) {
            emitInserted(out, i);
            if (removed[i]) {
                continue;
            }
            if (values[i] != null) {
                out.copy(m.lineStart(i), m.valueStart(i));
                out.bytes(values[i]);
                out.copy(m.valueEnd(i), m.lineEnd(i));
            } else {
                out.copy(m.lineStart(i), m.lineEnd(i));
            }
        }
        emitInserted(out, m.headerCount());
        int headersEnd = m.headerCount() == 0 ? m.startLineEnd() : m.lineEnd(m.headerCount() - 1);
        out.copy(headersEnd, m.bodyIndex());
        if (body != null) {
            out.bytes(body);
        } else {
            out.copy(m.bodyIndex(), m.length());
        }
    }

    private void emitInserted(Sink out, int index) {
        List<byte[]> lines = before.get(index);
        if (lines != null) {
            for (byte[] line : lines) {
                out.bytes(line);
            }
        }
    }

    private static byte[] utf8(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r' || c == '\n' || c == 0) {
                throw new IllegalArgumentException("line breaks and NUL are not allowed in a header: " + s);
            }
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private interface Sink {
        void copy(int from, int to);

        void bytes(byte[] bytes);
    }

    private static final class CountingSink implements Sink {
        int total;

        @Override
        public void copy(int from, int to) {
            total += to - from;
        }

        @Override
        public void bytes(byte[] bytes) {
            total += bytes.length;
        }
    }

    private record BufferSink(ByteBuf out, ByteBuf source) implements Sink {
        @Override
        public void copy(int from, int to) {
            out.writeBytes(source, source.readerIndex() + from, to - from);
        }

        @Override
        public void bytes(byte[] bytes) {
            out.writeBytes(bytes);
        }
    }
}

package net.hopwise.voip.sip;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A parsed SIP message as a view: the message's own bytes (a retained slice of what was read) and
 * the offsets of its start line, of each header's name and value, and of the body. Nothing is
 * copied until an accessor turns a value into a string or a typed value; typed values are parsed
 * on first use and cached. A value that is absent or malformed reads as null (or -1 for numbers);
 * a message that passed {@link SipMessageChecks} has well-formed Via, From, To, Call-ID, CSeq,
 * Contact, Route and Record-Route values.
 *
 * <p>Owned by whoever received it from a {@link SipParseResult}; {@link #release()} once. Not
 * thread-safe: it lives on the event loop that parsed it.
 */
public final class SipMessage {
    /** Ints per header in {@link #lines}: line start, name end, value start, value end, line end. */
    static final int FIELDS = 5;

    private final ByteBuf content;
    private final ByteView view;
    private final StartLine start;
    private final int count;
    private final int[] lines;
    private final SipHeaderName[] names;
    private final int bodyStart;
    private CSeq cseq;
    private NameAddr from;
    private NameAddr to;
    private List<Via> vias;

    SipMessage(ByteBuf content, StartLine start, int count, int[] lines, SipHeaderName[] names, int bodyStart) {
        this.content = content;
        this.view = ByteView.of(content, content.readerIndex(), content.readableBytes());
        this.start = start;
        this.count = count;
        this.lines = lines;
        this.names = names;
        this.bodyStart = bodyStart;
    }

    /** The message's bytes, readable from index 0 to {@link #length()}; valid until {@link #release()}. */
    public ByteBuf content() {
        return content;
    }

    public int length() {
        return content.readableBytes();
    }

    public void release() {
        content.release();
    }

    public boolean isRequest() {
        return start.request;
    }

    /** The request method (case-sensitive, RFC 3261 section 7.1), or null for a response. */
    public String method() {
        return start.request ? view.ascii(0, start.methodEnd) : null;
    }

    /** The Request-URI, or null for a response. */
    public String requestUri() {
        return start.request ? view.ascii(start.uriStart, start.uriEnd) : null;
    }

    /** The status code of a response, or 0 for a request. */
    public int statusCode() {
        return start.request ? 0 : start.status;
    }

    /** The reason phrase of a response (UTF-8, possibly empty), or null for a request. */
    public String reasonPhrase() {
        return start.request ? null : view.value(start.reasonStart, start.reasonEnd);
    }

    /** Offset of the first header line, just after the start line. */
    public int startLineEnd() {
        return start.lineEnd;
    }

    int requestUriStart() {
        return start.uriStart;
    }

    int requestUriEnd() {
        return start.uriEnd;
    }

    public int headerCount() {
        return count;
    }

    /** The known name of header {@code i}, or null for a header the relay does not interpret. */
    public SipHeaderName header(int i) {
        return names[i];
    }

    /** Header {@code i}'s name as written (compact or long, any case). */
    public String headerName(int i) {
        return view.ascii(lines[i * FIELDS], lines[i * FIELDS + 1]);
    }

    /** Header {@code i}'s value with folds read as single spaces. */
    public String headerValue(int i) {
        return view.value(valueStart(i), valueEnd(i));
    }

    int lineStart(int i) {
        return lines[i * FIELDS];
    }

    int valueStart(int i) {
        return lines[i * FIELDS + 2];
    }

    int valueEnd(int i) {
        return lines[i * FIELDS + 3];
    }

    int lineEnd(int i) {
        return lines[i * FIELDS + 4];
    }

    /** Index of the first header with this name, or -1. */
    public int indexOf(SipHeaderName name) {
        return indexOf(name, 0);
    }

    /** Index of the first header with this name at or after {@code from}, or -1. */
    public int indexOf(SipHeaderName name, int from) {
        for (int i = from; i < count; i++) {
            if (names[i] == name) {
                return i;
            }
        }
        return -1;
    }

    /** Index of the first header named {@code name} in either form and any case, or -1. */
    public int indexOf(String name) {
        SipHeaderName known = SipHeaderName.of(name);
        if (known != null) {
            return indexOf(known);
        }
        for (int i = 0; i < count; i++) {
            if (names[i] == null && headerName(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The first value of a header by name in either form, or null. */
    public String header(String name) {
        int i = indexOf(name);
        return i < 0 ? null : headerValue(i);
    }

    /** The first value of a known header, or null. */
    public String header(SipHeaderName name) {
        int i = indexOf(name);
        return i < 0 ? null : headerValue(i);
    }

    /**
     * Every value of a header in message order; for a header whose grammar allows comma lists
     * (Via, Contact, Route, Record-Route...) each element of each line is one value.
     */
    public List<String> values(SipHeaderName name) {
        List<String> values = new ArrayList<>();
        for (int i = indexOf(name); i >= 0; i = indexOf(name, i + 1)) {
            if (name.commaList()) {
                int[] ranges = elements(i);
                for (int r = 0; r < ranges.length; r += 2) {
                    values.add(view.value(ranges[r], ranges[r + 1]));
                }
            } else {
                values.add(headerValue(i));
            }
        }
        return values;
    }

    /** Start and end offsets of each comma-separated element of header {@code i}. */
    int[] elements(int i) {
        return SipValueList.split(view, valueStart(i), valueEnd(i));
    }

    /** Offset of the body. */
    public int bodyIndex() {
        return bodyStart;
    }

    public int bodyLength() {
        return content.readableBytes() - bodyStart;
    }

    /** The body as a slice of {@link #content()} (not retained). */
    public ByteBuf body() {
        return content.slice(bodyStart, bodyLength());
    }

    public String callId() {
        return header(SipHeaderName.CALL_ID);
    }

    public CSeq cseq() {
        if (cseq == null) {
            String value = header(SipHeaderName.CSEQ);
            cseq = value == null ? null : CSeq.parse(value);
        }
        return cseq;
    }

    public NameAddr from() {
        if (from == null) {
            from = nameAddr(SipHeaderName.FROM);
        }
        return from;
    }

    public NameAddr to() {
        if (to == null) {
            to = nameAddr(SipHeaderName.TO);
        }
        return to;
    }

    public String fromTag() {
        NameAddr value = from();
        return value == null ? null : value.tag();
    }

    public String toTag() {
        NameAddr value = to();
        return value == null ? null : value.tag();
    }

    /** Every Via value from the top; null if any of them is malformed. */
    public List<Via> vias() {
        if (vias == null) {
            List<Via> parsed = new ArrayList<>();
            for (String value : values(SipHeaderName.VIA)) {
                Via via = Via.parse(value);
                if (via == null) {
                    return null;
                }
                parsed.add(via);
            }
            vias = Collections.unmodifiableList(parsed);
        }
        return vias;
    }

    /** The top Via, or null. */
    public Via topVia() {
        List<Via> all = vias();
        return all == null || all.isEmpty() ? null : all.get(0);
    }

    /** Max-Forwards from 0 to 255, or -1 when absent or malformed. */
    public int maxForwards() {
        String value = header(SipHeaderName.MAX_FORWARDS);
        if (value == null || value.isEmpty() || value.length() > 6) {
            return -1;
        }
        int n = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!SipSyntax.isDigit(c)) {
                return -1;
            }
            n = n * 10 + c - '0';
        }
        return n <= 255 ? n : -1;
    }

    /** The Content-Length header's value, or -1 when absent (the body length is {@link #bodyLength()}). */
    public int contentLength() {
        String value = header(SipHeaderName.CONTENT_LENGTH);
        if (value == null) {
            return -1;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The media type of Content-Type without parameters, lowercased, or null. */
    public String contentType() {
        String value = header(SipHeaderName.CONTENT_TYPE);
        if (value == null) {
            return null;
        }
        int semi = value.indexOf(';');
        return (semi < 0 ? value : value.substring(0, semi)).trim().toLowerCase(java.util.Locale.ROOT);
    }

    /** Route values from the top; null if any is malformed. */
    public List<NameAddr> routes() {
        return nameAddrs(SipHeaderName.ROUTE, true);
    }

    /** Record-Route values from the top; null if any is malformed. */
    public List<NameAddr> recordRoutes() {
        return nameAddrs(SipHeaderName.RECORD_ROUTE, true);
    }

    /** Contact values; the wildcard reads as {@link NameAddr#WILDCARD}; null if any is malformed. */
    public List<NameAddr> contacts() {
        return nameAddrs(SipHeaderName.CONTACT, false);
    }

    /** The URI of the first Contact, or null. */
    public String contactUri() {
        List<NameAddr> contacts = contacts();
        return contacts == null || contacts.isEmpty() ? null : contacts.get(0).uri();
    }

    private NameAddr nameAddr(SipHeaderName name) {
        String value = header(name);
        return value == null ? null : NameAddr.parse(value, false);
    }

    private List<NameAddr> nameAddrs(SipHeaderName name, boolean nameAddrOnly) {
        List<NameAddr> parsed = new ArrayList<>();
        for (String value : values(name)) {
            NameAddr addr = name == SipHeaderName.CONTACT && value.equals("*")
                    ? NameAddr.WILDCARD
                    : NameAddr.parse(value, nameAddrOnly);
            if (addr == null) {
                return null;
            }
            parsed.add(addr);
        }
        return parsed;
    }

    @Override
    public String toString() {
        return isRequest() ? "SipMessage[" + method() + " " + requestUri() + "]" : "SipMessage[" + statusCode() + "]";
    }
}

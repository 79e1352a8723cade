package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.voip.sip.SipHeaderName;
import net.hopwise.voip.sip.SipMessage;
import net.hopwise.voip.sip.SipMessageEditor;
import net.hopwise.voip.sip.SipParseResult;
import net.hopwise.voip.sip.SipParser;
import net.hopwise.voip.sip.SipResponses;
import net.hopwise.voip.sip.Via;

/**
 * The relay's own words in SIP: its Via branch (which also carries the loop-detection hash of RFC
 * 3261 section 16.6 step 8), its Record-Route, and the small edits the codec's editor leaves to the
 * proxy (several Route values popped at once, headers added to a response it made).
 */
final class ProxyMessages {
    private static final String MAGIC = "z9hG4bK";

    private final String nodeName;
    private final String branchPrefix;
    private final String hostPort;
    private long counter;

    ProxyMessages(String nodeName, String advertisedHost, int sipPort) {
        this.nodeName = nodeName;
        this.branchPrefix = MAGIC + "hw" + Integer.toHexString(nodeName.hashCode()) + ".";
        String host = advertisedHost.indexOf(':') >= 0 ? "[" + advertisedHost + "]" : advertisedHost;
        this.hostPort = host + ":" + sipPort;
    }

    String hostPort() {
        return hostPort;
    }

    /** A new branch of this relay carrying {@code loopHash}. */
    String branch(String loopHash) {
        return branchPrefix + loopHash + "." + Long.toHexString(++counter);
    }

    String via(String branch, boolean tcp) {
        return "SIP/2.0/" + (tcp ? "TCP " : "UDP ") + hostPort + ";branch=" + branch;
    }

    String recordRoute() {
        return "<sip:" + hostPort + ";lr;hwnode=" + nodeName + ">";
    }

    /** A To tag for responses the relay makes itself. */
    String tag() {
        return "hw" + Long.toHexString(++counter);
    }

    /**
     * The hash of what identifies a request's journey (RFC 3261 section 16.6 step 8): Request-URI,
     * From and To tags, Call-ID, CSeq number, Route and Proxy-Require. The same request coming back
     * to this relay has the same hash (a loop); one sent back after a change of target does not (a
     * spiral).
     */
    static String loopHash(SipMessage m) {
        StringBuilder sb = new StringBuilder();
        sb.append(m.requestUri()).append('|').append(m.fromTag()).append('|').append(m.toTag()).append('|')
                .append(m.callId()).append('|').append(m.cseq() == null ? "" : m.cseq().number()).append('|')
                .append(String.join(",", m.values(SipHeaderName.ROUTE))).append('|')
                .append(String.join(",", m.values(SipHeaderName.PROXY_REQUIRE)));
        return Integer.toHexString(sb.toString().hashCode());
    }

    /** Whether one of the request's Vias is this relay's with the same loop hash. */
    boolean looped(SipMessage m, String loopHash) {
        List<Via> vias = m.vias();
        if (vias == null) {
            return false;
        }
        String mine = branchPrefix + loopHash + ".";
        for (Via v : vias) {
            String b = v.branch();
            if (b != null && b.startsWith(mine)) {
                return true;
            }
        }
        return false;
    }

    /** Removes the first {@code count} Route values, whichever lines they are written on. */
    static void popRoutes(SipMessage m, SipMessageEditor editor, int count) {
        if (count <= 0) {
            return;
        }
        List<String> values = m.values(SipHeaderName.ROUTE);
        int first = m.indexOf(SipHeaderName.ROUTE);
        for (int i = first; i >= 0; i = m.indexOf(SipHeaderName.ROUTE, i + 1)) {
            editor.removeHeader(i);
        }
        if (count < values.size()) {
            editor.insertBefore(first, SipHeaderName.ROUTE.canonical(),
                    String.join(", ", values.subList(count, values.size())));
        }
    }

    /** A response to {@code request} with extra header lines; null when the request cannot be answered. */
    static ByteBuf response(SipMessage request, int status, String toTag, List<String[]> extra, ByteBufAllocator alloc) {
        ByteBuf plain = SipResponses.response(request, status, toTag, alloc);
        if (plain == null || extra.isEmpty()) {
            return plain;
        }
        SipParseResult parsed = new SipParser().parseDatagram(plain);
        try {
            if (!parsed.isMessage()) {
                return plain.retain();
            }
            SipMessageEditor e = SipMessageEditor.of(parsed.message());
            for (String[] h : extra) {
                e.insertBefore(parsed.message().indexOf(SipHeaderName.CONTENT_LENGTH), h[0], h[1]);
            }
            return e.encode(alloc);
        } finally {
            parsed.release();
            plain.release();
        }
    }

    /** Parses bytes the relay stored (its own output, so they parse); the caller releases the result. */
    static SipParseResult parseStored(byte[] bytes) {
        ByteBuf wrapped = Unpooled.wrappedBuffer(bytes);
        try {
            return new SipParser().parseDatagram(wrapped);
        } finally {
            wrapped.release();
        }
    }

    /** The Call-ID of a stored message, or null. */
    static String callId(byte[] stored) {
        SipParseResult r = parseStored(stored);
        try {
            return r.message() == null ? null : r.message().callId();
        } finally {
            r.release();
        }
    }

    static byte[] bytes(ByteBuf buf) {
        byte[] b = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), b);
        return b;
    }

    static List<String[]> headers(String... namesAndValues) {
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            out.add(new String[] {namesAndValues[i], namesAndValues[i + 1]});
        }
        return out;
    }

    static String ascii(ByteBuf b) {
        return b.toString(StandardCharsets.UTF_8);
    }
}

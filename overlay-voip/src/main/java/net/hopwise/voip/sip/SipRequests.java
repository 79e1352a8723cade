package net.hopwise.voip.sip;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * Requests a transaction-stateful proxy sends on its own for a request it forwarded: the CANCEL of
 * a pending INVITE branch (RFC 3261 section 9.1) and the hop-by-hop ACK of a non-2xx final response
 * (section 17.1.1.3). Both reuse the forwarded INVITE's Request-URI, Call-ID, From, CSeq number and
 * Route set as written, with only its top Via, so that they match the INVITE's client transaction.
 */
public final class SipRequests {
    private SipRequests() {}

    /** The CANCEL for {@code invite} as the relay forwarded it; null if the INVITE lacks a header to copy. */
    public static ByteBuf cancel(SipMessage invite, ByteBufAllocator alloc) {
        return build(invite, "CANCEL", null, alloc);
    }

    /** The ACK for a non-2xx final {@code response} to {@code invite}: To comes from the response, tag included. */
    public static ByteBuf ackForFailure(SipMessage invite, SipMessage response, ByteBufAllocator alloc) {
        if (response.isRequest() || response.statusCode() < 300) {
            throw new IllegalArgumentException("an ACK of this kind answers a final non-2xx response, not " + response);
        }
        return build(invite, "ACK", response, alloc);
    }

    private static ByteBuf build(SipMessage invite, String method, SipMessage toSource, ByteBufAllocator alloc) {
        if (!"INVITE".equals(invite.method())) {
            throw new IllegalArgumentException("not an INVITE: " + invite);
        }
        SipMessage toFrom = toSource != null ? toSource : invite;
        int via = invite.indexOf(SipHeaderName.VIA);
        int from = invite.indexOf(SipHeaderName.FROM);
        int to = toFrom.indexOf(SipHeaderName.TO);
        int callId = invite.indexOf(SipHeaderName.CALL_ID);
        CSeq cseq = invite.cseq();
        if (via < 0 || from < 0 || to < 0 || callId < 0 || cseq == null) {
            return null;
        }
        ByteBuf out = alloc.buffer(invite.startLineEnd() + 512);
        out.writeCharSequence(method + " " + invite.requestUri() + " SIP/2.0\r\n", StandardCharsets.UTF_8);
        int[] topVia = invite.elements(via);
        writeHeader(out, invite, "Via", topVia[0], topVia[1]);
        copyLine(out, invite, from);
        copyLine(out, toFrom, to);
        copyLine(out, invite, callId);
        out.writeCharSequence("CSeq: " + cseq.number() + " " + method + "\r\n", StandardCharsets.US_ASCII);
        for (int i = invite.indexOf(SipHeaderName.ROUTE); i >= 0; i = invite.indexOf(SipHeaderName.ROUTE, i + 1)) {
            copyLine(out, invite, i);
        }
        out.writeCharSequence("Max-Forwards: 70\r\nContent-Length: 0\r\n\r\n", StandardCharsets.US_ASCII);
        return out;
    }

    private static void copyLine(ByteBuf out, SipMessage m, int header) {
        ByteBuf content = m.content();
        out.writeBytes(content, content.readerIndex() + m.lineStart(header), m.lineEnd(header) - m.lineStart(header));
        int last = out.writerIndex() - 1;
        if (out.getByte(last) != '\n') {
            out.writeCharSequence("\r\n", StandardCharsets.US_ASCII);
        }
    }

    private static void writeHeader(ByteBuf out, SipMessage m, String name, int from, int to) {
        out.writeCharSequence(name + ": ", StandardCharsets.US_ASCII);
        ByteBuf content = m.content();
        out.writeBytes(content, content.readerIndex() + from, to - from);
        out.writeCharSequence("\r\n", StandardCharsets.US_ASCII);
    }
}

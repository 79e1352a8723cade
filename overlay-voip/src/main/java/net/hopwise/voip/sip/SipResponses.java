package net.hopwise.voip.sip;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * Responses the relay answers by itself (100 Trying, 400 for a malformed request, 483, 505, the 200
 * to a CANCEL), built per RFC 3261 section 8.2.6.2: the request's Via lines in order, From, To (with a
 * tag added when the request's To has none and one is given), Call-ID and CSeq copied as the byte
 * ranges they were, then {@code Content-Length: 0}. Works on a partial message from an error result,
 * which is what answering a malformed request needs.
 */
public final class SipResponses {
    private static final SipHeaderName[] COPIED = {
        SipHeaderName.VIA, SipHeaderName.FROM, SipHeaderName.TO, SipHeaderName.CALL_ID, SipHeaderName.CSEQ
    };

    private SipResponses() {}

    /** Standard reason phrases for the codes the relay sends itself; others read "Status". */
    public static String reason(int status) {
        return switch (status) {
            case 100 -> "Trying";
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 408 -> "Request Timeout";
            case 413 -> "Request Entity Too Large";
            case 416 -> "Unsupported URI Scheme";
            case 420 -> "Bad Extension";
            case 481 -> "Call/Transaction Does Not Exist";
            case 482 -> "Loop Detected";
            case 483 -> "Too Many Hops";
            case 487 -> "Request Terminated";
            case 488 -> "Not Acceptable Here";
            case 500 -> "Server Internal Error";
            case 503 -> "Service Unavailable";
            case 505 -> "Version Not Supported";
            case 513 -> "Message Too Large";
            default -> "Status";
        };
    }

    /**
     * The response to {@code request}, or null when the request lacks a header a response must copy
     * (the relay then drops it). {@code toTag} is added to To unless To already has a tag or it is null
     * (a 100 Trying carries none).
     */
    public static ByteBuf response(SipMessage request, int status, String toTag, ByteBufAllocator alloc) {
        if (!request.isRequest() || status < 100 || status > 699) {
            throw new IllegalArgumentException("not a request, or status out of range: " + status);
        }
        for (SipHeaderName name : COPIED) {
            if (request.indexOf(name) < 0) {
                return null;
            }
        }
        byte[] start = ("SIP/2.0 " + status + " " + reason(status) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        ByteBuf out = alloc.buffer(start.length + 256);
        out.writeBytes(start);
        ByteBuf content = request.content();
        int base = content.readerIndex();
        for (int i = 0; i < request.headerCount(); i++) {
            SipHeaderName name = request.header(i);
            if (name == null || !isCopied(name) || (name.singleton() && request.indexOf(name) != i)) {
                continue;
            }
            if (name == SipHeaderName.TO && toTag != null && !hasTag(request)) {
                out.writeBytes(content, base + request.lineStart(i), request.valueEnd(i) - request.lineStart(i));
                out.writeCharSequence(";tag=" + toTag, StandardCharsets.UTF_8);
                out.writeBytes(content, base + request.valueEnd(i), request.lineEnd(i) - request.valueEnd(i));
            } else {
                out.writeBytes(content, base + request.lineStart(i), request.lineEnd(i) - request.lineStart(i));
            }
        }
        out.writeCharSequence("Content-Length: 0\r\n\r\n", StandardCharsets.US_ASCII);
        return out;
    }

    private static boolean hasTag(SipMessage request) {
        NameAddr to = request.to();
        if (to != null) {
            return to.tag() != null;
        }
        String raw = request.header(SipHeaderName.TO);
        return raw != null && raw.toLowerCase(java.util.Locale.ROOT).contains("tag=");
    }

    private static boolean isCopied(SipHeaderName name) {
        for (SipHeaderName copied : COPIED) {
            if (copied == name) {
                return true;
            }
        }
        return false;
    }
}

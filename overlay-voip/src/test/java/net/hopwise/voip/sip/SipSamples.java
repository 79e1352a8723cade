package net.hopwise.voip.sip;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;

/** Messages in the shapes SIPp's built-in uac/uas scenarios and a registering phone send. */
final class SipSamples {
    private SipSamples() {}

    static final String SDP = String.join("\r\n",
            "v=0",
            "o=user1 53655765 2353687637 IN IP4 127.0.0.1",
            "s=-",
            "c=IN IP4 127.0.0.1",
            "t=0 0",
            "m=audio 6000 RTP/AVP 0",
            "a=rtpmap:0 PCMU/8000",
            "");

    /** SIPp uac's INVITE (its scenario's header set and order, SDP with a session-level c= only). */
    static String invite() {
        return withBody(String.join("\r\n",
                "INVITE sip:service@127.0.0.1:5070 SIP/2.0",
                "Via: SIP/2.0/UDP 127.0.0.1:5080;branch=z9hG4bK-4242-1-0",
                "From: sipp <sip:sipp@127.0.0.1:5080>;tag=4242SIPpTag001",
                "To: service <sip:service@127.0.0.1:5070>",
                "Call-ID: 1-4242@127.0.0.1",
                "CSeq: 1 INVITE",
                "Contact: sip:sipp@127.0.0.1:5080",
                "Max-Forwards: 70",
                "Subject: Performance Test",
                "Content-Type: application/sdp",
                "Content-Length: %d",
                "",
                ""), SDP);
    }

    /** SIPp uas's 200 OK to that INVITE, after a proxy added its Via and Record-Route. */
    static String ok() {
        return withBody(String.join("\r\n",
                "SIP/2.0 200 OK",
                "Via: SIP/2.0/UDP 127.0.0.1:5060;branch=z9hG4bKrelay1;received=127.0.0.1;rport=5060",
                "Via: SIP/2.0/UDP 127.0.0.1:5080;branch=z9hG4bK-4242-1-0",
                "Record-Route: <sip:127.0.0.1:5060;lr>",
                "From: sipp <sip:sipp@127.0.0.1:5080>;tag=4242SIPpTag001",
                "To: service <sip:service@127.0.0.1:5070>;tag=4243SIPpTag011",
                "Call-ID: 1-4242@127.0.0.1",
                "CSeq: 1 INVITE",
                "Contact: <sip:127.0.0.1:5070;transport=UDP>",
                "Content-Type: application/sdp",
                "Content-Length: %d",
                "",
                ""), SDP.replace("6000", "6002"));
    }

    /** A phone's REGISTER with compact headers and rport. */
    static String register() {
        return String.join("\r\n",
                "REGISTER sip:example.com SIP/2.0",
                "v: SIP/2.0/UDP 192.0.2.10:5060;rport;branch=z9hG4bKreg1",
                "Max-Forwards: 70",
                "f: <sip:alice@example.com>;tag=a73kszlfl",
                "t: <sip:alice@example.com>",
                "i: 1j9FpLxk3uxtm8tn@192.0.2.10",
                "CSeq: 1 REGISTER",
                "m: <sip:alice@192.0.2.10:5060;ob>;reg-id=1;+sip.instance=\"<urn:uuid:00000000-0000-1000-8000-AABBCCDDEEFF>\"",
                "Expires: 3600",
                "l: 0",
                "",
                "");
    }

    static String withBody(String headTemplate, String body) {
        return String.format(headTemplate, body.getBytes(StandardCharsets.UTF_8).length) + body;
    }

    /** A pooled direct buffer, as a channel reads: tracked by the leak detector, read through its NIO view. */
    static ByteBuf buf(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        return PooledByteBufAllocator.DEFAULT.directBuffer(Math.max(1, bytes.length)).writeBytes(bytes);
    }

    static String text(ByteBuf b) {
        return b.toString(StandardCharsets.UTF_8);
    }
}

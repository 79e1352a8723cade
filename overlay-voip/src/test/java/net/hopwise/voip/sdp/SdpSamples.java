package net.hopwise.voip.sdp;

import java.nio.charset.StandardCharsets;

/**
 * Descriptions in the shapes real peers send (anchor note section 3): SIPp's uac and uas put one
 * session-level c= and a single PCMU/PCMA stream; baresip adds a tool attribute, telephone-events,
 * ptime and, with medianat=ice, its ufrag, password and candidates plus an RFC 3605 a=rtcp. The
 * values are illustrative; the line shapes are the point.
 */
final class SdpSamples {
    private SdpSamples() {}

    static final String SIPP_UAC = String.join("\r\n",
            "v=0",
            "o=user1 53655765 2353687637 IN IP4 127.0.0.1",
            "s=-",
            "c=IN IP4 127.0.0.1",
            "t=0 0",
            "m=audio 6000 RTP/AVP 0",
            "a=rtpmap:0 PCMU/8000",
            "");

    static final String BARESIP_ICE = String.join("\r\n",
            "v=0",
            "o=- 1405938587 3118924451 IN IP4 192.168.1.20",
            "s=-",
            "c=IN IP4 192.168.1.20",
            "t=0 0",
            "a=tool:baresip 1.0.0",
            "a=ice-options:trickle",
            "m=audio 44000 RTP/AVP 8 101",
            "b=AS:80",
            "c=IN IP4 192.168.1.20",
            "a=rtpmap:8 PCMA/8000",
            "a=rtpmap:101 telephone-event/8000",
            "a=fmtp:101 0-15",
            "a=rtcp:44001 IN IP4 192.168.1.20",
            "a=sendrecv",
            "a=label:1",
            "a=ice-ufrag:Jt3V",
            "a=ice-pwd:2kAsTfu0XyVzLu1GnEO1Ec",
            "a=candidate:1 1 UDP 2113932031 192.168.1.20 44000 typ host",
            "a=candidate:1 2 UDP 2113932030 192.168.1.20 44001 typ host",
            "a=candidate:2 1 UDP 1677724415 198.51.100.4 61000 typ srflx raddr 192.168.1.20 rport 44000",
            "a=end-of-candidates",
            "a=ptime:20",
            "");

    static final String IPV6_VIDEO = String.join("\n",
            "v=0",
            "o=bob 2808844564 2808844564 IN IP6 2001:db8::b",
            "s=call",
            "c=IN IP6 2001:db8::b",
            "t=0 0",
            "m=audio 49170 RTP/AVP 0 8",
            "a=rtpmap:0 PCMU/8000",
            "a=x-unknown-vendor-thing: keep me exactly",
            "m=video 0 RTP/AVP 31",
            "m=video 51372/2 RTP/AVP 99",
            "a=rtpmap:99 h263-1998/90000",
            "k=prompt");

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static SessionDescription parse(String s) {
        SdpParseResult r = SessionDescription.parse(bytes(s));
        if (!r.isOk()) {
            throw new AssertionError("sample does not parse: " + r.error() + " at line " + r.errorLine());
        }
        return r.description();
    }
}

package net.hopwise.voip.sdp;

import static net.hopwise.voip.sdp.SdpSamples.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SdpRewriterTest {
    private static String rewrite(String sdp, SdpRewrite rewrite) {
        return new String(SdpRewriter.rewrite(parse(sdp), rewrite), StandardCharsets.UTF_8);
    }

    @Test
    void sippOfferPointsAtTheRelay() {
        String out = rewrite(SdpSamples.SIPP_UAC, new SdpRewrite()
                .connection(Connection.ip4("203.0.113.7")).mediaPort(0, 30000).originVersion(2353687638L));
        assertThat(out).isEqualTo(SdpSamples.SIPP_UAC
                .replace("c=IN IP4 127.0.0.1", "c=IN IP4 203.0.113.7")
                .replace("m=audio 6000", "m=audio 30000")
                .replace("2353687637", "2353687638"));
    }

    @Test
    void baresipWithIceLosesItsCandidatesAndKeepsEverythingElse() {
        String out = rewrite(SdpSamples.BARESIP_ICE, new SdpRewrite()
                .connection(Connection.ip4("203.0.113.7")).mediaPort(0, 30002).rtcpPort(0, 30003)
                .originAddress(Connection.ip4("203.0.113.7")).stripIce(true));
        assertThat(out).isEqualTo(String.join("\r\n",
                "v=0",
                "o=- 1405938587 3118924451 IN IP4 203.0.113.7",
                "s=-",
                "c=IN IP4 203.0.113.7",
                "t=0 0",
                "a=tool:baresip 1.0.0",
                "m=audio 30002 RTP/AVP 8 101",
                "b=AS:80",
                "c=IN IP4 203.0.113.7",
                "a=rtpmap:8 PCMA/8000",
                "a=rtpmap:101 telephone-event/8000",
                "a=fmtp:101 0-15",
                "a=rtcp:30003 IN IP4 203.0.113.7",
                "a=sendrecv",
                "a=label:1",
                "a=ptime:20",
                ""));
        assertThat(parse(out).hasIce()).isFalse();
        assertThat(parse(SdpSamples.BARESIP_ICE).hasIce()).isTrue();
    }

    @Test
    void ipv6BecomesIpv4WithLineEndsUnknownLinesAndRejectedStreamsKept() {
        String out = rewrite(SdpSamples.IPV6_VIDEO, new SdpRewrite()
                .connection(Connection.ip4("203.0.113.7")).mediaPort(0, 30004).mediaPort(1, 30006).mediaPort(2, 30008));
        assertThat(out).isEqualTo(SdpSamples.IPV6_VIDEO
                .replace("c=IN IP6 2001:db8::b", "c=IN IP4 203.0.113.7")
                .replace("m=audio 49170", "m=audio 30004")
                .replace("m=video 51372/2", "m=video 30008/2"));
        SessionDescription sdp = parse(out);
        assertThat(sdp.media()).extracting(MediaDescription::port).containsExactly(30004, 0, 30008);
        assertThat(sdp.connection(0)).isEqualTo(Connection.ip4("203.0.113.7"));
    }

    @Test
    void ipv4BecomesIpv6() {
        String out = rewrite(SdpSamples.SIPP_UAC, new SdpRewrite().connection(Connection.ip6("2001:db8::7")).mediaPort(0, 30010));
        assertThat(parse(out).connection()).isEqualTo(Connection.ip6("2001:db8::7"));
        assertThat(out).contains("c=IN IP6 2001:db8::7\r\n");
    }

    @Test
    void mediaLevelAddressOverridesTheSessionOne() {
        String out = rewrite(SdpSamples.BARESIP_ICE, new SdpRewrite()
                .connection(Connection.ip4("203.0.113.7")).mediaConnection(0, Connection.ip4("203.0.113.8")));
        SessionDescription sdp = parse(out);
        assertThat(sdp.connection()).isEqualTo(Connection.ip4("203.0.113.7"));
        assertThat(sdp.connection(0)).isEqualTo(Connection.ip4("203.0.113.8"));
        assertThat(sdp.media().get(0).rtcpAddress()).isEqualTo(Connection.ip4("203.0.113.8"));
        assertThat(sdp.media().get(0).rtcpPort()).isEqualTo(44001);
    }

    @Test
    void anRfc2543HoldAddressPassesUnlessAskedOtherwise() {
        String held = SdpSamples.SIPP_UAC.replace("c=IN IP4 127.0.0.1", "c=IN IP4 0.0.0.0");
        SdpRewrite rewrite = new SdpRewrite().connection(Connection.ip4("203.0.113.7")).mediaPort(0, 30000);
        String kept = rewrite(held, rewrite);
        assertThat(kept).contains("c=IN IP4 0.0.0.0\r\n").contains("m=audio 30000 ");
        assertThat(parse(kept).onHold()).isTrue();
        assertThat(rewrite(held, rewrite.replaceUnspecified(true))).contains("c=IN IP4 203.0.113.7\r\n");
    }

    @Test
    void anEmptyRewriteChangesNothing() {
        for (String sample : new String[] {SdpSamples.SIPP_UAC, SdpSamples.BARESIP_ICE, SdpSamples.IPV6_VIDEO}) {
            assertThat(rewrite(sample, new SdpRewrite())).isEqualTo(sample);
        }
    }
}

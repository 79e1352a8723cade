package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The phones' RTCP reports read at the relay (RFC 3550 section 6.4) into the call's quality. */
class RtcpReportTest {
    /** A receiver report with one block: fraction lost (of 256), cumulative lost, jitter in RTP units. */
    static ByteBuf receiverReport(int fraction, int cumulative, long jitter) {
        ByteBuf b = RelayPair.ALLOC.buffer();
        b.writeByte(0x81).writeByte(201).writeShort(7).writeInt(0x1111);
        b.writeInt(0x2222).writeByte(fraction).writeMedium(cumulative).writeInt(70_000).writeInt((int) jitter)
                .writeInt(0).writeInt(0);
        return b;
    }

    /** A call answered and acknowledged through the pair, as MediaRelayTest sets one up. */
    private static void confirmedCall(RelayPair pair, String callId) {
        pair.fromPhoneA(SipText.invite(callId, "z9hG4bK-" + callId, SipText.SDP_A));
        pair.atA();
        String invite = pair.atB();
        pair.fromPhoneB(SipText.response(invite, 200, "tagB", SipText.SDP_B));
        pair.atA();
        pair.fromPhoneA(SipText.request("ACK", "sip:bob@127.0.0.1:5070", "z9hG4bK-ack" + callId, "tagA", "tagB",
                callId, 1, "", null));
        pair.atB();
    }

    @Test
    void aReceiverReportFromThePhoneBecomesTheStreamsPhoneReportAndIsForwardedUnchanged() {
        RelayPair pair = new RelayPair();
        confirmedCall(pair, "r1");
        ByteBuf rr = receiverReport(64, 10, 80);
        byte[] sent = new byte[rr.readableBytes()];
        rr.getBytes(rr.readerIndex(), sent);
        try {
            pair.a.onPhoneMedia(30000, true, rr, new InetSocketAddress("127.0.0.1", 41001), pair.now);
        } finally {
            rr.release();
        }
        StreamStatistics s = pair.a.calls(pair.now).get(0).streams().get(0);
        assertThat(s.phoneReport()).isEqualTo(new RtcpReport(1, 25.0, 10, 10.0));
        // 25% loss on the phone's side is far worse than anything the relay saw: the phone's MOS says so.
        assertThat(s.phoneMos(20)).isLessThan(3.0).isLessThan(s.mos(20));
        assertThat(pair.mediaB.toPhone).singleElement().satisfies(out -> assertThat((byte[]) out[3]).isEqualTo(sent));
    }

    @Test
    void aSenderReportsBlockFollowsItsSenderInfoAndANegativeCumulativeLossIsRead() {
        ByteBuf sr = RelayPair.ALLOC.buffer();
        sr.writeByte(0x81).writeByte(200).writeShort(12).writeInt(0x1111);
        sr.writeLong(0x0102030405060708L).writeInt(160).writeInt(50).writeInt(8000);
        sr.writeInt(0x2222).writeByte(0).writeMedium(0xFFFFFE).writeInt(1).writeInt(16).writeInt(0).writeInt(0);
        // A compound packet: the SR, then an SDES the reader skips.
        sr.writeByte(0x81).writeByte(202).writeShort(1).writeInt(0x1111);
        try {
            RtcpReport before = new RtcpReport(3, 1, 1, 1);
            assertThat(RtcpReport.read(sr, before, 8000)).isEqualTo(new RtcpReport(4, 0, -2, 2.0));
            assertThat(sr.readerIndex()).isZero();
        } finally {
            sr.release();
        }
    }

    @Test
    void reportsWithoutABlockOrWithALengthPastTheDatagramLeaveThePreviousReport() {
        RtcpReport before = new RtcpReport(2, 1.5, 4, 3.0);
        ByteBuf empty = Unpooled.wrappedBuffer(new byte[] {(byte) 0x80, (byte) 201, 0, 1, 0, 0, 0, 1});
        ByteBuf longer = Unpooled.wrappedBuffer(new byte[] {(byte) 0x81, (byte) 201, 0, 40, 0, 0, 0, 1});
        ByteBuf rtp = Unpooled.wrappedBuffer(new byte[] {(byte) 0x80, 8, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1});
        assertThat(RtcpReport.read(empty, before, 8000)).isSameAs(before);
        assertThat(RtcpReport.read(longer, before, 8000)).isSameAs(before);
        assertThat(RtcpReport.read(rtp, null, 8000)).isNull();
    }

    @Property(tries = 2000)
    void anyBytesGiveAReportOrThePreviousOneAndNeverMoveTheReader(@ForAll @Size(max = 120) byte[] bytes) {
        ByteBuf b = Unpooled.wrappedBuffer(bytes);
        RtcpReport r = RtcpReport.read(b, null, 8000);
        assertThat(b.readerIndex()).isZero();
        if (r != null) {
            assertThat(r.fractionLostPercent()).isBetween(0.0, 100.0);
            assertThat(r.jitterMs()).isNotNegative();
        }
    }
}

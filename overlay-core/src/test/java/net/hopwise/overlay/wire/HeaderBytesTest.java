package net.hopwise.overlay.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class HeaderBytesTest {
    @Test
    void writesInNetworkOrderAndCopiesWithoutMovingIndices() {
        HeaderBytes h = new HeaderBytes(64);
        WireHeader.write(h, PacketType.RELIABLE_DATA, 0x0102, 0, 7L, 9L, 0x1_0000_0005L);
        h.putByte(0xAB);
        h.putBytes(new byte[] {1, 2, 3});
        h.setShort(WireHeader.OFFSET_BODY_LENGTH, 4);
        assertThat(h.length()).isEqualTo(WireHeader.LENGTH + 4);

        ByteBuf out = Unpooled.buffer(64);
        out.setIndex(10, 40);
        h.copyTo(out, 10);
        assertThat(out.readerIndex()).isEqualTo(10);
        assertThat(out.writerIndex()).isEqualTo(40);
        ByteBuf datagram = out.slice(10, h.length());
        assertThat(WireHeader.check(datagram)).isNull();
        assertThat(WireHeader.type(datagram)).isEqualTo(PacketType.RELIABLE_DATA);
        assertThat(WireHeader.flags(datagram)).isEqualTo(0x0102);
        assertThat(WireHeader.bodyLength(datagram)).isEqualTo(4);
        assertThat(WireHeader.sender(datagram)).isEqualTo(7L);
        assertThat(WireHeader.receiver(datagram)).isEqualTo(9L);
        // The header's link sequence is 32 bits on the wire.
        assertThat(WireHeader.linkSequence(datagram)).isEqualTo(5L);
        assertThat((int) datagram.getUnsignedByte(WireHeader.LENGTH)).isEqualTo(0xAB);
        assertThat(datagram.getByte(WireHeader.LENGTH + 3)).isEqualTo((byte) 3);

        ByteBuf appended = Unpooled.buffer();
        h.appendTo(appended);
        assertThat(appended.readableBytes()).isEqualTo(h.length());
        assertThat(ByteBufUtil.equals(appended, datagram)).isTrue();
        assertThat(h.clear().length()).isZero();
    }

    @Test
    void patchesOnlyWhatWasWritten() {
        HeaderBytes h = new HeaderBytes(16);
        h.putInt(1);
        assertThatThrownBy(() -> h.setShort(3, 0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> h.setShort(-1, 0)).isInstanceOf(IndexOutOfBoundsException.class);
        h.setShort(2, 0x0203);
        ByteBuf out = Unpooled.buffer();
        h.appendTo(out);
        assertThat(out.getInt(0)).isEqualTo(0x0203);
    }
}

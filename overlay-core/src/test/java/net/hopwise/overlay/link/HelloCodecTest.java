package net.hopwise.overlay.link;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The hello body's byte layout and the decoder's refusals. */
class HelloCodecTest {
    private static final HelloPacket SAMPLE = new HelloPacket(
            0xFFFF_FFFEL, -2, 0x8000_0001L, Long.MIN_VALUE, 1_500_000, 12_345, "node-7", 0x0102_0304_0506_0708L);

    private static byte[] encode(HelloPacket h) {
        ByteBuf buf = Unpooled.buffer();
        try {
            HelloCodec.encode(h, buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    private static HelloPacket decode(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            return HelloCodec.decode(buf);
        } finally {
            buf.release();
        }
    }

    @Test
    void layoutIsFixedFieldsInNetworkOrderThenTheName() {
        byte[] bytes = encode(SAMPLE);
        assertThat(bytes).hasSize(HelloCodec.FIXED_LENGTH + 6).hasSize(HelloCodec.encodedLength(SAMPLE));
        assertThat(ByteBufUtil.hexDump(bytes)).isEqualTo(
                "fffffffe" + "fffffffffffffffe" + "80000001" + "8000000000000000" + "000000000016e360"
                + "00003039" + "0102030405060708" + "06"
                + ByteBufUtil.hexDump("node-7".getBytes(StandardCharsets.UTF_8)));
        assertThat(decode(bytes)).isEqualTo(SAMPLE);
    }

    @Test
    void decodeReadsInPlaceWithoutMovingIndicesOrReferenceCounts() {
        ByteBuf buf = Unpooled.buffer();
        try {
            buf.writeBytes(new byte[] {9, 9, 9});
            buf.readerIndex(3);
            HelloCodec.encode(SAMPLE, buf);
            int reader = buf.readerIndex();
            int writer = buf.writerIndex();
            assertThat(HelloCodec.decode(buf)).isEqualTo(SAMPLE);
            assertThat(buf.readerIndex()).isEqualTo(reader);
            assertThat(buf.writerIndex()).isEqualTo(writer);
            assertThat(buf.refCnt()).isEqualTo(1);
        } finally {
            buf.release();
        }
    }

    @Test
    void bytesBeyondTheWriterIndexAreNeverRead() {
        byte[] full = encode(SAMPLE);
        ByteBuf buf = Unpooled.wrappedBuffer(full);
        try {
            // The last name byte is still in memory, but not readable.
            buf.writerIndex(full.length - 1);
            assertThat(HelloCodec.decode(buf)).isNull();
        } finally {
            buf.release();
        }
    }

    @Test
    void trailingBytesAreLeftForLaterVersions() {
        byte[] body = encode(SAMPLE);
        byte[] longer = new byte[body.length + 5];
        System.arraycopy(body, 0, longer, 0, body.length);
        assertThat(decode(longer)).isEqualTo(SAMPLE);
    }

    @Test
    void malformedBodiesDecodeToNull() {
        byte[] good = encode(SAMPLE);
        assertThat(decode(new byte[0])).isNull();
        assertThat(decode(java.util.Arrays.copyOf(good, HelloCodec.FIXED_LENGTH - 1))).isNull();
        assertThat(decode(with(good, 0, 0, 0, 0, 0))).as("seq 0").isNull();
        assertThat(decode(with(good, 32, 0, 0x0F, 0x42, 0x41))).as("lossPpm 1,000,001").isNull();
        assertThat(decode(with(good, 44, 0))).as("empty name").isNull();
        assertThat(decode(with(good, 44, 65))).as("name too long").isNull();
        assertThat(decode(with(good, 44, 7))).as("name runs past the end").isNull();
        assertThat(decode(with(good, 45, ' '))).as("not a node name").isNull();
        assertThat(decode(with(good, 45, 0xC3))).as("broken UTF-8").isNull();
    }

    @Test
    void theLargestLossAndLongestNameAreAccepted() {
        HelloPacket h = new HelloPacket(1, 0, 0, 0, 0, HelloPacket.PPM, "n".repeat(64));
        assertThat(HelloCodec.encodedLength(h)).isEqualTo(HelloCodec.MAX_LENGTH);
        assertThat(decode(encode(h))).isEqualTo(h);
    }

    private static byte[] with(byte[] bytes, int at, int... values) {
        byte[] copy = bytes.clone();
        for (int i = 0; i < values.length; i++) {
            copy[at + i] = (byte) values[i];
        }
        return copy;
    }
}

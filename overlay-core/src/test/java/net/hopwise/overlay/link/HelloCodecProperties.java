package net.hopwise.overlay.link;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The decoder is total, and encoding then decoding gives the packet back. */
class HelloCodecProperties {

    @Property(tries = 2000)
    void decodeIsTotalOnArbitraryBytes(@ForAll @Size(max = 150) byte[] bytes,
            @ForAll @IntRange(max = 8) int offset) {
        // A slice: any read outside the readable bytes would throw instead of passing silently.
        ByteBuf backing = Unpooled.buffer(offset + bytes.length);
        try {
            backing.writeZero(offset).writeBytes(bytes);
            ByteBuf body = backing.slice(offset, bytes.length);
            HelloPacket h = HelloCodec.decode(body);
            assertThat(body.readerIndex()).isZero();
            assertThat(backing.refCnt()).isEqualTo(1);
            if (h != null) {
                assertThat(HelloCodec.encodedLength(h)).isLessThanOrEqualTo(bytes.length);
            }
        } finally {
            backing.release();
        }
    }

    @Property(tries = 1000)
    void decodeIsTotalOnDamagedEncodings(@ForAll("hellos") HelloPacket h, @ForAll @IntRange(max = 200) int at,
            @ForAll byte value, @ForAll @IntRange(max = 120) int cut) {
        ByteBuf buf = Unpooled.buffer();
        try {
            HelloCodec.encode(h, buf);
            if (at < buf.writerIndex()) {
                buf.setByte(at, value);
            }
            buf.writerIndex(Math.min(buf.writerIndex(), cut));
            HelloPacket decoded = HelloCodec.decode(buf.slice());
            if (decoded != null) {
                assertThat(HelloCodec.encodedLength(decoded)).isLessThanOrEqualTo(buf.readableBytes());
            }
        } finally {
            buf.release();
        }
    }

    @Property(tries = 1000)
    void validPacketsRoundTrip(@ForAll("hellos") HelloPacket h) {
        ByteBuf buf = Unpooled.buffer();
        try {
            HelloCodec.encode(h, buf);
            assertThat(buf.readableBytes()).isEqualTo(HelloCodec.encodedLength(h))
                    .isLessThanOrEqualTo(HelloCodec.MAX_LENGTH);
            assertThat(HelloCodec.decode(buf)).isEqualTo(h);
        } finally {
            buf.release();
        }
    }

    @Provide
    Arbitrary<HelloPacket> hellos() {
        Arbitrary<Long> seq = Arbitraries.longs().between(1, HelloPacket.MAX_SEQ);
        Arbitrary<Long> echoSeq = Arbitraries.longs().between(0, HelloPacket.MAX_SEQ);
        Arbitrary<Long> time = Arbitraries.longs();
        Arbitrary<Integer> ppm = Arbitraries.integers().between(0, HelloPacket.PPM);
        Arbitrary<String> name = Combinators.combine(
                        Arbitraries.chars().alpha().numeric(),
                        Arbitraries.strings().alpha().numeric().withChars("._-").ofMaxLength(63))
                .as((first, rest) -> first + rest);
        return Combinators.combine(seq, time, echoSeq, time, time, ppm, name, time)
                .as(HelloPacket::new);
    }
}

package net.hopwise.voip.sip;

import static net.hopwise.voip.sip.SipSamples.buf;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SipFramerTest {
    private final Recorder sink = new Recorder();
    private final SipFramer framer = new SipFramer(new SipParser(), PooledByteBufAllocator.DEFAULT);

    @AfterEach
    void closeFramer() {
        framer.close();
    }

    @Test
    void messagesSplitAtEveryByteAndJoinedInOneReadComeOutWhole() {
        String stream = SipSamples.invite() + SipSamples.ok() + SipSamples.register();
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= bytes.length; cut += 7) {
            Recorder r = new Recorder();
            SipFramer f = new SipFramer(new SipParser(), PooledByteBufAllocator.DEFAULT);
            f.read(copy(bytes, 0, cut), r);
            f.read(copy(bytes, cut, bytes.length), r);
            assertThat(r.texts).as("cut at %d", cut).containsExactly(SipSamples.invite(), SipSamples.ok(), SipSamples.register());
            assertThat(f.buffered()).isZero();
            f.close();
        }
    }

    @Test
    void aMessageTrickledByteByByteIsFramedOnce() {
        byte[] bytes = SipSamples.invite().getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            framer.read(copy(bytes, i, i + 1), sink);
        }
        assertThat(sink.texts).containsExactly(SipSamples.invite());
    }

    @Test
    void keepAlivePingsAreReportedAndPongsSkipped() {
        framer.read(buf("\r\n\r\n" + SipSamples.register() + "\r\n"), sink);
        framer.read(buf("\r\n"), sink);
        framer.read(buf("\r\n" + SipSamples.register()), sink);
        assertThat(sink.pings).isEqualTo(2);
        assertThat(sink.texts).containsExactly(SipSamples.register(), SipSamples.register());
    }

    @Test
    void anInvalidMessageWithAGoodLengthIsSkippedAndTheStreamGoesOn() {
        String bad = SipSamples.invite().replace("CSeq: 1 INVITE", "CSeq: 1 BYE");
        framer.read(buf(bad + SipSamples.register()), sink);
        assertThat(sink.errors).containsExactly(SipParseError.CSEQ_METHOD_MISMATCH);
        assertThat(sink.fatal).isFalse();
        assertThat(sink.partials).isEqualTo(1);
        assertThat(sink.texts).containsExactly(SipSamples.register());
    }

    @Test
    void aMissingContentLengthLosesTheBoundaryAndEndsTheStream() {
        framer.read(buf(SipSamples.register().replace("l: 0\r\n", "")), sink);
        assertThat(sink.errors).containsExactly(SipParseError.CONTENT_LENGTH_MISMATCH);
        assertThat(sink.fatal).isTrue();
        assertThat(framer.failed()).isTrue();
        ByteBuf later = buf(SipSamples.register());
        framer.read(later, sink);
        assertThat(later.refCnt()).isZero();
        assertThat(sink.texts).isEmpty();
    }

    @Test
    void oversizedHeadersAndBodiesAreFatal() {
        SipFramer small = new SipFramer(new SipParser(new SipLimits(512, 16, 100)), PooledByteBufAllocator.DEFAULT);
        small.read(buf("OPTIONS sip:a@b SIP/2.0\r\nX: " + "y".repeat(600)), sink);
        assertThat(sink.errors).containsExactly(SipParseError.TOO_LARGE);
        assertThat(sink.fatal).isTrue();
        small.close();

        Recorder second = new Recorder();
        SipFramer body = new SipFramer(new SipParser(new SipLimits(1024, 16, 100)), PooledByteBufAllocator.DEFAULT);
        body.read(buf(SipSamples.invite().substring(0, 200)), second);
        body.read(buf(SipSamples.invite().substring(200)), second);
        assertThat(second.errors).containsExactly(SipParseError.TOO_LARGE);
        body.close();
    }

    @Test
    void torturMessagesWithAContentLengthFrameOverAStream() {
        for (String name : List.of("wsinv", "intmeth", "esc01", "longreq", "mpart01", "unreason", "noreason", "bcast")) {
            Recorder r = new Recorder();
            SipFramer f = new SipFramer(new SipParser(), PooledByteBufAllocator.DEFAULT);
            ByteBuf in = TortureMessagesTest.load(name);
            int length = in.readableBytes();
            f.read(in, r);
            assertThat(r.texts).as(name).hasSize(1);
            assertThat(r.lengths.get(0) + f.buffered()).as(name).isEqualTo(length);
            f.close();
        }
    }

    private static ByteBuf copy(byte[] bytes, int from, int to) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.heapBuffer(Math.max(1, to - from));
        b.writeBytes(bytes, from, to - from);
        return b;
    }

    static final class Recorder implements SipFramer.Sink {
        final List<String> texts = new ArrayList<>();
        final List<Integer> lengths = new ArrayList<>();
        final List<SipParseError> errors = new ArrayList<>();
        int pings;
        int partials;
        boolean fatal;

        @Override
        public void message(SipMessage message) {
            texts.add(message.content().toString(StandardCharsets.UTF_8));
            lengths.add(message.length());
            message.release();
        }

        @Override
        public void error(SipParseError error, SipMessage partial, boolean isRequest, boolean fatal) {
            errors.add(error);
            this.fatal |= fatal;
            if (partial != null) {
                partials++;
                partial.release();
            }
        }

        @Override
        public void ping() {
            pings++;
        }
    }
}

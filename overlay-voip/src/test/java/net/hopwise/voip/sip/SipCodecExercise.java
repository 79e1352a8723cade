package net.hopwise.voip.sip;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;

/**
 * Runs one input through everything a relay does with bytes it did not choose: the datagram parser,
 * every accessor of what came out (full or partial message), the editor and a reparse of its output,
 * and the stream framer with the input cut in two. Any exception fails the caller; every buffer's
 * reference count is checked exactly, which catches a missed release deterministically where the
 * sampling leak detector would need luck.
 */
final class SipCodecExercise {
    private static final byte[] SDP = "v=0\r\no=- 1 1 IN IP4 192.0.2.1\r\ns=-\r\nc=IN IP4 192.0.2.1\r\nt=0 0\r\nm=audio 4000 RTP/AVP 0\r\n"
            .getBytes(StandardCharsets.US_ASCII);

    /** For the long runs: Netty's allocator without leak tracking, whose stack traces would dominate. */
    private static final UnpooledByteBufAllocator UNTRACKED = new UnpooledByteBufAllocator(false, true);

    private static final SipHeaderName[] LISTS = {
        SipHeaderName.SUPPORTED, SipHeaderName.PROXY_REQUIRE, SipHeaderName.SUBJECT, SipHeaderName.CONTENT_ENCODING
    };

    private final SipParser parser = new SipParser();
    private final boolean tracked;
    private final ByteBufAllocator alloc;
    final Map<SipParseError, Integer> errors = new EnumMap<>(SipParseError.class);
    int messages;
    int keepAlives;
    int reparsed;

    /** @param tracked allocate inputs from the leak-detecting allocator (slower: each is tracked) or wrap them */
    SipCodecExercise(boolean tracked) {
        this.tracked = tracked;
        this.alloc = tracked ? PooledByteBufAllocator.DEFAULT : UNTRACKED;
    }

    long faults() {
        return parser.faults();
    }

    void run(byte[] bytes, int cut) {
        ByteBuf in = buffer(bytes, 0, bytes.length);
        SipParseResult r = parser.parseDatagram(in);
        try {
            switch (r.kind()) {
                case MESSAGE -> {
                    messages++;
                    touch(r.message());
                    edit(r.message());
                    answer(r.message());
                }
                case ERROR -> {
                    errors.merge(r.error(), 1, Integer::sum);
                    if (r.message() != null) {
                        touch(r.message());
                        answer(r.message());
                    }
                }
                case KEEPALIVE -> keepAlives++;
                case INCOMPLETE -> throw new AssertionError("a datagram is never incomplete");
            }
        } finally {
            r.release();
        }
        assertThat(in.refCnt()).as("input still referenced after the result's release").isEqualTo(1);
        in.release();
        stream(bytes, Math.min(Math.max(cut, 0), bytes.length));
    }

    private void edit(SipMessage m) {
        SipMessageEditor editor = SipMessageEditor.of(m)
                .markReceived("198.51.100.9", 40000)
                .pushVia("SIP/2.0/UDP 203.0.113.1:5060;branch=z9hG4bKfuzz")
                .popVia()
                .decrementMaxForwards()
                .addRecordRoute("<sip:203.0.113.1;lr>")
                .popRoute()
                .ensureContentLength();
        if ((m.length() & 1) == 0) {
            editor.replaceBody(SDP, "application/sdp");
        }
        ByteBuf out = editor.encode(alloc);
        try {
            assertThat(out.readableBytes()).isEqualTo(editor.encodedLength());
            SipParseResult again = parser.parseDatagram(out);
            if (again.isMessage()) {
                reparsed++;
                touch(again.message());
            }
            again.release();
        } finally {
            out.release();
        }
    }

    /** A request, even a broken one, gets a response that parses, or none when it lacks what to copy. */
    private void answer(SipMessage m) {
        if (!m.isRequest()) {
            return;
        }
        reparse(SipResponses.response(m, 400, "fuzz", alloc));
        if ("INVITE".equals(m.method())) {
            reparse(SipRequests.cancel(m, alloc));
        }
    }

    private void reparse(ByteBuf built) {
        if (built == null) {
            return;
        }
        try {
            parser.parseDatagram(built).release();
        } finally {
            built.release();
        }
    }

    private static void touch(SipMessage m) {
        m.method();
        m.requestUri();
        m.statusCode();
        m.reasonPhrase();
        for (int i = 0; i < m.headerCount(); i++) {
            m.headerName(i);
            m.headerValue(i);
        }
        for (SipHeaderName name : LISTS) {
            m.values(name);
        }
        m.header("X-Unknown");
        m.callId();
        m.cseq();
        m.from();
        m.to();
        m.fromTag();
        m.toTag();
        m.vias();
        m.topVia();
        m.maxForwards();
        m.contentLength();
        m.contentType();
        m.routes();
        m.recordRoutes();
        m.contacts();
        m.contactUri();
        m.body().readableBytes();
    }

    private void stream(byte[] bytes, int cut) {
        SipFramer framer = new SipFramer(parser, alloc);
        ByteBuf first = buffer(bytes, 0, cut);
        ByteBuf second = buffer(bytes, cut, bytes.length);
        SipFramer.Sink sink = new SipFramer.Sink() {
            @Override
            public void message(SipMessage message) {
                // The datagram pass above already read every accessor of these bytes.
                message.body().readableBytes();
                message.release();
            }

            @Override
            public void error(SipParseError error, SipMessage partial, boolean isRequest, boolean fatal) {
                if (partial != null) {
                    partial.callId();
                    partial.release();
                }
            }

            @Override
            public void ping() {}
        };
        framer.read(first, sink);
        framer.read(second, sink);
        framer.close();
        // Netty's shared empty buffer (what an empty wrapped array becomes) is never freed.
        assertThat(first.refCnt()).isEqualTo(!tracked && cut == 0 ? 1 : 0);
        assertThat(second.refCnt()).isEqualTo(!tracked && cut == bytes.length ? 1 : 0);
    }

    private ByteBuf buffer(byte[] bytes, int from, int to) {
        if (!tracked) {
            return Unpooled.wrappedBuffer(java.util.Arrays.copyOfRange(bytes, from, to));
        }
        ByteBuf buf = (to - from) % 2 == 0 ? alloc.directBuffer(Math.max(1, to - from)) : alloc.heapBuffer(Math.max(1, to - from));
        buf.writeBytes(bytes, from, to - from);
        return buf;
    }
}

package net.hopwise.voip.sip;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.Random;
import net.hopwise.overlay.testing.LeakDetection;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Whatever headers are removed, replaced or added, every other header line comes out as the same
 * bytes in the same order, the start line and body are untouched, and the size is what the edits
 * account for.
 */
class SipMessageEditorProperties {
    private static final SipMutator SEEDS = new SipMutator();

    @Property(tries = 1000)
    void untouchedLinesAreCopiedAsTheyWere(@ForAll long seed) {
        Random random = new Random(seed);
        byte[] bytes = SEEDS.seed(random.nextInt(SEEDS.seedCount()));
        ByteBuf in = PooledByteBufAllocator.DEFAULT.heapBuffer(bytes.length).writeBytes(bytes);
        SipParseResult r = new SipParser().parseDatagram(in);
        ByteBuf out = null;
        try {
            SipMessage m = r.message();
            if (m == null) {
                return;
            }
            SipMessageEditor editor = SipMessageEditor.of(m);
            boolean[] touched = new boolean[m.headerCount()];
            long expected = m.length();
            for (int i = 0; i < m.headerCount(); i++) {
                switch (random.nextInt(6)) {
                    case 0 -> {
                        editor.removeHeader(i);
                        touched[i] = true;
                        expected -= m.lineEnd(i) - m.lineStart(i);
                    }
                    case 1 -> {
                        editor.replaceValue(i, "replaced-" + i);
                        touched[i] = true;
                        expected += ("replaced-" + i).length() - (m.valueEnd(i) - m.valueStart(i));
                    }
                    case 2 -> {
                        editor.insertBefore(i, "X-Added", "v" + i);
                        expected += ("X-Added: v" + i + "\r\n").length();
                    }
                    default -> { }
                }
            }
            out = editor.encode(PooledByteBufAllocator.DEFAULT);
            assertThat((long) out.readableBytes()).isEqualTo(expected);
            byte[] written = new byte[out.readableBytes()];
            out.getBytes(out.readerIndex(), written);
            assertThat(startsWith(written, bytes, 0, m.startLineEnd())).isTrue();
            int from = m.startLineEnd();
            for (int i = 0; i < m.headerCount(); i++) {
                if (touched[i]) {
                    continue;
                }
                int found = indexOf(written, bytes, m.lineStart(i), m.lineEnd(i), from);
                assertThat(found).as("header %d (%s) copied in order", i, m.headerName(i)).isNotNegative();
                from = found + m.lineEnd(i) - m.lineStart(i);
            }
            int bodyLength = m.length() - m.bodyIndex();
            assertThat(indexOf(written, bytes, m.bodyIndex(), m.length(), written.length - bodyLength))
                    .isEqualTo(written.length - bodyLength);
        } finally {
            r.release();
            in.release();
            if (out != null) {
                out.release();
            }
        }
    }

    private static boolean startsWith(byte[] haystack, byte[] source, int from, int to) {
        return indexOf(haystack, source, from, to, 0) == 0;
    }

    /** First index at or after {@code start} where {@code source[from, to)} occurs in {@code haystack}, or -1. */
    private static int indexOf(byte[] haystack, byte[] source, int from, int to, int start) {
        int length = to - from;
        outer:
        for (int i = start; i + length <= haystack.length; i++) {
            for (int k = 0; k < length; k++) {
                if (haystack[i + k] != source[from + k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @AfterContainer
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }
}

package net.hopwise.voip.sip;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Read-only random access to a range of a buffer without going through {@link ByteBuf#getByte}
 * for every byte: a heap buffer is read through its array and a direct one through a single NIO
 * view. Besides speed this keeps the leak detector's access records (at its paranoid level) to one per
 * parse instead of one per byte. A composite buffer of several components is the only case that
 * gets merged into one copy by Netty's {@code nioBuffer}; the framer never produces one.
 */
final class ByteView {
    private final byte[] array;
    private final int base;
    private final ByteBuffer nio;
    private final int length;

    private ByteView(byte[] array, int base, ByteBuffer nio, int length) {
        this.array = array;
        this.base = base;
        this.nio = nio;
        this.length = length;
    }

    static ByteView of(byte[] bytes) {
        return new ByteView(bytes, 0, null, bytes.length);
    }

    /** A view of {@code length} bytes of {@code buf} from absolute index {@code index}; offsets are relative to it. */
    static ByteView of(ByteBuf buf, int index, int length) {
        if (buf.hasArray()) {
            return new ByteView(buf.array(), buf.arrayOffset() + index, null, length);
        }
        ByteBuffer nio = buf.nioBuffer(index, length);
        return new ByteView(null, nio.position(), nio, length);
    }

    int length() {
        return length;
    }

    /** The unsigned byte at {@code i}. */
    int at(int i) {
        return (array != null ? array[base + i] : nio.get(base + i)) & 0xFF;
    }

    String ascii(int from, int to) {
        return string(from, to, false);
    }

    /** Text of a header value: UTF-8, with each line fold (CRLF or LF followed by blanks) read as one space. */
    String value(int from, int to) {
        return string(from, to, true);
    }

    private String string(int from, int to, boolean unfold) {
        byte[] out = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            int b = at(i);
            if (unfold && (b == '\r' || b == '\n')) {
                while (i + 1 < to && isLineBreakOrBlank(at(i + 1))) {
                    i++;
                }
                if (n > 0 && out[n - 1] != ' ') {
                    out[n++] = ' ';
                }
                continue;
            }
            out[n++] = (byte) b;
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    private static boolean isLineBreakOrBlank(int b) {
        return b == '\r' || b == '\n' || b == ' ' || b == '\t';
    }
}

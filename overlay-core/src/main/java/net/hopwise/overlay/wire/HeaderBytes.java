package net.hopwise.overlay.wire;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A scratch area in which the headers of one packet are assembled, in network byte order, before one
 * copy puts them into the packet's buffer.
 *
 * <p>Why: a reliable data packet carries five headers (link, link acknowledgement, data, session)
 * in a dozen fields, written in front of a payload that is usually a view of a pooled buffer. Each
 * write through such a view pays its own virtual calls and bounds, liveness and capacity checks; on
 * the hot path these cost as much as the rest of the link protocol. Plain array stores and one
 * {@link ByteBuf#setBytes(int, byte[], int, int)} do the same work with one of each.
 *
 * <p>Not thread-safe: each event loop (each node engine) owns one and reuses it for every packet.
 */
public final class HeaderBytes {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

    private final byte[] bytes;
    private int length;

    /** A scratch for headers of up to {@code capacity} bytes. */
    public HeaderBytes(int capacity) {
        bytes = new byte[capacity];
    }

    /** Empties the scratch for the next packet. */
    public HeaderBytes clear() {
        length = 0;
        return this;
    }

    /** Bytes written since the last {@link #clear()}. */
    public int length() {
        return length;
    }

    public void putLong(long v) {
        LONG.set(bytes, length, v);
        length += 8;
    }

    public void putInt(int v) {
        INT.set(bytes, length, v);
        length += 4;
    }

    public void putByte(int v) {
        bytes[length++] = (byte) v;
    }

    public void putBytes(byte[] src) {
        System.arraycopy(src, 0, bytes, length, src.length);
        length += src.length;
    }

    /** Overwrites the two bytes at {@code offset}, which must already have been written. */
    public void setShort(int offset, int v) {
        if (offset < 0 || offset + 2 > length) {
            throw new IndexOutOfBoundsException("offset " + offset + " of " + length + " bytes written");
        }
        SHORT.set(bytes, offset, (short) v);
    }

    /** Copies what was written to {@code out} at {@code index}, without moving its indices. */
    public void copyTo(ByteBuf out, int index) {
        out.setBytes(index, bytes, 0, length);
    }

    /** Appends what was written at {@code out}'s writer index. */
    public void appendTo(ByteBuf out) {
        out.writeBytes(bytes, 0, length);
    }
}

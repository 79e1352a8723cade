package net.hopwise.overlay.link;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import net.hopwise.overlay.NodeId;

/**
 * Binary form of a {@link HelloPacket} body (after the {@code WireHeader}), network byte order.
 *
 * <pre>
 *  0  u32 seq
 *  4  i64 sendTimeNanos
 * 12  u32 echoSeq
 * 16  i64 echoSendTimeNanos
 * 24  i64 echoHoldNanos
 * 32  u32 lossPpm (at most 1,000,000)
 * 36  i64 incarnation
 * 44  u8  senderName length n (1..64)
 * 45  n bytes senderName, UTF-8
 * </pre>
 *
 * <p>Bytes after the name are ignored, so a later version can append fields that older nodes skip.
 */
public final class HelloCodec {
    /** Bytes before the name. */
    public static final int FIXED_LENGTH = 45;

    /** Largest body this version writes. */
    public static final int MAX_LENGTH = FIXED_LENGTH + NodeId.MAX_NAME_LENGTH;

    private HelloCodec() {}

    /** Bytes {@link #encode} writes for this hello. */
    public static int encodedLength(HelloPacket h) {
        return FIXED_LENGTH + h.senderName().getBytes(StandardCharsets.UTF_8).length;
    }

    /** Writes the body at the writer index. */
    public static void encode(HelloPacket h, ByteBuf out) {
        byte[] name = h.senderName().getBytes(StandardCharsets.UTF_8);
        out.writeInt((int) h.seq());
        out.writeLong(h.sendTimeNanos());
        out.writeInt((int) h.echoSeq());
        out.writeLong(h.echoSendTimeNanos());
        out.writeLong(h.echoHoldNanos());
        out.writeInt(h.lossPpm());
        out.writeLong(h.incarnation());
        out.writeByte(name.length);
        out.writeBytes(name);
    }

    /**
     * Parses the readable bytes of {@code body}. Total: returns null for any malformed input and
     * never throws. Reads only between the reader and writer index, moves neither, and leaves the
     * reference count alone.
     */
    public static HelloPacket decode(ByteBuf body) {
        int at = body.readerIndex();
        int readable = body.readableBytes();
        if (readable < FIXED_LENGTH) {
            return null;
        }
        long seq = body.getUnsignedInt(at);
        long sendTime = body.getLong(at + 4);
        long echoSeq = body.getUnsignedInt(at + 12);
        long echoSendTime = body.getLong(at + 16);
        long echoHold = body.getLong(at + 24);
        long lossPpm = body.getUnsignedInt(at + 32);
        long incarnation = body.getLong(at + 36);
        int nameLength = body.getUnsignedByte(at + 44);
        if (seq == 0 || lossPpm > HelloPacket.PPM
                || nameLength == 0 || nameLength > NodeId.MAX_NAME_LENGTH
                || readable - FIXED_LENGTH < nameLength) {
            return null;
        }
        String name = strictUtf8(body, at + FIXED_LENGTH, nameLength);
        if (name == null) {
            return null;
        }
        try {
            return new HelloPacket(seq, sendTime, echoSeq, echoSendTime, echoHold, (int) lossPpm, name, incarnation);
        } catch (IllegalArgumentException notANodeName) {
            // The record holds the naming rule; duplicating it here would let the two drift apart.
            return null;
        }
    }

    private static String strictUtf8(ByteBuf buf, int index, int length) {
        byte[] bytes = new byte[length];
        buf.getBytes(index, bytes);
        try {
            // The default String constructor would swap bad bytes for U+FFFD and so accept them.
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
            return chars.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}

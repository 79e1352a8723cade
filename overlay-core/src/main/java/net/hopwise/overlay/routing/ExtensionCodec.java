package net.hopwise.overlay.routing;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NodeId;

/**
 * Bodies of {@code LINK_STATE_EXTENSION} and {@code LINK_STATE_EXTENSION_ACK} packets, in network byte
 * order. Extension records travel in packet types of their own, so a node of a version without
 * them drops them as an unknown type (counted) and the link-state update format is unchanged.
 *
 * <pre>
 * extension body:
 *   u16 record count
 *   per record:
 *     i64 origin   u16 kind (1..65535)   i64 sequence (0 or more)   u32 age in ms (at most 2^31 - 1)
 *     u16 length: 0..65534 bytes of record follow; 0xFFFF: a withdrawal, no bytes follow
 *     where the age's top bit is set (the age itself is the low 31 bits): u8 n (1..255), n bytes of
 *       the origin's signature (see {@link net.hopwise.overlay.spi.LinkStateSigner}); a node of a
 *       version without signatures reads such an age as out of range and drops the update as malformed
 *
 * extension ack body:
 *   u16 entry count
 *   per entry (18 bytes): i64 origin   u16 kind   i64 sequence
 * </pre>
 *
 * <p>Decoding is total: any bytes give either a value or null, never an exception. The format is
 * canonical (no padding, no trailing bytes, every field checked), so a decoded value re-encodes to
 * exactly the bytes it came from. Decoders read with absolute indices between the reader and writer
 * index, leave both indices as they were, and neither retain nor release the buffer; decoded records
 * own copies of their bytes. How large a record a router accepts is its configuration's business
 * ({@link RoutingConfig#maxExtensionBytes}), not the format's.
 */
public final class ExtensionCodec {
    /** The record count before the records. */
    public static final int UPDATE_HEADER_BYTES = 2;
    /** Origin, kind, sequence, age and length; the bytes follow. */
    public static final int RECORD_HEADER_BYTES = 8 + 2 + 8 + 4 + 2;
    /** The entry count before the entries. */
    public static final int ACK_HEADER_BYTES = 2;
    /** One ack entry. */
    public static final int ACK_ENTRY_BYTES = 8 + 2 + 8;
    /** The count fields are 16 bits. */
    public static final int MAX_COUNT = 0xFFFF;

    private static final int WITHDRAWN = 0xFFFF;
    /** Keeps a record's signature from ever standing for an advertisement, or for anything else signed with the key. */
    private static final byte[] SIGNED_TAG = "hopwise link-state extension record v1\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private ExtensionCodec() {}

    /** Bytes {@code r} takes in an extension body. */
    public static int encodedSize(ExtensionRecord r) {
        return RECORD_HEADER_BYTES + (r.data() == null ? 0 : r.data().length)
                + SignatureField.size(r.signature());
    }

    /** Bytes the body of {@code u} takes. */
    public static int encodedSize(ExtensionUpdate u) {
        int size = UPDATE_HEADER_BYTES;
        for (ExtensionRecord r : u.records()) {
            size += encodedSize(r);
        }
        return size;
    }

    /** Bytes the body of {@code a} takes. */
    public static int encodedSize(ExtensionAck a) {
        return ACK_HEADER_BYTES + ACK_ENTRY_BYTES * a.entries().size();
    }

    /** Writes the body of {@code u} at the writer index. */
    public static void encodeUpdate(ExtensionUpdate u, ByteBuf out) {
        List<ExtensionRecord> records = u.records();
        if (records.size() > MAX_COUNT) {
            throw new IllegalArgumentException("an extension update holds at most " + MAX_COUNT + " records");
        }
        out.writeShort(records.size());
        for (ExtensionRecord r : records) {
            out.writeLong(r.origin().value());
            out.writeShort(r.kind());
            out.writeLong(r.sequence());
            out.writeInt(SignatureField.age(r.ageMillis(), r.signature()));
            if (r.data() == null) {
                out.writeShort(WITHDRAWN);
            } else {
                out.writeShort(r.data().length);
                out.writeBytes(r.data());
            }
            SignatureField.write(r.signature(), out);
        }
    }

    /**
     * What the origin signs for {@code r}: a domain tag, then origin, kind, sequence, length (or the
     * withdrawal mark) and bytes as the wire has them; not the age, which grows on the way.
     */
    public static byte[] signedContent(ExtensionRecord r) {
        int length = r.data() == null ? 0 : r.data().length;
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(SIGNED_TAG.length + 8 + 2 + 8 + 2 + length);
        b.put(SIGNED_TAG).putLong(r.origin().value()).putShort((short) r.kind()).putLong(r.sequence());
        if (r.data() == null) {
            b.putShort((short) WITHDRAWN);
        } else {
            b.putShort((short) length).put(r.data());
        }
        return b.array();
    }

    /** The update in {@code body}'s readable bytes, or null if they are not exactly one valid update. */
    public static ExtensionUpdate decodeUpdate(ByteBuf body) {
        int p = body.readerIndex();
        int end = body.writerIndex();
        if (end - p < UPDATE_HEADER_BYTES) {
            return null;
        }
        int count = body.getUnsignedShort(p);
        p += UPDATE_HEADER_BYTES;
        if (count > (end - p) / RECORD_HEADER_BYTES) {
            return null;
        }
        List<ExtensionRecord> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            if (end - p < RECORD_HEADER_BYTES) {
                return null;
            }
            long origin = body.getLong(p);
            int kind = body.getUnsignedShort(p + 8);
            long sequence = body.getLong(p + 10);
            long age = body.getUnsignedInt(p + 18);
            int length = body.getUnsignedShort(p + 22);
            p += RECORD_HEADER_BYTES;
            boolean signed = (age & SignatureField.SIGNED) != 0;
            age &= Integer.MAX_VALUE;
            if (origin == 0 || kind < ExtensionRecord.MIN_KIND || sequence < 0) {
                return null;
            }
            byte[] data = null;
            if (length != WITHDRAWN) {
                if (length > end - p) {
                    return null;
                }
                data = new byte[length];
                body.getBytes(p, data);
                p += length;
            }
            byte[] signature = null;
            if (signed) {
                signature = SignatureField.read(body, p, end);
                if (signature == null) {
                    return null;
                }
                p += SignatureField.size(signature);
            }
            records.add(new ExtensionRecord(new NodeId(origin), kind, sequence, (int) age, data, signature));
        }
        return p == end ? new ExtensionUpdate(records) : null;
    }

    /** Writes the body of {@code a} at the writer index. */
    public static void encodeAck(ExtensionAck a, ByteBuf out) {
        List<ExtensionAck.Entry> entries = a.entries();
        if (entries.size() > MAX_COUNT) {
            throw new IllegalArgumentException("an extension ack holds at most " + MAX_COUNT + " entries");
        }
        out.writeShort(entries.size());
        for (ExtensionAck.Entry e : entries) {
            out.writeLong(e.origin().value());
            out.writeShort(e.kind());
            out.writeLong(e.sequence());
        }
    }

    /** The ack in {@code body}'s readable bytes, or null if they are not exactly one valid ack. */
    public static ExtensionAck decodeAck(ByteBuf body) {
        int p = body.readerIndex();
        int end = body.writerIndex();
        if (end - p < ACK_HEADER_BYTES) {
            return null;
        }
        int count = body.getUnsignedShort(p);
        p += ACK_HEADER_BYTES;
        if (end - p != count * ACK_ENTRY_BYTES) {
            return null;
        }
        List<ExtensionAck.Entry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++, p += ACK_ENTRY_BYTES) {
            long origin = body.getLong(p);
            int kind = body.getUnsignedShort(p + 8);
            long sequence = body.getLong(p + 10);
            if (origin == 0 || kind < ExtensionRecord.MIN_KIND || sequence < 0) {
                return null;
            }
            entries.add(new ExtensionAck.Entry(new NodeId(origin), kind, sequence));
        }
        return new ExtensionAck(entries);
    }
}
